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
        BadClock{"clock_unknown", 8, 16, "'monotonic' is not one of realtime, icount"},
        BadClock{"clock_shift_too_big", 11, 17, "guest.icount_shift: 11 is out of range [0, 10]"},
        BadClock{"clock_shift_auto", 10, 17, "'auto' adapts to the host's speed"},
        BadClock{"clock_shift_quoted", 8, 38, "guest.icount_shift: expected an integer"},
        BadClock{"clock_shift_without_icount", 8, 21, "only meaningful with 'clock: icount'"},
        BadClock{"clock_icount_kvm", 10, 10, "icount needs TCG"}),
    [](const ::testing::TestParamInfo<BadClock>& i) { return std::string(i.param.file); });
