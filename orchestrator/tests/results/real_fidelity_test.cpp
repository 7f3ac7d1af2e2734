// The bare guest in a real 64K 6.12 arm64 guest through libvirt: UnixBench's looper, multi.sh
// and tst.sh under rlab's minimal /init (no agent), read back from the serial console and
// stored as a boot like any other.
#include "build/run_options.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

TEST(RealFidelity, BareGuestCountsUnixbenchLoopsAtOneVcpu) {
  if (const auto why = rlab::testing::unixbench_missing(); !why.empty()) GTEST_SKIP() << why;
  const fs::path ub = rlab::testing::unixbench_dir();
  auto started = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(started.ok()) << started.output;
  rlab::testing::RunDir d("bare");
  // Deterministic clock (a guest second is 62.5 M instructions), so the count does not depend
  // on the host's load: about 3.5 loops per guest second at one vCPU.
  d.write(rlab::testing::small_matrix(
      {.workloads = {"{type: shell1, runner: bare, unixbench: \"" + ub.string() + "\", passes: 1, duration_s: 4}"},
       .guest = "{memory_mib: 1024, accel: tcg, clock: icount}"}));
  auto r = rlab::util::run(rlab_argv({"run", d.matrix.string(), "--agent", agent_binary().string()}),
                           rlab::build::run_options(std::chrono::minutes(30)));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto st = rlab::store::Store::open(d.dir / "rlab.db");
  const auto boots = st->boot_results(st->latest_run().value_or(0));
  ASSERT_EQ(boots.size(), 1u);
  const auto& b = boots[0];
  EXPECT_EQ(b.workload, "bare-shell1");
  ASSERT_EQ(b.status, rlab::store::BootStatus::done) << b.failure;
  EXPECT_EQ(b.guest_page_size, 65536u) << "from the bare guest's console";
  EXPECT_FALSE(b.kernel_release.empty());
  // 4 guest seconds: about 14 loops, 200-220 lpm (docs/benchmarks.md "Fidelity").
  EXPECT_GE(b.loops, 8u);
  EXPECT_LE(b.loops, 25u);
  ASSERT_TRUE(b.score);
  EXPECT_GT(*b.score, 150);
  EXPECT_LT(*b.score, 300);
}
