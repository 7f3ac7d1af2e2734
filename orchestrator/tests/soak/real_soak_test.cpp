// Unattended nights with faults, on the real stack (soak_lab.hpp): a generated kernel tree
// whose tip moves between nights, a private libvirtd, the kernel cache on a small
// loop-mounted file system under a budget far below what the nights build. After every
// night: what the report says, no guest, lock, partial cache entry or bisection state left,
// the store whole, the cache within its budget; the figures of each night are printed
// ("[soak] night N ...", docs/benchmarks.md "Soak").
//
// RealSoak.ThreeNights... (the README's test command, ~10 min): a night killed with SIGKILL
// in the middle of its run, a night with libvirtd restarted under it that starts with the
// cache's disk nearly full. RealSoak.TenNights... (RLAB_LONG_TESTS=1, about an hour): a
// regression on night 3 whose bisection is killed with SIGKILL and resumed on night 4, a
// libvirtd restart on night 5, an improvement on night 6, a commit that does not build on
// night 7, a night that starts with the disk full on night 8.
#include "soak_lab.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

using namespace rlab;
using rlab::testing::NightFigures;
using rlab::testing::SoakLab;

/// The condition "a boot of the `night`-th night's run is measuring" as a query.
std::string measuring(int night) {
  return fmt::format("SELECT count(*) FROM samples s JOIN boots b ON b.id = s.boot_id JOIN cells c ON c.id = "
                     "b.cell_id WHERE b.status = 'running' AND c.run_id = (SELECT id FROM runs WHERE kind = "
                     "'nightly' ORDER BY id LIMIT 1 OFFSET {})",
                     night - 1);
}

/// Restarts the lab's libvirtd under night `night` (process `pid`) once one of its boots is
/// measuring (SIGTERM leaves the guests running; the daemon started again reconnects to them).
void restart_libvirtd_mid_run(SoakLab& lab, pid_t pid, int night) {
  if (!lab.wait_for(measuring(night), pid, std::chrono::minutes(30))) return;  // it ended first (its checks say why)
  lab.daemon().stop();
  ASSERT_TRUE(lab.daemon().start()) << lab.daemon().log();
}

void print(const std::vector<NightFigures>& nights) {
  std::fprintf(stderr, "[soak] | night | what | exit | wall min | cache GiB | store MiB | run dirs MiB |\n");
  for (const auto& f : nights)
    std::fprintf(stderr, "[soak] | %d | %s | %d | %.1f | %.2f | %.2f | %.2f |\n", f.night, f.what.c_str(),
                 f.exit_code, f.wall_min, f.cache_gib, f.store_mib, f.run_dirs_mib);
}

TEST(RealSoak, ThreeNightsSurviveAKillALibvirtdRestartAndANearlyFullDisk) {
  SoakLab lab("soak3", 6, 3, 3, 5);
  std::vector<NightFigures> nights;
  lab.tree().comment("fs/xfs/xfs_super.c", "xfs: soak night 1");

  int code = lab.night(1);
  EXPECT_EQ(code, 0) << util::tail(lab.log(), 60);
  nights.push_back(lab.check_night(1, code, "first night"));

  // Night 2 dies (SIGKILL, as the OOM killer or a power cut would) while a guest measures.
  const pid_t two = lab.start_night(2);
  ASSERT_TRUE(lab.wait_for(measuring(2), two, std::chrono::minutes(20)))
      << lab.log();
  ::kill(two, SIGKILL);
  code = lab.wait_night(two);
  EXPECT_EQ(code, 128 + SIGKILL);
  std::fprintf(stderr, "[soak] night 2 killed after %.1f min\n", lab.minutes());

  // Night 3 starts with the cache's disk nearly full and libvirtd is restarted under it: it
  // still measures (its kernel is cached), compares with night 1, and clears night 2's guest.
  lab.fill_cache_disk(64);
  const pid_t three = lab.start_night(3);
  restart_libvirtd_mid_run(lab, three, 3);
  code = lab.wait_night(three);
  const std::string out = lab.log();
  // Its kernel is a cache hit when night 2 used it within the budget's 15-minute grace; on a
  // slower machine the budget (the filler counts against it) has freed it, the rebuild finds
  // the disk full, and the night must say exactly that.
  if (out.find("is full") == std::string::npos) {
    EXPECT_EQ(code, 0) << util::tail(out, 80);
    EXPECT_NE(out.find("reopened"), std::string::npos) << util::tail(out, 80);
    EXPECT_NE(out.find("nightly run 3: 1 cells, 0 regressions, 0 with failed boots; previous night run 1"),
              std::string::npos)
        << util::tail(out, 80);
  } else {
    EXPECT_EQ(code, 1) << util::tail(out, 80);
    EXPECT_NE(out.find("the disk of the cache " + lab.cache().string() + " is full"), std::string::npos)
        << util::tail(out, 80);
  }
  lab.empty_cache_disk();
  nights.push_back(lab.check_night(3, code, "disk nearly full, libvirtd restarted; night 2 killed"));
  EXPECT_EQ(lab.query("SELECT status FROM runs WHERE id = 2"), "interrupted")
      << "the killed night's run is closed by the next night";
  if (code == 0) {
    EXPECT_EQ(lab.query("SELECT count(*) FROM boots WHERE status = 'done' AND cell_id IN "
                        "(SELECT id FROM cells WHERE run_id = 3)"),
              "3");
  }
  print(nights);
}

TEST(RealSoak, TenNightsFindBisectAndSurviveFaultsWithinTheBudget) {
  SoakLab lab("soak10", 10, 4, 5, 10);
  auto& tree = lab.tree();
  std::vector<NightFigures> nights;
  const std::string icache = "fs/xfs/xfs_icache.c";
  const std::string clean_icache = tree.content(icache);

  // Nights 1 and 2: quiet.
  for (int n = 1; n <= 2; ++n) {
    tree.comment("fs/xfs/xfs_super.c", fmt::format("xfs: soak night {}", n));
    const int code = lab.night(n);
    EXPECT_EQ(code, 0) << util::tail(lab.log(), 60);
    EXPECT_NE(lab.newest_summary().find("0 regressions"), std::string::npos) << lab.newest_summary();
    nights.push_back(lab.check_night(n, code, "quiet"));
  }

  // Night 3: a regression among three commits; the night finds it and starts bisecting, and is
  // killed with SIGKILL while a bisection step's guest boots.
  tree.comment("fs/xfs/xfs_inode.c", "xfs: soak night 3, before");
  const std::string culprit = tree.slow_inodegc("xfs: soak night 3, burn CPU in inodegc queueing");
  tree.comment("fs/xfs/xfs_log.c", "xfs: soak night 3, after");
  const pid_t three = lab.start_night(3);
  ASSERT_TRUE(lab.wait_for("SELECT count(*) FROM boots b JOIN cells c ON c.id = b.cell_id JOIN runs r ON "
                           "r.id = c.run_id WHERE r.kind <> 'nightly' AND b.status = 'running'",
                           three, std::chrono::minutes(60)))
      << util::tail(lab.log(), 60);
  ::kill(three, SIGKILL);
  EXPECT_EQ(lab.wait_night(three), 128 + SIGKILL);
  EXPECT_EQ(lab.query("SELECT count(*) FROM bisect_sessions WHERE status IN ('ends', 'bisecting')"), "1");
  nights.push_back(lab.check_night(3, 128 + SIGKILL, "regression planted; killed mid-bisection", true));

  // Night 4: nothing new; it resumes the bisection and names the culprit.
  tree.comment("fs/xfs/xfs_super.c", "xfs: soak night 4");
  int code = lab.night(4);
  EXPECT_NE(lab.log().find("first bad commit " + culprit), std::string::npos) << util::tail(lab.log(), 80);
  EXPECT_EQ(lab.query("SELECT first_bad FROM bisect_sessions WHERE id = 1"), culprit);
  nights.push_back(lab.check_night(4, code, "bisection resumed, culprit named"));

  // Night 5: libvirtd restarted under the run. Its kernel still has the busy loop: the cell
  // stays a regression against the baseline (night 1), with every boot measured.
  tree.comment("fs/xfs/xfs_super.c", "xfs: soak night 5");
  const pid_t five = lab.start_night(5);
  restart_libvirtd_mid_run(lab, five, 5);
  code = lab.wait_night(five);
  EXPECT_EQ(code, 1) << util::tail(lab.log(), 60);
  EXPECT_NE(lab.log().find("1 regressions, 0 with failed boots"), std::string::npos) << util::tail(lab.log(), 60);
  EXPECT_NE(lab.log().find("regression against the baseline"), std::string::npos) << util::tail(lab.log(), 60);
  EXPECT_NE(lab.log().find("reopened"), std::string::npos);
  nights.push_back(lab.check_night(5, code, "libvirtd restarted mid-run"));

  // Night 6: the busy loop goes again: an improvement, reported, not bisected.
  tree.commit(icache, clean_icache, "xfs: soak night 6, inodegc queueing fast again");
  code = lab.night(6);
  EXPECT_EQ(code, 0) << util::tail(lab.log(), 60);
  EXPECT_NE(lab.newest_summary().find("% different"), std::string::npos) << lab.newest_summary();
  EXPECT_EQ(lab.query("SELECT count(*) FROM bisect_sessions"), "1") << "an improvement is not bisected";
  nights.push_back(lab.check_night(6, code, "improvement"));

  // Night 7: the tip does not build: an ERROR cell, nothing compared, nothing bisected.
  tree.commit("fs/xfs/xfs_super.c", tree.content("fs/xfs/xfs_super.c") + "#error rlab soak: does not build\n",
              "xfs: soak night 7, does not build", /*lasting=*/false);
  code = lab.night(7);
  EXPECT_EQ(code, 1) << util::tail(lab.log(), 60);
  EXPECT_NE(lab.log().find("1 with failed boots"), std::string::npos) << util::tail(lab.log(), 60);
  EXPECT_EQ(lab.query("SELECT count(*) FROM bisect_sessions"), "1");
  nights.push_back(lab.check_night(7, code, "tip does not build"));

  // Night 8: fixed, but the cache's disk is nearly full when the night starts. Either the
  // budget makes room (the ballast counts against it: old build trees go) and the night
  // measures, or the build runs out of space and the night says so; either way nothing is
  // left broken behind, and night 9 measures.
  tree.comment("fs/xfs/xfs_super.c", "xfs: soak night 8, builds again");
  lab.fill_cache_disk(200);
  code = lab.night(8);
  lab.empty_cache_disk();
  if (code != 0) {
    EXPECT_NE(lab.log().find("No space left on device"), std::string::npos) << util::tail(lab.log(), 60);
  }
  nights.push_back(lab.check_night(8, code, "disk full at the start"));

  // Nights 9 and 10: quiet again, the disk freed; the tip of night 8 builds now.
  for (int n = 9; n <= 10; ++n) {
    tree.comment("fs/xfs/xfs_super.c", fmt::format("xfs: soak night {}", n));
    code = lab.night(n);
    EXPECT_EQ(code, 0) << util::tail(lab.log(), 60);
    nights.push_back(lab.check_night(n, code, "quiet"));
  }
  EXPECT_LE(lab.report_dirs(), 4u) << "nightly.keep_reports 4";
  print(nights);
}

}  // namespace
