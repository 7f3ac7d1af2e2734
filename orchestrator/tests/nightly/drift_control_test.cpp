// `rlab nightly --control`: a host that got 10% slower from one night to the next makes every
// kernel look 10% slower; with the 6.12 agcount=4 cell as the control both comparisons are
// drift-corrected, the host's drift drops out, a real change stays, and every report says so.
#include "../compare/scenario.hpp"
#include "nightly/analysis.hpp"
#include "nightly/report_dirs.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using namespace rlab::testing;

/// Host speed of repeat `r` on night `n` (0, 1, 2): 10% slower each night after the first,
/// with a slow drift within the night.
double host(int n, unsigned r) { return (n == 0 ? 1.0 : 0.9 - 0.02 * (n - 1)) * (1 + 0.03 * (r % 5) - 0.06); }

/// Night `n`: the inline kernel's xfs-defaults cell really loses 10% on night 2.
BootSpec drift_boot(int n, const std::string& cell, const std::string& kernel, unsigned r) {
  BootSpec b;
  const bool agcount4 = cell.find("agcount4") != std::string::npos;
  b.env = tcg_env(agcount4 ? R"(["-d","agcount=4"])" : "[]", kernel != "6.12");
  const double level = cell == kInlineDefaults && n == 2 ? 243 : 270;
  b.score = level * host(n, r) * (1 + 0.003 * z(r, cell.size() % 7));
  return b;
}

class NightlyDrift : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-nightly-drift-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    for (int n = 0; n < 3; ++n)
      nights_.push_back(fill_run(*st, "nightly", [n](auto& c, auto& k, unsigned r) { return drift_boot(n, c, k, r); }));
  }
  void TearDown() override { fs::remove_all(dir_); }
  static const nightly::CellOutcome& cell(const nightly::NightAnalysis& r, const std::string& id) {
    for (const auto& c : r.cells)
      if (c.cell_id == id) return c;
    throw std::out_of_range(id);
  }
  fs::path dir_, db_;
  std::vector<store::RunId> nights_;
};

TEST_F(NightlyDrift, WithoutAControlTheHostsDriftIsARegression) {
  const auto r = nightly::analyse(db_, nights_[1], {});
  EXPECT_TRUE(r.control.empty());
  EXPECT_EQ(cell(r, kDefaults).status(), "FAIL") << "the host's -10% looks like the kernel's";
  EXPECT_EQ(r.drift_text("previous"), "not drift-corrected (no control cell: --control or the matrix's control:)");
  EXPECT_NE(nightly::render_summary(r).find("vs previous: not drift-corrected (no control cell: --control or the matrix's control:)"), std::string::npos);
}

TEST_F(NightlyDrift, TheControlCorrectsBothComparisonsAndTheReportsSaySo) {
  nightly::AnalyseOptions o;
  o.compare.control = "agcount4/2vcpu";  // a part of two cells (both kernels)
  EXPECT_THROW(nightly::analyse(db_, nights_[2], o), rlab::UsageError) << "two cells match";
  o.compare.control = "nope";
  EXPECT_THROW(nightly::analyse(db_, nights_[2], o), rlab::UsageError);
  o.compare.control = "6.12/xfs-agcount4";
  const auto r = nightly::analyse(db_, nights_[2], o);
  EXPECT_EQ(r.control, kAgcount4);
  ASSERT_TRUE(r.previous && r.baseline);
  EXPECT_EQ(r.previous->id, nights_[1]);
  EXPECT_EQ(r.baseline->id, nights_[0]);
  ASSERT_TRUE(r.vs_previous && r.vs_previous->drift);
  ASSERT_TRUE(r.vs_baseline && r.vs_baseline->drift);
  EXPECT_NEAR(r.vs_baseline->drift->new_control_mean / r.vs_baseline->drift->base_control_mean, 0.88, 0.01);
  // The host's drift is gone: 6.12 xfs-defaults and the inline agcount=4 cell pass against
  // both nights; the inline xfs-defaults cell's real -10% fails against both.
  EXPECT_EQ(cell(r, kDefaults).status(), "PASS") << cell(r, kDefaults).reason();
  EXPECT_EQ(cell(r, kInlineAgcount4).status(), "PASS") << cell(r, kInlineAgcount4).reason();
  const auto& real = cell(r, kInlineDefaults);
  EXPECT_EQ(real.status(), "FAIL");
  ASSERT_TRUE(real.vs_previous && real.vs_previous->result && real.vs_baseline && real.vs_baseline->result);
  EXPECT_NEAR(real.vs_previous->result->difference.relative_change, -0.10, 0.01);
  EXPECT_NEAR(real.vs_baseline->result->difference.relative_change, -0.10, 0.01);
  EXPECT_FALSE(cell(r, kAgcount4).vs_previous) << "the control is not compared";

  const auto summary = nightly::render_summary(r);
  EXPECT_NE(summary.find("vs previous: drift-corrected against control " + kAgcount4), std::string::npos) << summary;
  EXPECT_NE(summary.find("vs baseline: drift-corrected against control " + kAgcount4), std::string::npos) << summary;
  EXPECT_NE(summary.find("drift-corrected against control"), summary.rfind("drift-corrected against control"))
      << "compare's own tables say it too";
  EXPECT_NE(summary.find("control  " + kAgcount4), std::string::npos) << summary;
  const auto html = nightly::render_html(r);
  EXPECT_NE(html.find("drift vs baseline</th><td>drift-corrected against control " + kAgcount4), std::string::npos);
  const auto kcidb = nightly::to_kcidb(r);
  bool corrected = false, control_marked = false;
  for (const auto& t : kcidb["tests"]) {
    if (t["misc"].contains("vs_baseline"))
      corrected |= t["misc"]["vs_baseline"]["drift_corrected"]["control"] == kAgcount4;
    control_marked |= t["misc"].value("drift_control", false);
  }
  EXPECT_TRUE(corrected && control_marked) << kcidb.dump(1);
  const auto junit = nightly::render_junit(r);
  EXPECT_NE(junit.find(R"(<property name="drift_control" value=")" + kAgcount4), std::string::npos) << junit;
}

TEST_F(NightlyDrift, ANightWithoutTheControlIsComparedUncorrectedAndSaysWhy) {
  // A fourth night whose control boots all failed: the comparisons still happen, uncorrected.
  const auto fourth = [&] {
    auto st = store::Store::open(db_);
    return fill_run(*st, "nightly", [](auto& c, auto& k, unsigned r) {
      auto b = drift_boot(1, c, k, r);
      if (c == kAgcount4) b.fail = true;
      return b;
    });
  }();
  nightly::AnalyseOptions o;
  o.compare.control = kAgcount4;
  const auto r = nightly::analyse(db_, fourth, o);
  EXPECT_EQ(r.control, kAgcount4);
  ASSERT_TRUE(r.vs_previous && r.vs_baseline);
  EXPECT_FALSE(r.vs_previous->drift);
  EXPECT_NE(r.drift_text("previous").find("not drift-corrected: --control " + kAgcount4), std::string::npos)
      << r.drift_text("previous");
  EXPECT_NE(r.drift_text("baseline").find("no scored boot"), std::string::npos) << r.drift_text("baseline");
  EXPECT_NE(nightly::render_summary(r).find("vs baseline: not drift-corrected: "), std::string::npos);
  EXPECT_EQ(cell(r, kDefaults).status(), "FAIL") << "uncorrected, the host's drift shows against the baseline";
}

}  // namespace
