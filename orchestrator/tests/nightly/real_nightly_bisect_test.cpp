// Two unattended nights, end to end, on the real stack: a kernel git tree generated from
// Debian's linux-source-6.12 (kernel_series.hpp), a first night at its tip, then four commits
// of which one makes every inodegc queueing burn CPU, and a second night that finds the
// regression against the first, bisects the range by itself in the matrix's nightly.tree,
// names the culprit and runs the three culprit checks (no-op, unrelated, revert). Deterministic
// mode (`clock: icount`), so five boots a side decide. Long: several kernel builds (ccache)
// and about forty TCG boots; runs with RLAB_LONG_TESTS=1 (scripts/test.sh).
#include "kernel_bisect/culprit.hpp"
#include "kernel_bisect/session.hpp"
#include "image/guest_images.hpp"
#include "kernel_series.hpp"
#include "night_dir.hpp"
#include "nightly/analysis.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

// One cell (XFS), or with `gap` the XFS and ext4 cells and their gap.
std::string matrix_text(const fs::path& repo, bool gap = false) {
  return fmt::format(R"(kernels:
  linux:
    source: {{git: {0}, ref: main}}
    page_size: 64k
axes:
  kernel: [linux]
  filesystem:
    - fs: xfs
{1}  vcpus: [1]
  workload:
    - {{type: shell1, copies: vcpus, passes: 1, duration_s: 10, attribution: counts}}
  repeats: 5
guest: {{memory_mib: 1024, cpu: auto, accel: tcg, clock: icount, disk_gib: 2}}
hosts:
  - {{uri: "qemu:///system", vcpus: 2}}
results: rlab.db
seed: 13
nightly:
  tree: {0}
{2})",
                     repo.string(), gap ? "    - fs: ext4\n" : "", gap ? "gaps: [[xfs-defaults, ext4-defaults]]\n" : "");
}

/// Night 1 at a generated tree's first tip, four commits of which the second makes every
/// inodegc queueing burn CPU (XFS only), then night 2; the tree, both nights' outputs, the range
/// (oldest first) and the minutes each took.
struct TwoNights {
  explicit TwoNights(const std::string& name, bool gap)
      : work(rlab::testing::night_dir(name)), tree(work), t0(std::chrono::steady_clock::now()) {
    const char* bin = std::getenv("RLAB_BIN");
    EXPECT_TRUE(bin && *bin);
    first_tip = tree.comment("fs/xfs/xfs_super.c", "xfs: comment before night 1");
    std::ofstream(work / "matrix.yaml") << matrix_text(tree.repo(), gap);
    const std::vector<std::string> night{bin ? bin : "rlab", "nightly", "--matrix", (work / "matrix.yaml").string(),
                                         "--agent", image::default_agent_binary().string(), "--out",
                                         (work / "reports").string()};
    util::ProcessOptions po;
    po.timeout = std::chrono::hours(3);
    po.echo = true;
    one = util::run(night, po);
    night_one_minutes = minutes();
    if (one.exit_code != 0) return;
    range.push_back(tree.comment("fs/xfs/xfs_inode.c", "xfs: comment 1 after night 1"));
    range.push_back(tree.slow_inodegc("xfs: burn CPU in inodegc queueing"));
    range.push_back(tree.comment("fs/xfs/xfs_file.c", "xfs: comment 2 after night 1"));
    range.push_back(tree.comment("fs/xfs/xfs_log.c", "xfs: comment 3 after night 1"));
    two = util::run(night, po);
  }
  double minutes() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 60;
  }
  const std::string& culprit() const { return range.at(1); }
  /// The newest nightly run's reports (the bisections' runs are in the store too).
  std::string summary() const {
    auto st = store::Store::open(work / "rlab.db");
    store::RunId second = 0;
    for (const auto& r : st->runs())
      if (r.kind == "nightly") second = std::max(second, r.id);
    const auto rep = nightly::analyse(work / "rlab.db", second, {});
    return util::read_file(work / "reports" / rep.dir_name() / "summary.txt");
  }
  /// After a passing test: the sources of every commit it built and the work directory.
  void remove(const std::string& revert_commit) const {
    for (const auto& c : range) fs::remove_all(util::cache_dir() / "sources" / ("git-" + c));
    fs::remove_all(util::cache_dir() / "sources" / ("git-" + first_tip));
    fs::remove_all(util::cache_dir() / "sources" / ("git-" + revert_commit));
    fs::remove_all(work);
  }

  fs::path work;
  rlab::testing::KernelSeries tree;
  std::chrono::steady_clock::time_point t0;
  std::string first_tip;
  std::vector<std::string> range;
  util::ProcessResult one, two;
  double night_one_minutes = 0;
};

TEST(RealNightlyBisect, TheSecondNightFindsBisectsAndChecksTheCulpritByItself) {
  TwoNights n("two-nights", false);
  ASSERT_EQ(n.one.exit_code, 0) << util::tail(n.one.output, 60);
  std::fprintf(stderr, "[two nights] night 1 in %.1f min; both %.1f min\n", n.night_one_minutes, n.minutes());
  EXPECT_EQ(n.two.exit_code, 1) << "a regression is a finding\n" << util::tail(n.two.output, 60);
  EXPECT_NE(n.two.output.find("first bad commit " + n.culprit()), std::string::npos) << util::tail(n.two.output, 80);
  EXPECT_NE(n.two.output.find("(confirmed: reverting it removes the regression)"), std::string::npos)
      << util::tail(n.two.output, 80);

  // The session, from the store: the night's range, the culprit and its three checks.
  kernel_bisect::SessionDb db(n.work / "rlab.db");
  const auto s = db.get(1);
  ASSERT_TRUE(s) << "the night started a bisection";
  EXPECT_EQ(s->spec.good_commit, n.first_tip);
  EXPECT_EQ(s->spec.bad_commit, n.tree.tip());
  EXPECT_EQ(s->status, rlab::kernel_bisect::SessionState::found) << s->message;
  EXPECT_EQ(s->first_bad, n.culprit());
  const auto checks = kernel_bisect::checks_from_json(s->checks_json);
  ASSERT_TRUE(checks) << s->checks_json;
  EXPECT_EQ(checks->no_op, false) << "the busy loop is new code";
  EXPECT_EQ(checks->unrelated, false) << "xfs_icache.c is compiled";
  ASSERT_TRUE(checks->revert);
  EXPECT_EQ(checks->revert->result, bisection::StepResult::good) << checks->revert->reason;

  // The second night's reports name the session and its outcome.
  const auto summary = n.summary();
  EXPECT_NE(summary.find("session 1 found: first bad commit " + n.culprit()), std::string::npos) << summary;
  EXPECT_FALSE(kernel_bisect::GitTree(n.tree.repo()).bisecting());
  std::fprintf(stderr, "[two nights] passed in %.1f min\n", n.minutes());
  if (!::testing::Test::HasFailure()) n.remove(checks->revert->commit);
}

// The report's own question, asked by the night: the same XFS-only change, an XFS and an ext4
// cell with `gaps:`; night 2 sees the XFS ÷ ext4 ratio fall, and besides the XFS cell's own
// bisection it bisects the gap — each commit booted in both cells round by round — and names
// the same commit, with the revert check passing on the gap.
TEST(RealNightlyBisect, TheSecondNightBisectsTheGapOfXfsOverExt4ByItself) {
  TwoNights n("gap-nights", true);
  ASSERT_EQ(n.one.exit_code, 0) << util::tail(n.one.output, 60);
  std::fprintf(stderr, "[gap nights] night 1 in %.1f min; both %.1f min\n", n.night_one_minutes, n.minutes());
  EXPECT_EQ(n.two.exit_code, 1) << "a regression is a finding\n" << util::tail(n.two.output, 60);

  // The night's gap session, from the store: the XFS cell against the ext4 cell, found.
  kernel_bisect::SessionDb db(n.work / "rlab.db");
  std::optional<kernel_bisect::Session> gap;
  for (std::int64_t id = 1; id <= 4; ++id)
    if (auto s = db.get(id); s && s->spec.gap()) gap = s;
  ASSERT_TRUE(gap) << "the night started a gap bisection\n" << util::tail(n.two.output, 80);
  EXPECT_EQ(gap->spec.good_commit, n.first_tip);
  EXPECT_EQ(gap->spec.bad_commit, n.tree.tip());
  EXPECT_EQ(gap->status, rlab::kernel_bisect::SessionState::found) << gap->message;
  EXPECT_EQ(gap->first_bad, n.culprit());
  const auto checks = kernel_bisect::checks_from_json(gap->checks_json);
  ASSERT_TRUE(checks) << gap->checks_json;
  ASSERT_TRUE(checks->revert);
  EXPECT_EQ(checks->revert->result, bisection::StepResult::good) << checks->revert->reason;

  // The second night's summary lists the gap, its bisection and the culprit.
  const auto summary = n.summary();
  EXPECT_NE(summary.find("== gaps"), std::string::npos) << summary;
  EXPECT_NE(summary.find(fmt::format("session {} found: first bad commit {}", gap->id, n.culprit())),
            std::string::npos)
      << summary;
  EXPECT_FALSE(kernel_bisect::GitTree(n.tree.repo()).bisecting());
  std::fprintf(stderr, "[gap nights] passed in %.1f min\n", n.minutes());
  if (!::testing::Test::HasFailure()) n.remove(checks->revert->commit);
}

}  // namespace
