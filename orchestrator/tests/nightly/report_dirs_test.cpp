// The nightly analysis and report writers on stored data: stores filled through the Store API
// (the compare tests' fixture), analysed with nightly::analyse and written with
// nightly::write_reports; the files are checked with real parsers and the published schema.
#include "../compare/scenario.hpp"
#include "checks.hpp"
#include "nightly/analysis.hpp"
#include "nightly/report_dirs.hpp"
#include "stats/descriptive.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <regex>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using namespace rlab::testing;

std::size_t count_in(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

class TwoNights : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-nightly-reports-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    // A non-nightly run in between must not count as a night.
    first_ = fill_run(*st, "nightly", [](auto& c, auto& k, unsigned r) { return scenario_boot(0, c, k, r); });
    fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return scenario_boot(1, c, k, r); });
    second_ = fill_run(*st, "nightly", [](auto& c, auto& k, unsigned r) {
      auto b = scenario_boot(1, c, k, r);
      if (c == kInlineAgcount4 && r == 0) b.fail = true;  // one failed boot: an ERROR cell
      return b;
    });
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_, db_;
  store::RunId first_ = 0, second_ = 0;
};

TEST_F(TwoNights, SecondNightComparesWithTheFirstAndFlagsTheRegression) {
  const auto r = nightly::analyse(db_, second_, {});
  ASSERT_TRUE(r.previous);
  EXPECT_EQ(r.previous->id, first_);
  ASSERT_TRUE(r.baseline);
  EXPECT_EQ(r.baseline->id, first_) << "default baseline: the first night of the matrix";
  EXPECT_EQ(r.baseline_source, "first night of the matrix");
  ASSERT_EQ(r.cells.size(), 4u);
  std::map<std::string, std::string> status;
  for (const auto& c : r.cells) status[c.cell_id] = c.status();
  EXPECT_EQ(status[kDefaults], "FAIL");
  EXPECT_EQ(status[kAgcount4], "PASS");
  EXPECT_EQ(status[kInlineDefaults], "PASS");
  EXPECT_EQ(status[kInlineAgcount4], "ERROR");
  EXPECT_EQ(r.regressions(), 1u);
  EXPECT_EQ(r.failed_cells(), 1u);
  for (const auto& c : r.cells)
    if (c.cell_id == kDefaults) {
      ASSERT_TRUE(c.vs_previous && c.vs_previous->result);
      EXPECT_NEAR(c.vs_previous->result->difference.relative_change, -0.111, 0.01);
      EXPECT_NE(c.reason().find("previous night"), std::string::npos) << c.reason();
      ASSERT_TRUE(c.median);
      EXPECT_NEAR(*c.median, 240, 3);
      EXPECT_EQ(c.history.points.size(), 2u) << "two nightly points; the matrix run is not a night";
    }
  // Debian-built kernels (a package version, not a commit): nothing to bisect.
  EXPECT_TRUE(r.bisects.empty());
}

TEST_F(TwoNights, FirstNightHasNothingToCompareWith) {
  const auto r = nightly::analyse(db_, first_, {});
  EXPECT_FALSE(r.previous);
  EXPECT_FALSE(r.baseline) << "the first night is its own series' start";
  EXPECT_EQ(r.regressions(), 0u);
  const auto text = nightly::render_summary(r);
  EXPECT_NE(text.find("no earlier nightly run of this matrix"), std::string::npos) << text;
}

TEST_F(TwoNights, ExplicitBaselineAndUnknownBaseline) {
  nightly::AnalyseOptions o;
  o.baseline = first_ + 1;  // the plain matrix run
  const auto r = nightly::analyse(db_, second_, o);
  ASSERT_TRUE(r.baseline);
  EXPECT_EQ(r.baseline->id, first_ + 1);
  EXPECT_EQ(r.baseline_source, "--baseline");
  o.baseline = 99;
  EXPECT_THROW(nightly::analyse(db_, second_, o), rlab::UsageError);
  EXPECT_THROW(nightly::analyse(db_, 99, {}), rlab::UsageError);
}

TEST_F(TwoNights, SummaryUsesCompareTables) {
  const auto text = nightly::render_summary(nightly::analyse(db_, second_, {}));
  EXPECT_NE(text.find("== against the previous night =="), std::string::npos);
  EXPECT_NE(text.find(fmt::format("base: run {}   new: run {}", first_, second_)), std::string::npos) << text;
  EXPECT_NE(text.find("  median %stddev     %change  median %stddev         p  verdict"), std::string::npos)
      << "compare's LKP-style header";
  // The cell's own line reads as compare's row of it: its median, the verdict word, its label.
  EXPECT_NE(text.find("FAIL   "), std::string::npos) << text;
  EXPECT_NE(text.find("% different"), std::string::npos) << text;
  EXPECT_EQ(text.find("REGRESSION"), std::string::npos) << "one set of verdict words: different, same, unknown";
  EXPECT_NE(text.find("  " + kDefaults + ".score_lpm\n"), std::string::npos) << text;
  EXPECT_NE(text.find(kDefaults + ".score_lpm  ("), std::string::npos) << text;
  EXPECT_NE(text.find("1 of 10 boots failed: boot: guest did not say hello"), std::string::npos) << text;
}

// What rlab writes into the KCIDB document, and that its references resolve: no schema needed.
TEST_F(TwoNights, KcidbHasACheckoutPerKernelATestPerCellAndTheirVerdicts) {
  const auto r = nightly::analyse(db_, second_, {});
  const auto doc = nightly::to_kcidb(r);
  const auto problems = kcidb_reference_problems(doc);
  EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);
  ASSERT_EQ(doc["checkouts"].size(), 2u) << "one checkout per kernel";
  ASSERT_EQ(doc["builds"].size(), 2u);
  ASSERT_EQ(doc["tests"].size(), 4u) << "one test per cell";
  std::map<std::string, nlohmann::json> by_path;
  for (const auto& t : doc["tests"]) {
    EXPECT_EQ(t["origin"], "rlab");
    EXPECT_EQ(t["id"].get<std::string>().rfind("rlab:", 0), 0u);
    by_path.emplace(t["path"].get<std::string>() + "@" + t["misc"]["kernel"].get<std::string>(), t);
  }
  ASSERT_TRUE(by_path.count("unixbench.shell1.xfs.vcpus2@6.12")) << doc.dump(1);
  ASSERT_TRUE(by_path.count("unixbench.shell1.xfs-agcount4.vcpus2@6.12"));
  const auto& bad = by_path["unixbench.shell1.xfs.vcpus2@6.12"];
  EXPECT_EQ(bad["status"], "FAIL");
  EXPECT_NEAR(bad["misc"]["vs_previous"]["change"].get<double>(), -0.111, 0.01);
  EXPECT_EQ(bad["misc"]["vs_previous"]["base_run"], first_);
  EXPECT_EQ(bad["misc"]["scores_lpm"].size(), 10u);
  EXPECT_EQ(by_path["unixbench.shell1.xfs-agcount4.vcpus2@6.12"]["status"], "PASS");
  EXPECT_EQ(by_path["unixbench.shell1.xfs-agcount4.vcpus2@6.12+inline-inactivation"]["status"], "ERROR");
  EXPECT_EQ(doc["version"]["major"], 5);
  EXPECT_EQ(doc["version"]["minor"], 3);
  EXPECT_EQ(bad["number"]["unit"], "lpm") << "the performance figure";
  EXPECT_DOUBLE_EQ(bad["number"]["value"].get<double>(), bad["misc"]["median_lpm"].get<double>());
  for (const auto& b : doc["builds"]) EXPECT_EQ(b["status"], "PASS");
  auto refs = doc;
  refs["tests"][0]["build_id"] = "rlab:0:nothing:build";
  EXPECT_EQ(kcidb_reference_problems(refs).size(), 1u) << "a reference that resolves to nothing";
}

// The same document against kcidb-io's published schema (reference material, not shipped here).
TEST_F(TwoNights, KcidbValidatesAgainstKcidbIoSchemaV5_3) {
  if (const auto why = kcidb_schema_missing(); !why.empty()) GTEST_SKIP() << why;
  const auto doc = nightly::to_kcidb(nightly::analyse(db_, second_, {}));
  const auto problems = kcidb_problems(doc);
  EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);

  // The validator catches what the schema forbids: 6 documents, 6 violations.
  auto broken = doc;
  broken["tests"][0]["status"] = "BROKEN";
  broken["tests"][1]["path"] = "6.12+x";
  broken["tests"][2].erase("build_id");
  broken["builds"][0]["architecture"] = nullptr;
  broken["checkouts"][0]["unexpected"] = 1;
  broken["version"]["major"] = 4;
  EXPECT_EQ(kcidb_problems(broken).size(), 6u) << ::testing::PrintToString(kcidb_problems(broken));
  auto refs = doc;
  refs["tests"][0]["build_id"] = "rlab:0:nothing:build";
  EXPECT_EQ(kcidb_problems(refs).size(), 1u) << "a reference that resolves to nothing";
}

TEST_F(TwoNights, JunitParsesWithTheRightCounts) {
  const auto r = nightly::analyse(db_, second_, {});
  const auto out = nightly::write_reports(r, dir_ / "reports");
  EXPECT_EQ(out.filename().string(), r.run.created_at.substr(0, 10) + "-run" + std::to_string(second_));
  const auto c = parse_junit(out / "junit.xml");
  ASSERT_TRUE(c.parsed) << c.error;
  EXPECT_EQ(c.suites_tests, 4);
  EXPECT_EQ(c.suites_failures, 1);
  EXPECT_EQ(c.suites_errors, 1);
  EXPECT_EQ(c.testcases, 4);
  EXPECT_EQ(c.failure_elements, 1);
  EXPECT_EQ(c.error_elements, 1);
  for (const char* f : {"report.html", "summary.txt", "kcidb.json", "junit.xml"})
    EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  EXPECT_TRUE(kcidb_problems(nlohmann::json::parse(util::read_file(out / "kcidb.json"))).empty());
}

TEST_F(TwoNights, HtmlIsSelfContainedWithSvgPlots) {
  const auto r = nightly::analyse(db_, second_, {});
  const auto html = nightly::render_html(r);
  EXPECT_EQ(count_in(html, "<script"), 0u);
  EXPECT_EQ(count_in(html, " src="), 0u) << "nothing is loaded from elsewhere";
  EXPECT_EQ(count_in(html, "<link"), 0u);
  // The only URL is the SVG namespace name, which is never fetched.
  std::regex url(R"(https?://[^"' <]+)");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator(); ++it)
    EXPECT_EQ(it->str(), "http://www.w3.org/2000/svg");
  EXPECT_EQ(count_in(html, "<style>"), 1u);
  // score vs vCPUs, XFS/ext4 ratio, one history per cell
  EXPECT_EQ(count_in(html, "<svg "), 2u + r.cells.size());
  EXPECT_NE(html.find("score_lpm against vCPUs"), std::string::npos);
  EXPECT_NE(html.find("XFS / ext4 score ratio"), std::string::npos);
  EXPECT_NE(html.find(R"(<td class="FAIL">FAIL</td><td>6.12/xfs-defaults/2vcpu/shell1</td>)"),
            std::string::npos);
  // Where the time went: the regressed cell's ranking against the previous night.
  const auto where = html.find("<h2>Where the time went</h2>");
  ASSERT_NE(where, std::string::npos);
  EXPECT_NE(html.find("<h3>6.12/xfs-defaults/2vcpu/shell1 (against the previous night)</h3>", where), std::string::npos);
  EXPECT_NE(html.find("<td>tracepoint</td>", where), std::string::npos);
  // The matrix has no ext4 cell: the ratio chart says so instead of inventing a ratio.
  const auto ratio = html.substr(html.find("XFS / ext4 score ratio"));
  EXPECT_NE(ratio.substr(0, ratio.find("</svg>")).find("no data"), std::string::npos);
}

// Fourteen nights of one git-built kernel; XFS drops 11% from night 7 on, ext4 stays.
// E-Divisive needs some nights after a change to call it significant: the night that first
// shows it marks it new, the nights after do not. All nights are stored first: the report of
// an older night must not see the nights after it.
class FourteenNights : public ::testing::Test {
 protected:
  static constexpr const char* kMatrix = R"(kernels:
  mainline: {source: {git: /nonexistent/linux, ref: master}, page_size: 64k}
axes:
  kernel: [mainline]
  filesystem: [{fs: xfs}, {fs: ext4}]
  vcpus: [1, 2]
  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]
  repeats: 3
)";
  static constexpr const char* kXfs2 = "mainline/xfs-defaults/2vcpu/shell1";
  static std::string sha(int night) { return fmt::format("{:040x}", 0xabc000 + night); }

  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-nightly-fourteen-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    for (int n = 1; n <= 14; ++n)
      runs_.push_back(fill_run(
          *st, "nightly",
          [n](const std::string& cell, const std::string&, unsigned r) {
            const bool xfs = cell.find("/xfs-") != std::string::npos;
            const bool two = cell.find("/2vcpu/") != std::string::npos;
            BootSpec b;
            b.env = tcg_env("[]", false);
            b.env.fs = xfs ? "xfs" : "ext4";
            b.env.vcpus = two ? 2 : 1;
            b.env.kernel_release = fmt::format("6.13.0-rc{}", n);
            const double level = (two ? 270.0 : 145.0) * (xfs && n >= 7 ? 0.89 : 1.0);
            b.score = level * (1 + 0.004 * z(r + static_cast<unsigned>(n), 3));
            return b;
          },
          kMatrix, sha(n)));
  }
  void TearDown() override { fs::remove_all(dir_); }

  static const nightly::CellOutcome& cell(const nightly::NightAnalysis& r, const std::string& id) {
    for (const auto& c : r.cells)
      if (c.cell_id == id) return c;
    throw std::runtime_error("no cell " + id);
  }

  /// The first night (0-based) whose report shows a change point in `id`, or -1.
  int first_showing(const std::string& id) {
    for (std::size_t n = 0; n < runs_.size(); ++n)
      if (!cell(nightly::analyse(db_, runs_[n], {}), id).change_points.empty()) return static_cast<int>(n);
    return -1;
  }

  fs::path dir_, db_;
  std::vector<store::RunId> runs_;
};

TEST_F(FourteenNights, ChangePointIsNewOnTheNightThatRevealsIt) {
  const int k = first_showing(kXfs2);
  ASSERT_GE(k, 8) << "at least three nights after the drop (min segment 3)";
  ASSERT_LE(k, 12) << "six nights a side reveal an 11% step in 0.4% noise";
  // The night before k does not show it, although the store holds all fourteen nights.
  EXPECT_TRUE(cell(nightly::analyse(db_, runs_[static_cast<std::size_t>(k) - 1], {}), kXfs2).change_points.empty());
  const auto rk = nightly::analyse(db_, runs_[k], {});
  const auto& xk = cell(rk, kXfs2);
  ASSERT_EQ(xk.change_points.size(), 1u) << xk.history_note;
  EXPECT_TRUE(xk.change_points[0].is_new);
  EXPECT_EQ(xk.change_points[0].detection.last_before.run, runs_[5]);
  EXPECT_EQ(xk.change_points[0].detection.first_after.run, runs_[6]);
  EXPECT_EQ(xk.history.points.size(), static_cast<std::size_t>(k) + 1) << "nights up to tonight";
  EXPECT_EQ(xk.status(), "FAIL");
  EXPECT_TRUE(cell(rk, "mainline/ext4-defaults/2vcpu/shell1").change_points.empty());
  EXPECT_EQ(cell(rk, "mainline/ext4-defaults/2vcpu/shell1").status(), "PASS");
  // One bisect between nights 6 and 7 is called for (not started: no --tree), on the cell with
  // the clearest effect; a second XFS cell that regressed over the same range is listed under it.
  ASSERT_EQ(rk.bisects.size(), 1u) << "one bisection per commit range";
  const auto& b = rk.bisects[0];
  EXPECT_EQ(b.good_commit, sha(6));
  EXPECT_EQ(b.bad_commit, sha(7));
  EXPECT_EQ(b.session, 0);
  EXPECT_GT(b.clarity, 0.0);
  for (const auto& other : b.also) EXPECT_NE(other, b.cell_id);
  if (!cell(rk, "mainline/xfs-defaults/1vcpu/shell1").change_points.empty())
    EXPECT_EQ(b.also.size(), 1u) << "the 1-vCPU XFS cell regressed over the same range";
  EXPECT_NE(nightly::render_summary(rk).find("NEW  regression"), std::string::npos);

  const auto next = nightly::analyse(db_, runs_[static_cast<std::size_t>(k) + 1], {});
  const auto& xn = cell(next, kXfs2);
  ASSERT_EQ(xn.change_points.size(), 1u);
  EXPECT_FALSE(xn.change_points[0].is_new) << "the night before already showed it";
  for (const auto& b : next.bisects) EXPECT_NE(b.cell_id, kXfs2);
  EXPECT_EQ(next.baseline->id, runs_[0]);
  ASSERT_TRUE(xn.vs_baseline && xn.vs_baseline->result);
  EXPECT_LT(xn.vs_baseline->result->difference.relative_change, -0.08);
}

TEST_F(FourteenNights, HtmlMarksChangePointsAndPlotsTheRatio) {
  const auto r = nightly::analyse(db_, runs_.back(), {});
  const auto html = nightly::render_html(r);
  EXPECT_GE(count_in(html, R"(class="change-point")"), 1u);
  EXPECT_TRUE(std::regex_search(html, std::regex(R"(fill="#C00000">-1[01]\.\d%</text>)"))) << "a red -11% marker";
  const auto ratio = html.substr(html.find("XFS / ext4 score ratio"));
  const auto svg = ratio.substr(0, ratio.find("</svg>"));
  EXPECT_EQ(svg.find("no data"), std::string::npos);
  EXPECT_EQ(count_in(svg, "<circle"), 2u) << "one ratio per vCPU count";
  EXPECT_NE(svg.find("mainline xfs ÷ ext4 shell1"), std::string::npos);
  const auto history = html.substr(html.find(std::string("<title>") + kXfs2));
  EXPECT_EQ(count_in(history.substr(0, history.find("</svg>")), "<circle"), 14u) << "fourteen nights";
}

}  // namespace

// The chart of the original report, XFS / ext4 per vCPU count, draws each ratio with its
// interval, and a ratio from too few boots hollow, saying it is not judged.
TEST(NightlyHtml, TheRatioChartDrawsIntervalsAndMarksRatiosOfTooFewBoots) {
  nightly::NightAnalysis r;
  r.run.id = 3;
  r.run.created_at = "2026-12-01T00:00:00.000Z";
  auto cell = [](std::string fs, unsigned vcpus, std::vector<double> scores) {
    nightly::CellOutcome c;
    c.cell_id = "6.12/" + fs + "-defaults/" + std::to_string(vcpus) + "vcpu/shell1";
    c.kernel = "6.12";
    c.fs = fs;
    c.mkfs_label = "defaults";
    c.vcpus = vcpus;
    c.workload = "shell1";
    c.boots = c.done = scores.size();
    c.scores = scores;
    c.median = rlab::stats::median(scores);
    return c;
  };
  r.cells = {cell("xfs", 1, {200, 202, 199, 201, 200}), cell("ext4", 1, {210, 211, 209, 212, 210}),
             cell("xfs", 2, {96}), cell("ext4", 2, {150})};
  const auto html = nightly::render_html(r);
  const auto chart = html.substr(html.find("XFS / ext4 score ratio"));
  const auto svg = chart.substr(0, chart.find("</svg>"));
  EXPECT_NE(svg.find("from 1 xfs and 1 ext4 boots: not judged (an interval needs 5 boots a side)"), std::string::npos) << svg;
  EXPECT_NE(svg.find(R"(fill="white")"), std::string::npos) << "the 2-vCPU ratio is hollow";
  EXPECT_NE(svg.find("98% interval ["), std::string::npos) << svg;
  EXPECT_NE(svg.find("<path d=\"M"), std::string::npos) << "the 1-vCPU ratio has its interval bar";
}

TEST(PruneReports, KeepsTheNewestNightsAndLeavesEverythingElse) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("rlab-prune-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  for (const char* n : {"2026-11-30-run9", "2026-12-01-run10", "2026-12-01-run11", "2026-12-02-run12", "notes",
                        "2026-12-02-run12.bak"})
    fs::create_directories(dir / n);
  std::ofstream(dir / "2026-12-01-run10" / "summary.txt") << "x";
  EXPECT_EQ(rlab::nightly::prune_reports(dir, 10), 0u);
  EXPECT_EQ(rlab::nightly::prune_reports(dir, 2), 2u);
  EXPECT_FALSE(fs::exists(dir / "2026-11-30-run9"));
  EXPECT_FALSE(fs::exists(dir / "2026-12-01-run10"));
  for (const char* n : {"2026-12-01-run11", "2026-12-02-run12", "notes", "2026-12-02-run12.bak"})
    EXPECT_TRUE(fs::exists(dir / n)) << n;
  EXPECT_EQ(rlab::nightly::prune_reports(dir / "missing", 1), 0u);
  fs::remove_all(dir);
}
