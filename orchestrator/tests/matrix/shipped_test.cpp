// The matrices that ship with rlab load, and expand to what their comments promise.
#include "stats/shift_interval.hpp"
#include "stats/verdict.hpp"
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <set>

namespace {

namespace fs = std::filesystem;
using namespace rlab::matrix;

const fs::path kSource = RLAB_SOURCE_DIR;

// The default matrix answers its question within about 10 minutes of boots on a 2-core host:
// deterministic mode, and the fewest repeats with which a verdict is possible at all.
TEST(ShippedMatrix, DefaultIsSmallValidAndCanReachAVerdict) {
  const Matrix m = load_matrix(kSource / "matrix.yaml");  // also checks the patch exists
  const auto cells = expand_cells(m);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(m.kernel_axis, (std::vector<std::string>{"6.12", "6.12+inline-inactivation"}));
  EXPECT_EQ(m.kernels.at("6.12+inline-inactivation").patchset, "inline-inactivation");
  EXPECT_EQ(m.kernels.at("6.12+inline-inactivation").patches.at(0),
            kSource / "images" / "patches" / "xfs-inline-inactivation.patch");
  EXPECT_EQ(m.results, kSource / "results" / "rlab.db");
  // One matrix for every host: the clock is settled per run against its hosts.
  EXPECT_EQ(m.guest.accel, Accel::kAuto);
  EXPECT_EQ(m.guest.clock, GuestClock::kAuto);
  ASSERT_TRUE(m.repeats_by_clock.has_value());
  const unsigned floor = rlab::stats::shift_interval_floor(1 - 2 * rlab::stats::VerdictOptions{}.alpha);
  EXPECT_GE(m.repeats_by_clock->first, floor) << "enough boots a side for a verdict at the default alpha";
  EXPECT_GT(m.repeats_by_clock->second, m.repeats_by_clock->first) << "real time needs more boots";
  Matrix tcg = m;
  rlab::matrix::settle_clock(tcg, GuestClock::kIcount);  // an x86 machine
  EXPECT_TRUE(tcg.guest.icount().has_value()) << "deterministic mode: the host's noise does not enter";
  EXPECT_EQ(tcg.repeats, m.repeats_by_clock->first);
  double guest_vcpu_seconds = 0;
  for (const auto& c : cells) {
    EXPECT_EQ(c.page_size, 65536u) << c.id;
    EXPECT_EQ(c.workload.kind, "shell1");
    EXPECT_EQ(c.copies, c.vcpus);
    EXPECT_LE(c.vcpus, 2u);
    guest_vcpu_seconds += c.vcpus * c.workload.duration_s * c.workload.passes * tcg.repeats;
  }
  // Load time alone must leave room for boots within 10 minutes on 2 vCPUs of budget.
  EXPECT_LE(guest_vcpu_seconds / 2.0, 180.0);
}

TEST(ShippedMatrix, Arm64NightlyCoversTheReportedCase) {
  LoadOptions opt;
  opt.check_paths = false;  // its linux-stable tree lives on the nightly hosts
  const Matrix m = load_matrix(kSource / "matrices" / "arm64-nightly.yaml", opt);
  const auto cells = expand_cells(m);
  EXPECT_EQ(cells.size(), 6u * 3u * 4u);
  EXPECT_GE(m.repeats, 5u) << "a verdict at alpha 0.01 needs 5 boots a side";
  EXPECT_GT(m.nightly.remeasure_minutes, 0);
  EXPECT_GT(m.nightly.bisect_minutes, 0);
  EXPECT_EQ(m.guest.accel, Accel::kKvm);
  EXPECT_EQ(m.guest.host_page_kib, 64u);
  EXPECT_EQ(m.kernels.at("6.6.y").source.kind, rlab::build::KernelSource::Kind::kGitTree);
  EXPECT_EQ(m.kernels.at("7.x+inline-inactivation").patchset, "inline-inactivation");
  std::set<std::string> ids;
  for (const auto& c : cells) ids.insert(c.id);
  // The original report: 6.6.y XFS vs ext4 on shell1 -c 144.
  EXPECT_TRUE(ids.count("6.6.y/xfs-agcount144/144vcpu/shell1"));
  EXPECT_TRUE(ids.count("6.6.y/ext4-defaults/144vcpu/shell1"));
  for (const auto& c : cells) {
    EXPECT_EQ(c.workload.passes, 3u);
    EXPECT_DOUBLE_EQ(c.workload.duration_s, 60.0);
    EXPECT_EQ(c.copies, c.vcpus);
  }
  // Patches resolve into the repository's images/, next to matrices/.
  EXPECT_EQ(m.kernels.at("6.12+inline-inactivation").patches.at(0),
            kSource / "images" / "patches" / "xfs-inline-inactivation.patch");
  // Unattended: the night fetches the 6.6.y tree and bisects in it.
  EXPECT_EQ(m.nightly.tree, m.kernels.at("6.6.y").source.git_tree);
  EXPECT_EQ(m.nightly.fetch, std::vector<std::string>{"origin"});
  // It follows the XFS / ext4 gap of every kernel and vCPU count, for both XFS variants.
  ASSERT_EQ(m.gaps.size(), 2u * 6u * 4u);
  const auto reported = std::find_if(m.gaps.begin(), m.gaps.end(), [](const Gap& g) {
    return g.cell_id == "6.6.y/xfs-agcount144/144vcpu/shell1";
  });
  ASSERT_NE(reported, m.gaps.end());
  EXPECT_EQ(reported->against_cell_id, "6.6.y/ext4-defaults/144vcpu/shell1");
}

// The KVM path on the emulated host: the nightly matrix's cells scaled down, KVM, 64K host
// pages, pinned, its host's URI from the environment.
TEST(ShippedMatrix, KvmHostScalesTheNightlyCellsDown) {
  ::setenv("RLAB_KVM_HOST_URI", "qemu+libssh://root@127.0.0.1:2222/system?keyfile=/k", 1);
  const Matrix m = load_matrix(kSource / "matrices" / "kvm-host.yaml");
  ::unsetenv("RLAB_KVM_HOST_URI");
  const auto cells = expand_cells(m);
  EXPECT_EQ(cells.size(), 8u);
  EXPECT_EQ(m.repeats, 2u);
  EXPECT_EQ(m.guest.accel, Accel::kKvm);
  EXPECT_EQ(m.guest.cpu_model, "host");
  EXPECT_EQ(m.guest.clock, GuestClock::kRealtime);
  EXPECT_EQ(m.guest.host_page_kib, 64u);
  EXPECT_TRUE(m.guest.pinning.vcpus);
  EXPECT_TRUE(m.guest.pinning.emulator);
  ASSERT_EQ(m.hosts.size(), 1u);
  EXPECT_EQ(m.hosts[0].uri, "qemu+libssh://root@127.0.0.1:2222/system?keyfile=/k");
  EXPECT_EQ(m.hosts[0].agent_link, AgentLink::kLibvirt);
  EXPECT_EQ(m.hosts[0].files, HostFiles::kVolumes);
  EXPECT_EQ(m.hosts[0].hello_timeout_s, 300);  // guests emulated twice over boot slowly
  EXPECT_EQ(m.hosts[0].hello_retries, 1u);      // and now and then hang in early boot
  std::set<unsigned> vcpus;
  std::set<std::string> fs;
  for (const auto& c : cells) {
    vcpus.insert(c.vcpus);
    fs.insert(std::string(to_string(c.filesystem.fs)));
    EXPECT_EQ(c.page_size, 65536u);
    EXPECT_EQ(c.copies, c.vcpus);
  }
  EXPECT_EQ(vcpus, (std::set<unsigned>{1, 2}));
  EXPECT_EQ(fs, (std::set<std::string>{"xfs", "ext4"}));
  // Without the host running there is no URI, and the matrix says how to get one.
  try {
    load_matrix(kSource / "matrices" / "kvm-host.yaml");
    ADD_FAILURE() << "loaded without RLAB_KVM_HOST_URI";
  } catch (const MatrixError& e) {
    EXPECT_NE(std::string(e.what()).find("rlab kvm-host start"), std::string::npos) << e.what();
  }
}

}  // namespace

// The report's case per AG: 2 kernels x XFS at agcount 4 and 20 x 16 copies shared and per
// copy, 2 repeats = 16 boots, stacks collected (the AG header waits), passes long enough for
// 16 copies' first loops.
TEST(ShippedMatrix, AgHeadersIsTheReportsCaseAtTwoAgCounts) {
  const Matrix m = load_matrix(kSource / "matrices" / "ag-headers.yaml");
  const auto cells = expand_cells(m);
  EXPECT_EQ(cells.size() * m.repeats, 16u);
  std::set<std::string> ids;
  for (const auto& c : cells) {
    ids.insert(c.id);
    EXPECT_EQ(c.filesystem.fs, Fs::kXfs);
    EXPECT_EQ(c.copies, 16u);
    EXPECT_EQ(c.vcpus, 2u);
    EXPECT_EQ(c.workload.attribution, rlab::matrix::Attribution::kStacks);
    EXPECT_GE(c.workload.duration_s, 45.0);
  }
  for (const char* id : {"6.12/xfs-agcount4/2vcpu/shell1-c16", "6.12/xfs-agcount20/2vcpu/shell1-c16",
                         "6.12+inline-inactivation/xfs-agcount20/2vcpu/shell1-per-copy-c16"})
    EXPECT_TRUE(ids.count(id)) << id;
}
