// The real thing, end to end: a git repository made from Debian's linux-source-6.12 (one base
// commit) plus 15 commits touching fs/xfs, one of which makes every inodegc queueing burn CPU
// (a busy loop in xfs_inodegc_queue) and one of which does not build; `rlab bisect` must
// build, boot and measure its way to the slow commit and report the broken one as skipped.
// Slow: kernel builds (ccache) and a few dozen TCG boots; the cell runs its guests under
// -icount, so guest time follows instructions, host load does not move the score, and a step
// boots the commit alone against the ends' boots.
#include "kernel_bisect/culprit.hpp"
#include "kernel_bisect/git.hpp"
#include "kernel_bisect/session.hpp"
#include "git_fixture.hpp"
#include "kernel_series.hpp"
#include "real_lab.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

namespace rlab::kernel_bisect {
namespace {
namespace fs = std::filesystem;
using testing::git;

/// Which of `commits` commits (after the base) git tests first: the shape alone decides.
std::size_t first_midpoint(const fs::path& scratch, std::size_t commits) {
  auto shas = testing::make_linear_repo(scratch, static_cast<int>(commits + 1));
  GitTree g(scratch);
  g.start(shas.back(), shas.front());
  auto c = g.current();
  g.reset();
  return static_cast<std::size_t>(std::find(shas.begin(), shas.end(), c) - shas.begin());
}

/// A long end-to-end test's clock and scratch directory (/var/tmp/<prefix>-<pid>, made empty).
struct EndToEnd {
  explicit EndToEnd(const std::string& prefix)
      : work(fs::path("/var/tmp") / (prefix + "-" + std::to_string(::getpid()))) {
    fs::remove_all(work);
    fs::create_directories(work);
  }
  double minutes() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 60;
  }
  const std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  const fs::path work;
  const std::string bin = std::getenv("RLAB_BIN") ? std::getenv("RLAB_BIN") : "";  ///< rlab under test
};

TEST(RealBisect, NamesTheInjectedInodegcSlowdownAndSkipsTheBrokenCommit) {
  const EndToEnd e2e("rlab-bisect-e2e");
  ASSERT_FALSE(e2e.bin.empty()) << "RLAB_BIN is not set";
  const auto minutes = [&] { return e2e.minutes(); };
  const fs::path& work = e2e.work;
  rlab::testing::KernelSeries series_repo(work);
  const fs::path repo = series_repo.repo();
  const std::string base = series_repo.base();

  const std::size_t n = 15;
  const std::size_t broken = first_midpoint(work / "shape", n);  // git tests it: it must skip
  const std::size_t culprit = broken + 3 <= n ? broken + 3 : broken - 3;
  ASSERT_NE(culprit, broken + 1);  // a skip right before the culprit would hide it
  const std::vector<std::string> files = {"fs/xfs/xfs_super.c", "fs/xfs/xfs_inode.c",
                                          "fs/xfs/xfs_file.c",  "fs/xfs/xfs_log.c",
                                          "fs/xfs/xfs_iops.c"};
  std::vector<std::string> series{base};
  for (std::size_t i = 1; i <= n; ++i) {
    // The commit after the broken one rewrites its file without the #error.
    const std::string path = i == broken + 1 ? "fs/xfs/xfs_super.c" : files[i % files.size()];
    if (i == culprit) {
      series.push_back(series_repo.slow_inodegc("xfs: burn CPU in inodegc queueing"));
    } else if (i == broken) {
      series.push_back(series_repo.commit(
          "fs/xfs/xfs_super.c",
          series_repo.content("fs/xfs/xfs_super.c") + "#error \"rlab bisect test: this commit does not build\"\n",
          "xfs: a commit that does not build", false));
    } else {
      const std::string subject = "xfs: comment " + std::to_string(i) + " in " + fs::path(path).filename().string();
      series.push_back(series_repo.commit(
          path, series_repo.content(path) + "/* rlab bisect test series: harmless change " + std::to_string(i) + " */\n",
          subject));
    }
  }
  std::fprintf(stderr, "[real bisect] series of %zu commits made in %.1f min (broken #%zu, culprit #%zu)\n",
               n, minutes(), broken, culprit);

  std::vector<std::string> argv{e2e.bin, "bisect", "--tree", repo.string(), "--good", base,
                                "--bad", "main", "--cell", "xfs", "--matrix",
                                (fs::path(RLAB_TEST_DATA) / "real_bisect.yaml").string(),
                                "--db", (work / "rlab.db").string()};  // every other option its default
  util::ProcessOptions o;
  o.timeout = std::chrono::hours(4);
  o.echo = true;
  const double before = minutes();
  auto r = util::run(argv, o);
  std::fprintf(stderr, "[real bisect] rlab bisect took %.1f min; whole test %.1f min\n", minutes() - before,
               minutes());
  EXPECT_EQ(r.exit_code, 0) << util::tail(r.output, 60);
  EXPECT_NE(r.output.find("first bad commit: " + series[culprit] + " xfs: burn CPU in inodegc queueing"),
            std::string::npos)
      << util::tail(r.output, 60);
  EXPECT_NE(r.output.find("skipped " + series[broken].substr(0, 12) +
                          " xfs: a commit that does not build: build:"),
            std::string::npos)
      << util::tail(r.output, 60);
  // Where the time went at the culprit: the busy loop's own on-CPU stack (xfs_inodegc_queue()
  // is inlined into xfs_inode_mark_reclaimable(), the frame that burns the CPU).
  const auto where = r.output.find("where the time went:");
  ASSERT_NE(where, std::string::npos) << util::tail(r.output, 60);
  const std::string ranking = r.output.substr(where, r.output.find("\nskipped ", where) - where);
  EXPECT_NE(ranking.find("oncpu      xfs_inode_mark_reclaimable < xfs_fs_destroy_inode"), std::string::npos)
      << ranking;
  // The same as a differential flame graph: the busy loop's frame is new, so full red.
  const fs::path oncpu = work / "bisect-1-flames" / "oncpu.svg";
  EXPECT_NE(r.output.find("differential flame graph: " + oncpu.string()), std::string::npos) << util::tail(r.output, 20);
  if (fs::exists(oncpu)) {
    const std::string svg = util::read_file(oncpu);
    bool red = false;
    for (auto box = svg.find("<title>xfs_inode_mark_reclaimable: "); box != std::string::npos;
         box = svg.find("<title>xfs_inode_mark_reclaimable: ", box + 1))
      red |= svg.compare(svg.find("fill=", box), 14, "fill=\"#ff3737\"") == 0;
    EXPECT_TRUE(red) << "no box of the busy loop's frame is new in " << oncpu;
  }
  EXPECT_FALSE(GitTree(repo).bisecting());
  // Confirmed by reverting it on the bad end: the busy loop goes, the score comes back.
  EXPECT_NE(r.output.find("revert check: passed"), std::string::npos) << util::tail(r.output, 60);
  std::string revert;
  {
    SessionDb db(work / "rlab.db");
    const auto s = db.get(1);
    ASSERT_TRUE(s);
    const auto checks = checks_from_json(s->checks_json);
    ASSERT_TRUE(checks && checks->revert) << s->checks_json;
    EXPECT_EQ(checks->revert->result, bisection::StepResult::good) << checks->revert->reason;
    EXPECT_FALSE(checks->suspicious());
    revert = checks->revert->commit;
  }

  // The exported trees of the series are large; the built kernels stay cached. After a
  // failure everything stays, for `rlab bisect --resume` and a look at the store.
  if (!::testing::Test::HasFailure()) {
    for (const auto& c : series) fs::remove_all(util::cache_dir() / "sources" / ("git-" + c));
    fs::remove_all(util::cache_dir() / "sources" / ("git-" + revert));
    fs::remove_all(work);
  }
}

// The bisection benchmark (docs/benchmarks.md "Real end-to-end bisection"): a 16-commit series
// on Debian's 6.12 with one regression and one commit that does not build, bisected with every
// `rlab bisect` default on data/bisect_series.yaml (XFS agcount=8, 1 vCPU, one 20 s pass,
// icount). Each series plants a different change at a different place.
struct Series {
  const char* name;
  std::size_t culprit;  ///< position after the base, 1..16
  std::size_t broken;   ///< position of the commit that does not build
  bool tested_broken;   ///< git's search passes the broken commit: it must be skipped
  std::string (*plant)(rlab::testing::KernelSeries&);
  /// Bisect the gap of the XFS cell over the ext4 cell (`--against ext4`) instead of the XFS
  /// cell alone; the planted change slows XFS only.
  bool gap = false;
  /// Words in every harmless commit: a salt gives the series SHAs no earlier run built, so
  /// every kernel is built (the speed comparison's "kernels not cached").
  std::string salt = "";
};

void bisect_series(const Series& spec) {
  const EndToEnd e2e("rlab-bisect-series");
  ASSERT_FALSE(e2e.bin.empty()) << "RLAB_BIN is not set";
  const auto minutes = [&] { return e2e.minutes(); };
  const fs::path& work = e2e.work;
  rlab::testing::KernelSeries tree(work);
  const std::vector<std::string> files = {"fs/xfs/xfs_super.c", "fs/xfs/xfs_file.c", "fs/xfs/xfs_log.c",
                                          "fs/xfs/xfs_iops.c", "fs/xfs/xfs_aops.c"};
  std::vector<std::string> series{tree.base()};
  std::string culprit_subject;
  for (std::size_t i = 1; i <= 16; ++i) {
    const std::string path = i == spec.broken + 1 ? "fs/xfs/xfs_super.c" : files[i % files.size()];
    if (i == spec.culprit) {
      series.push_back(spec.plant(tree));
      culprit_subject = tree.plumb({"log", "-1", "--format=%s", series.back()});
    } else if (i == spec.broken) {
      series.push_back(tree.commit("fs/xfs/xfs_super.c",
                                   tree.content("fs/xfs/xfs_super.c") + "#error \"rlab bisect benchmark: does not build\"\n",
                                   "xfs: a commit that does not build", false));
    } else {
      series.push_back(tree.comment(path, std::string(spec.name) + ": harmless change " + std::to_string(i) + spec.salt));
    }
  }
  std::vector<std::string> argv{e2e.bin, "bisect", "--tree", tree.repo().string(), "--good", tree.base(),
                                "--bad", "main", "--cell", "xfs", "--matrix",
                                (fs::path(RLAB_TEST_DATA) / "bisect_series.yaml").string(),
                                "--db", (work / "rlab.db").string()};
  if (spec.gap) argv.insert(argv.end(), {"--against", "ext4"});
  util::ProcessOptions o;
  o.timeout = std::chrono::hours(2);
  o.echo = true;
  const double before = minutes();
  auto r = util::run(argv, o);
  std::fprintf(stderr, "[bisect series %s] culprit #%zu, broken #%zu: rlab bisect took %.1f min\n", spec.name,
               spec.culprit, spec.broken, minutes() - before);
  EXPECT_EQ(r.exit_code, 0) << util::tail(r.output, 60);
  EXPECT_NE(r.output.find("first bad commit: " + series[spec.culprit] + " " + culprit_subject), std::string::npos)
      << util::tail(r.output, 60);
  if (spec.tested_broken)
    EXPECT_NE(r.output.find("skipped " + series[spec.broken].substr(0, 12) + " xfs: a commit that does not build: build:"),
              std::string::npos)
        << util::tail(r.output, 60);
  EXPECT_FALSE(GitTree(tree.repo()).bisecting());
  if (!::testing::Test::HasFailure()) fs::remove_all(work);
}

constexpr const char* kRemoveAnchor = "\terror = xfs_dir_remove_child(tp, resblks, &du);\n";
constexpr const char* kCreateAnchor = "\terror = xfs_dir_create_child(tp, resblks, &du);\n";

// The default tier's real bisection (the README's test command; RealBisect.* are the long
// forms): three commits on Debian's 6.12, the middle one burning CPU in inodegc queueing;
// `rlab bisect` with every default must build, boot and measure its way to it and run the
// culprit checks. The cell is real_bisect.yaml's with a 5 s pass instead of 10 s: the change
// is -75%, and the plumbing is what is checked here (the long forms keep the 10 s pass).
TEST(RealShortBisect, NamesTheCulpritOfThreeCommitsAndChecksIt) {
  const EndToEnd e2e("rlab-short-bisect");
  ASSERT_FALSE(e2e.bin.empty()) << "RLAB_BIN is not set";
  const fs::path matrix = e2e.work / "matrix.yaml";
  std::ofstream(matrix) << rlab::testing::small_matrix(
      {.duration_s = 5, .guest = "{memory_mib: 1024, cpu: auto, accel: tcg, clock: icount, disk_gib: 2}"});
  rlab::testing::KernelSeries series(e2e.work);
  const std::string good = series.base();
  series.comment("fs/xfs/xfs_inode.c", "xfs: comment before the culprit");
  const std::string culprit = series.slow_inodegc("xfs: burn CPU in inodegc queueing");
  series.comment("fs/xfs/xfs_file.c", "xfs: comment after the culprit");
  util::ProcessOptions o;
  o.timeout = std::chrono::hours(1);
  o.echo = true;
  auto r = util::run({e2e.bin, "bisect", "--tree", series.repo().string(), "--good", good, "--bad", "main",
                      "--cell", "xfs", "--matrix", matrix.string(), "--db", (e2e.work / "rlab.db").string()},
                     o);
  std::fprintf(stderr, "[short bisect] whole test %.1f min\n", e2e.minutes());
  EXPECT_EQ(r.exit_code, 0) << util::tail(r.output, 60);
  EXPECT_NE(r.output.find("first bad commit: " + culprit + " xfs: burn CPU in inodegc queueing"), std::string::npos)
      << util::tail(r.output, 60);
  // Confirmed by reverting it on the bad end: the busy loop goes, the score comes back.
  EXPECT_NE(r.output.find("revert check: passed"), std::string::npos) << util::tail(r.output, 60);
  EXPECT_FALSE(GitTree(series.repo()).bisecting());
  if (!::testing::Test::HasFailure()) fs::remove_all(e2e.work);
}

// 3 ms of busy-waiting in every unlink, under the directory's lock (about -4%); the broken
// commit a little later, where git's search does not pass.
std::string unlink_delay(rlab::testing::KernelSeries& t) {
  return t.insert("fs/xfs/xfs_inode.c", kRemoveAnchor, "\tudelay(3000);\t/* rlab bisect benchmark */\n",
                  "xfs: wait 3 ms in xfs_remove");
}

TEST(RealBisect, SeriesUnlinkDelay) { bisect_series({"unlink-delay", 9, 11, false, unlink_delay}); }

// A smaller wait in every create, early in the series; git tests the broken commit (#4).
TEST(RealBisect, SeriesCreateDelay) {
  bisect_series({"create-delay", 3, 4, true, [](rlab::testing::KernelSeries& t) {
                   return t.insert("fs/xfs/xfs_inode.c", kCreateAnchor,
                                   "\tudelay(2500);\t/* rlab bisect benchmark */\n", "xfs: wait 2.5 ms in xfs_create");
                 }});
}

// CPU burnt in inodegc queueing (instructions, not guest time), late in the series; git
// tests the broken commit (#12).
TEST(RealBisect, SeriesInodegcSpin) {
  bisect_series({"inodegc-spin", 14, 12, true, [](rlab::testing::KernelSeries& t) {
                   return t.slow_inodegc("xfs: burn CPU in inodegc queueing (300k)", 300000);
                 }});
}

// The speed of a gap bisection against a single cell's (docs/benchmarks.md "Gap bisection"):
// the unlink-delay series, every kernel built afresh (a salt no earlier run used), bisected
// once as the XFS cell and once as the gap of XFS over ext4. Run the two one after another.
std::string fresh_salt() {
  return " (" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count()) + ")";
}

TEST(RealBisect, SpeedOfTheCellUncached) {
  bisect_series({"speed-cell", 9, 11, false, unlink_delay, false, fresh_salt()});
}

TEST(RealBisect, SpeedOfTheGapUncached) {
  bisect_series({"speed-gap", 9, 11, false, unlink_delay, true, fresh_salt()});
}

// The report's question is a gap: which commit opened the gap between XFS and ext4 on the
// same kernel? A series with two changes: first a wait in every unlink at the VFS (both
// filesystems slow down alike, about -15%), later a smaller wait in XFS's own unlink (XFS
// alone, about -3%). Bisecting the XFS cell's score names the first: its ends differ mostly
// by it, and at a minimum effect of 6% the second is too small to tell apart from the bad end.
// Bisecting the gap (the XFS cell over the ext4 cell, round by round, at the default 2%)
// names the second: the first does not move the ratio. Both with every other default, icount.
TEST(RealBisect, TheGapOfXfsOverExt4NamesTheXfsOnlyChangeTheXfsCellTheSharedOne) {
  const EndToEnd e2e("rlab-gap-bisect");
  ASSERT_FALSE(e2e.bin.empty()) << "RLAB_BIN is not set";
  rlab::testing::KernelSeries tree(e2e.work);
  const std::string good = tree.base();
  tree.comment("fs/xfs/xfs_file.c", "xfs: comment before the changes");
  std::string namei = rlab::testing::KernelSeries::insert_after(tree.content("fs/namei.c"), "#include <linux/namei.h>\n",
                                                                "#include <linux/delay.h>\n");
  namei = rlab::testing::KernelSeries::insert_after(
      namei, "\t\t\tif (error)\n\t\t\t\tgoto out;\n\t\t\terror = dir->i_op->unlink(dir, dentry);\n",
      "\t\t\tudelay(12000);\t/* rlab gap series: every filesystem */\n");
  const std::string shared = tree.commit("fs/namei.c", namei, "vfs: wait 12 ms in every unlink");
  tree.comment("fs/xfs/xfs_log.c", "xfs: comment between the changes");
  const std::string xfs_only = tree.insert("fs/xfs/xfs_inode.c", kRemoveAnchor,
                                           "\tudelay(2700);\t/* rlab gap series: XFS alone */\n",
                                           "xfs: wait 2.7 ms in xfs_remove");
  tree.comment("fs/xfs/xfs_aops.c", "xfs: comment after the changes");
  ASSERT_FALSE(::testing::Test::HasFailure()) << "the series could not be made";
  util::ProcessOptions o;
  o.timeout = std::chrono::hours(2);
  o.echo = true;
  const auto bisect = [&](std::vector<std::string> extra, const std::string& db) {
    std::vector<std::string> argv{e2e.bin, "bisect", "--tree", tree.repo().string(), "--good", good, "--bad", "main",
                                  "--cell", "xfs", "--matrix", (fs::path(RLAB_TEST_DATA) / "gap.yaml").string(),
                                  "--db", (e2e.work / db).string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const double t0 = e2e.minutes();
    auto r = util::run(argv, o);
    std::fprintf(stderr, "[gap bisect] rlab bisect %s took %.1f min\n", util::display_command(extra).c_str(),
                 e2e.minutes() - t0);
    return r;
  };
  const auto cell = bisect({"--min-effect", "0.06"}, "cell.db");
  EXPECT_EQ(cell.exit_code, 0) << util::tail(cell.output, 60);
  EXPECT_NE(cell.output.find("first bad commit: " + shared + " vfs: wait 12 ms in every unlink"), std::string::npos)
      << util::tail(cell.output, 60);
  const auto gap = bisect({"--against", "ext4"}, "gap.db");
  EXPECT_EQ(gap.exit_code, 0) << util::tail(gap.output, 80);
  EXPECT_NE(gap.output.find("first bad commit: " + xfs_only + " xfs: wait 2.7 ms in xfs_remove"), std::string::npos)
      << util::tail(gap.output, 80);
  // Reverting it on the bad end closes the gap again; what changed is read in the XFS cell,
  // net of what changed in ext4 at the same commit.
  EXPECT_NE(gap.output.find("revert check: passed"), std::string::npos) << util::tail(gap.output, 80);
  EXPECT_NE(gap.output.find("of the gap in"), std::string::npos) << util::tail(gap.output, 80);
  EXPECT_NE(gap.output.find(" in 6.12/xfs-defaults/1vcpu/shell1 ("), std::string::npos) << util::tail(gap.output, 80);
  EXPECT_NE(gap.output.find("net of what changed alike in 6.12/ext4-defaults/1vcpu/shell1"), std::string::npos)
      << util::tail(gap.output, 80);
  EXPECT_FALSE(GitTree(tree.repo()).bisecting());
  std::fprintf(stderr, "[gap bisect] whole test %.1f min\n", e2e.minutes());
  if (!::testing::Test::HasFailure()) fs::remove_all(e2e.work);
}

}  // namespace
}  // namespace rlab::kernel_bisect
