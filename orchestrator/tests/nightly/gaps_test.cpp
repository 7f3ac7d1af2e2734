// Gaps (`gaps:`): the nightly follows the XFS ÷ ext4 score ratio of one git-built kernel like a
// cell. Each round boots both cells side by side and the host moves both alike within a round
// (±6%), so each cell alone is noisy while the per-round ratio is tight. When XFS loses 12%
// against ext4 (ext4 unchanged), the gap regresses against the previous night, a gap
// bisection (against set) is called for beside the cell's, and nights later its change point
// shows; when a kernel change costs both cells alike, the cells regress but the gap does not.
#include "../compare/scenario.hpp"
#include "checks.hpp"
#include "nightly/analysis.hpp"
#include "nightly/report_dirs.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using namespace rlab::testing;

constexpr const char* kMatrix = R"(kernels:
  mainline: {source: {git: /nonexistent/linux, ref: master}, page_size: 64k}
axes:
  kernel: [mainline]
  filesystem: [{fs: xfs}, {fs: ext4}]
  vcpus: [2]
  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]
  repeats: 5
gaps: [[xfs-defaults, ext4-defaults]]
)";
const std::string kXfs = "mainline/xfs-defaults/2vcpu/shell1";
const std::string kExt4 = "mainline/ext4-defaults/2vcpu/shell1";

std::string sha(int night) { return fmt::format("{:040x}", 0xdef000 + night); }

/// Score of `cell` in round `r` of night `n` (1-based) at `level` lpm: the host's speed in that
/// round (shared by both cells of the round, ±6%) and 0.2% of the cell's own noise.
double score(double level, int n, const std::string& cell, unsigned r) {
  const double round_host = 1 + 0.03 * (static_cast<double>((r + static_cast<unsigned>(n)) % 5) - 2);
  return level * round_host * (1 + 0.002 * z(r + static_cast<unsigned>(n), cell == kXfs ? 1 : 6));
}

/// Fills `nights` nights; `level(n, xfs)` gives each cell's level on night n.
class GapNights : public ::testing::Test {
 protected:
  void fill(int nights, const std::function<double(int, bool)>& level) {
    dir_ = fs::temp_directory_path() / ("rlab-nightly-gaps-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    for (int n = 1; n <= nights; ++n)
      runs_.push_back(fill_run(
          *st, "nightly",
          [&, n](const std::string& cell, const std::string&, unsigned r) {
            const bool xfs = cell == kXfs;
            BootSpec b;
            b.env = tcg_env("[]", false);
            b.env.fs = xfs ? "xfs" : "ext4";
            b.env.kernel_release = fmt::format("6.13.0-rc{}", n);
            b.score = score(level(n, xfs), n, cell, r);
            return b;
          },
          kMatrix, sha(n)));
  }
  void TearDown() override { fs::remove_all(dir_); }

  nightly::NightAnalysis analyse(std::size_t night) const {
    nightly::AnalyseOptions o;
    o.gaps = matrix::parse_matrix(kMatrix, "/nonexistent/matrix.yaml", {.check_paths = false}).gaps;
    return nightly::analyse(db_, runs_[night], o);
  }
  static const nightly::GapOutcome& gap(const nightly::NightAnalysis& r) {
    if (r.gaps.size() != 1) throw std::runtime_error(fmt::format("{} gaps", r.gaps.size()));
    return r.gaps[0];
  }
  static const nightly::CellOutcome& cell(const nightly::NightAnalysis& r, const std::string& id) {
    for (const auto& c : r.cells)
      if (c.cell_id == id) return c;
    throw std::runtime_error("no cell " + id);
  }

  fs::path dir_, db_;
  std::vector<store::RunId> runs_;
};

TEST_F(GapNights, XfsLosingGroundToExt4IsAGapRegressionBisectedAsAGap) {
  // XFS 240 lpm, ext4 280 lpm; from night 7 on XFS is 12% slower, ext4 unchanged.
  fill(14, [](int n, bool xfs) { return xfs ? (n >= 7 ? 240.0 * 0.88 : 240.0) : 280.0; });

  const auto before = analyse(5);  // night 6: nothing happened yet
  const auto& g6 = gap(before);
  EXPECT_EQ(g6.cell_id, kXfs);
  EXPECT_EQ(g6.against_cell_id, kExt4);
  EXPECT_EQ(g6.kernel, "mainline");
  ASSERT_TRUE(g6.tonight);
  EXPECT_EQ(g6.tonight->method, "paired") << "both cells boot in every round";
  EXPECT_EQ(g6.tonight->ratios.size(), 5u);
  EXPECT_NEAR(g6.tonight->point.score, 240.0 / 280.0, 0.005);
  EXPECT_EQ(g6.nights.size(), 6u);
  EXPECT_EQ(g6.status(), "PASS") << g6.reason();
  for (const auto& b : before.bisects) EXPECT_TRUE(b.against_cell_id.empty());

  // Night 7: the ratio falls against the previous night, paired round by round.
  const auto r7 = analyse(6);
  const auto& g7 = gap(r7);
  ASSERT_TRUE(g7.vs_previous && g7.vs_previous->result) << (g7.vs_previous ? g7.vs_previous->note : "none");
  EXPECT_TRUE(g7.vs_previous->regression());
  EXPECT_NEAR(g7.vs_previous->result->difference.relative_change, -0.12, 0.01);
  EXPECT_EQ(g7.vs_previous->base_run, runs_[5]);
  ASSERT_TRUE(g7.vs_baseline);
  EXPECT_TRUE(g7.vs_baseline->regression()) << "the baseline is night 1";
  EXPECT_EQ(g7.status(), "FAIL");
  EXPECT_NE(g7.reason().find("gap regression against the previous night"), std::string::npos) << g7.reason();
  EXPECT_GE(r7.regressions(), 1u + (cell(r7, kXfs).regression() ? 1u : 0u)) << "the gap counts like a cell";
  EXPECT_FALSE(cell(r7, kExt4).regression()) << cell(r7, kExt4).reason();
  // A gap bisection over nights 6..7, with the second cell set: apart from any plan for the
  // XFS cell over the same range.
  const nightly::BisectPlan* plan = nullptr;
  for (const auto& b : r7.bisects)
    if (!b.against_cell_id.empty()) {
      EXPECT_EQ(plan, nullptr) << "one gap plan per range";
      plan = &b;
    }
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(plan->cell_id, kXfs);
  EXPECT_EQ(plan->against_cell_id, kExt4);
  EXPECT_EQ(plan->good_commit, sha(6));
  EXPECT_EQ(plan->bad_commit, sha(7));
  EXPECT_EQ(plan->subject(), kXfs + " ÷ " + kExt4);
  EXPECT_EQ(r7.gap_bisect(g7), plan);
  for (const auto& b : r7.bisects)
    if (b.against_cell_id.empty()) EXPECT_EQ(std::find(b.also.begin(), b.also.end(), g7.name()), b.also.end());

  // Nights later the ratio's history shows a change point between nights 6 and 7: new on the
  // first night that shows it (the gap's history is cut at tonight like a cell's).
  int first = -1;
  for (std::size_t n = 7; n < runs_.size() && first < 0; ++n)
    if (!gap(analyse(n)).change_points.empty()) first = static_cast<int>(n);
  ASSERT_GE(first, 8) << "at least three nights after the drop";
  const auto rk = analyse(static_cast<std::size_t>(first));
  const auto& gk = gap(rk);
  ASSERT_EQ(gk.change_points.size(), 1u) << gk.history_note;
  const auto& m = gk.change_points[0];
  EXPECT_TRUE(m.is_new);
  EXPECT_TRUE(m.detection.regression());
  EXPECT_EQ(m.detection.last_before.run, runs_[5]);
  EXPECT_EQ(m.detection.first_after.run, runs_[6]);
  EXPECT_NEAR(m.detection.change.relative_change, -0.12, 0.01);
  EXPECT_EQ(gk.status(), "FAIL");
  const nightly::BisectPlan* cp_plan = nullptr;
  for (const auto& b : rk.bisects)
    if (b.against_cell_id == kExt4 && b.good_commit == sha(6)) cp_plan = &b;
  ASSERT_NE(cp_plan, nullptr) << "the new change point calls for the same gap bisection";
  EXPECT_NE(cp_plan->why.find("new change point"), std::string::npos) << cp_plan->why;
  if (static_cast<std::size_t>(first) + 1 < runs_.size()) {
    const auto next = analyse(static_cast<std::size_t>(first) + 1);
    ASSERT_EQ(gap(next).change_points.size(), 1u);
    EXPECT_FALSE(gap(next).change_points[0].is_new);
    for (const auto& b : next.bisects) EXPECT_TRUE(b.against_cell_id.empty()) << b.why;
  }

  // The reports: the text and HTML show the gap, its history, change point and bisection;
  // JUnit and KCIDB carry one test for it.
  const auto summary = nightly::render_summary(rk);
  EXPECT_NE(summary.find("1 gap:"), std::string::npos) << summary;
  EXPECT_NE(summary.find("== gaps"), std::string::npos);
  EXPECT_NE(summary.find("FAIL   " + kXfs + " ÷ " + kExt4), std::string::npos) << summary;
  EXPECT_NE(summary.find("NEW  regression"), std::string::npos);
  EXPECT_NE(summary.find(fmt::format("bisection ({} .. {}): not started", sha(6), sha(7))), std::string::npos) << summary;
  EXPECT_NE(summary.find(fmt::format("gap {} ÷ {}: good {}", kXfs, kExt4, sha(6))), std::string::npos) << summary;
  const auto html = nightly::render_html(rk);
  EXPECT_NE(html.find("<h2>Gaps</h2>"), std::string::npos);
  ASSERT_NE(html.find("<title>gap " + kXfs + " ÷ ext4-defaults</title>"), std::string::npos)
      << "the second cell by what differs";
  const auto chart = html.substr(html.find("<title>gap " + kXfs));
  const auto svg = chart.substr(0, chart.find("</svg>"));
  std::size_t circles = 0;
  for (auto p = svg.find("<circle"); p != std::string::npos; p = svg.find("<circle", p + 1)) ++circles;
  EXPECT_EQ(circles, static_cast<std::size_t>(first) + 1) << "one point per night up to tonight";
  EXPECT_NE(svg.find(R"(class="change-point")"), std::string::npos) << "the change point marked";
  EXPECT_LT(html.find("XFS / ext4 score ratio"), html.find("<title>gap " + kXfs)) << "beside the ratio chart";

  const auto kcidb = nightly::to_kcidb(rk);
  EXPECT_TRUE(kcidb_reference_problems(kcidb).empty());
  ASSERT_EQ(kcidb["tests"].size(), 3u) << "two cells and one gap";
  const auto& t = kcidb["tests"][2];
  EXPECT_EQ(t["path"], "unixbench.shell1.xfs.vcpus2.gap_ext4");
  EXPECT_EQ(t["status"], "FAIL");
  EXPECT_FALSE(t["number"].contains("unit")) << "a ratio is dimensionless";
  EXPECT_EQ(t["misc"]["against_cell_id"], kExt4);
  EXPECT_EQ(t["misc"]["bisection"]["good"], sha(6));
  if (kcidb_schema_missing().empty()) {
    const auto problems = kcidb_problems(kcidb);
    EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);
  }
  const auto junit_file = dir_ / "junit.xml";
  {
    std::ofstream(junit_file) << nightly::render_junit(rk);
  }
  const auto j = parse_junit(junit_file);
  ASSERT_TRUE(j.parsed) << j.error;
  EXPECT_EQ(j.testcases, 3);
  EXPECT_EQ(j.suites_tests, 3);
  EXPECT_EQ(j.suites_failures, j.failure_elements);
  EXPECT_GE(j.failure_elements, 1);
}

TEST_F(GapNights, BothCellsDroppingAlikeIsNoGapRegression) {
  // From night 5 on a kernel change costs XFS and ext4 15% alike: each cell regresses, the
  // ratio does not move.
  fill(9, [](int n, bool xfs) { return (xfs ? 240.0 : 280.0) * (n >= 5 ? 0.85 : 1.0); });
  for (std::size_t n = 4; n < runs_.size(); ++n) {
    const auto r = analyse(n);
    const auto& g = gap(r);
    EXPECT_FALSE(g.regression()) << "night " << n + 1 << ": " << g.reason();
    EXPECT_EQ(g.status(), "PASS");
    ASSERT_TRUE(g.tonight);
    EXPECT_NEAR(g.tonight->point.score, 240.0 / 280.0, 0.005);
    for (const auto& m : g.change_points) EXPECT_FALSE(m.detection.regression()) << "night " << n + 1;
    for (const auto& b : r.bisects) EXPECT_TRUE(b.against_cell_id.empty()) << "no gap bisection: " << b.why;
  }
  const auto r5 = analyse(4);
  EXPECT_TRUE(cell(r5, kXfs).regression());
  EXPECT_TRUE(cell(r5, kExt4).regression());
  ASSERT_TRUE(gap(r5).vs_previous && gap(r5).vs_previous->result);
  EXPECT_NE(gap(r5).vs_previous->result->verdict, stats::Verdict::different);
  EXPECT_EQ(r5.regressions(), 2u) << "the two cells, not the gap";
  ASSERT_EQ(r5.bisects.size(), 1u) << "one cell bisection over the range";
  EXPECT_EQ(r5.bisects[0].good_commit, sha(4));
  EXPECT_EQ(r5.gap_bisect(gap(r5)), nullptr);
}

TEST_F(GapNights, RoundsWithoutBothCellsFallBackToTheRatioOfMedians) {
  dir_ = fs::temp_directory_path() / ("rlab-nightly-gaps-medians-" + std::to_string(::getpid()));
  fs::remove_all(dir_);
  db_ = dir_ / "rlab.db";
  auto st = store::Store::open(db_);
  // XFS boots only in rounds 0-2, ext4 only in rounds 3-4: no round has both.
  runs_.push_back(fill_run(
      *st, "nightly",
      [](const std::string& cell, const std::string&, unsigned r) {
        BootSpec b;
        b.env = tcg_env("[]", false);
        b.env.fs = cell == kXfs ? "xfs" : "ext4";
        if ((cell == kXfs) == (r < 3)) b.score = cell == kXfs ? 200.0 + r : 250.0 + r;
        return b;
      },
      kMatrix, sha(1)));
  const auto r = analyse(0);
  const auto& g = gap(r);
  ASSERT_TRUE(g.tonight) << g.note;
  EXPECT_EQ(g.tonight->method, "medians");
  EXPECT_TRUE(g.tonight->ratios.empty());
  EXPECT_DOUBLE_EQ(g.tonight->point.score, 201.0 / 253.5);
  EXPECT_EQ(g.tonight->boots, 3u);
  EXPECT_EQ(g.tonight->against_boots, 2u);
}

}  // namespace
