// guest.clock / guest.icount_shift (deterministic mode): defaults, accepted forms, and one bad
// file per rule with the place the error must name.
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using rlab::matrix::Accel;
using rlab::matrix::GuestClock;
using rlab::matrix::LoadOptions;
using rlab::matrix::MatrixError;
using rlab::matrix::parse_matrix;

namespace {

const std::string kHead =
    "kernels:\n"
    "  k: {source: {debian: \"6.12\", suite: trixie}}\n"
    "axes:\n"
    "  kernel: [k]\n"
    "  vcpus: [1]\n"
    "  filesystem: [{fs: xfs}]\n"
    "  workload: [{type: shell1}]\n";

LoadOptions any_host() { return LoadOptions{}; }  // accel auto is resolved per host, not at load

struct BadClock {
  const char* file;  ///< data/bad/<file>.yaml
  int line;
  int col;
  const char* message;
};

void PrintTo(const BadClock& c, std::ostream* os) { *os << c.file; }

class BadClockMatrix : public ::testing::TestWithParam<BadClock> {};

}  // namespace

TEST(GuestClock, RealtimeByDefault) {
  auto m = parse_matrix(kHead, "m.yaml", any_host());
  EXPECT_EQ(m.guest.clock, GuestClock::kRealtime);
  EXPECT_FALSE(m.guest.icount().has_value());
  EXPECT_STREQ(rlab::matrix::to_string(m.guest.clock), "realtime");
}

TEST(GuestClock, IcountWithDefaultAndExplicitShift) {
  auto m = parse_matrix(kHead + "guest: {clock: icount}\n", "m.yaml", any_host());
  EXPECT_EQ(m.guest.clock, GuestClock::kIcount);
  ASSERT_TRUE(m.guest.icount().has_value());
  EXPECT_EQ(*m.guest.icount(), rlab::matrix::kDefaultIcountShift);
  for (unsigned shift : {0u, 7u, 10u}) {
    auto m2 = parse_matrix(kHead + "guest: {accel: tcg, clock: icount, icount_shift: " +
                               std::to_string(shift) + "}\n",
                           "m.yaml", any_host());
    ASSERT_TRUE(m2.guest.icount().has_value());
    EXPECT_EQ(*m2.guest.icount(), shift);
  }
  auto rt = parse_matrix(kHead + "guest: {clock: realtime}\n", "m.yaml", any_host());
  EXPECT_FALSE(rt.guest.icount().has_value());
}

TEST(GuestClock, AutoAccelIsLeftToEachHostNotRefusedAtLoad) {
  // Whether `accel: auto` is KVM depends on the host a cell boots on (run/host_fit.hpp refuses
  // icount there); the matrix itself is valid on any machine. accel: kvm never is.
  const std::string text = kHead + "guest:\n  memory_mib: 1024\n  clock: icount\n";
  EXPECT_NO_THROW(parse_matrix(text, "m.yaml", LoadOptions{}));
  EXPECT_THROW(parse_matrix(kHead + "guest: {accel: kvm, clock: icount}\n", "m.yaml", LoadOptions{}), MatrixError);
}

// `clock: auto` with a fixed accelerator is settled at load: TCG counts instructions, KVM runs
// in real time, each with its own boots per cell and disk.
TEST(GuestClock, AutoWithAFixedAccelIsSettledAtLoad) {
  const std::string axes = "  repeats: {icount: 5, realtime: 12}\n";
  auto tcg = parse_matrix(kHead + axes + "guest: {accel: tcg, clock: auto, icount_shift: 3}\n", "m.yaml", any_host());
  EXPECT_EQ(tcg.guest.clock, GuestClock::kIcount);
  EXPECT_EQ(tcg.repeats, 5u);
  EXPECT_EQ(tcg.guest.disk_backing, rlab::matrix::DiskBacking::kRam);
  EXPECT_EQ(tcg.guest.icount(), std::optional<unsigned>(3));
  auto kvm = parse_matrix(kHead + axes + "guest: {accel: kvm, cpu: host, clock: auto}\n", "m.yaml", any_host());
  EXPECT_EQ(kvm.guest.clock, GuestClock::kRealtime);
  EXPECT_EQ(kvm.repeats, 12u);
  EXPECT_EQ(kvm.guest.disk_backing, rlab::matrix::DiskBacking::kVirtio);
  EXPECT_FALSE(kvm.guest.icount().has_value());
  // An explicit clock takes its own count from the mapping.
  EXPECT_EQ(parse_matrix(kHead + axes + "guest: {clock: realtime}\n", "m.yaml", any_host()).repeats, 12u);
  EXPECT_EQ(parse_matrix(kHead + axes + "guest: {accel: tcg, clock: icount}\n", "m.yaml", any_host()).repeats, 5u);
}

// With `accel: auto` the clock waits for the run's hosts; nothing may boot before that.
TEST(GuestClock, AutoWithAutoAccelWaitsForTheHostsAndCannotBootUnsettled) {
  auto m = parse_matrix(kHead + "  repeats: {icount: 5, realtime: 12}\nguest: {clock: auto}\n", "m.yaml", any_host());
  EXPECT_EQ(m.guest.clock, GuestClock::kAuto);
  EXPECT_STREQ(rlab::matrix::to_string(m.guest.clock), "auto");
  EXPECT_EQ(m.repeats, 12u) << "the larger count until settled (the boot limit is checked against it)";
  EXPECT_THROW(m.guest.icount(), std::logic_error);
  EXPECT_THROW(rlab::matrix::settle_clock(m, GuestClock::kAuto), std::invalid_argument);
  rlab::matrix::settle_clock(m, GuestClock::kRealtime);
  EXPECT_EQ(m.repeats, 12u);
  EXPECT_FALSE(m.guest.icount().has_value());
  rlab::matrix::settle_clock(m, GuestClock::kIcount);
  EXPECT_EQ(m.repeats, 5u);
  EXPECT_EQ(m.guest.disk_backing, rlab::matrix::DiskBacking::kRam);
  // A plain number is every clock's count; a given disk backing stays.
  auto plain = parse_matrix(kHead + "  repeats: 7\nguest: {clock: auto, disk: {backing: virtio}}\n", "m.yaml", any_host());
  rlab::matrix::settle_clock(plain, GuestClock::kIcount);
  EXPECT_EQ(plain.repeats, 7u);
  EXPECT_EQ(plain.guest.disk_backing, rlab::matrix::DiskBacking::kVirtio);
}

TEST_P(BadClockMatrix, FailsWithFileLineCol) {
  const BadClock& c = GetParam();
  const fs::path path = fs::path(RLAB_TEST_DATA) / "bad" / (std::string(c.file) + ".yaml");
  try {
    rlab::matrix::load_matrix(path, any_host());
    FAIL() << c.file << " loaded without error";
  } catch (const MatrixError& e) {
    const std::string what = e.what();
    const std::string prefix =
        path.string() + ":" + std::to_string(c.line) + ":" + std::to_string(c.col) + ": ";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
    EXPECT_NE(what.find(c.message), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rules, BadClockMatrix,
    ::testing::Values(
        BadClock{"clock_unknown", 8, 16, "'monotonic' is not one of realtime, icount, auto"},
        BadClock{"clock_shift_too_big", 11, 17, "guest.icount_shift: 11 is out of range [0, 10]"},
        BadClock{"clock_shift_auto", 10, 17, "'auto' adapts to the host's speed"},
        BadClock{"clock_shift_quoted", 8, 38, "guest.icount_shift: expected an integer"},
        BadClock{"clock_shift_without_icount", 8, 21, "only meaningful with 'clock: icount' or 'auto'"},
        BadClock{"repeats_by_clock_missing", 7, 12, "axes.repeats: missing key 'realtime'"},
        BadClock{"repeats_by_clock_unknown", 7, 37, "axes.repeats: unknown key 'kvm'"},
        BadClock{"repeats_by_clock_zero", 7, 21, "axes.repeats.icount: 0 is out of range [1, 1000]"},
        BadClock{"clock_icount_kvm", 10, 10, "icount needs TCG"}),
    [](const ::testing::TestParamInfo<BadClock>& i) { return std::string(i.param.file); });
