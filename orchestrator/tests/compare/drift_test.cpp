// Drift correction against a control cell: a host that got 10% slower between two runs makes
// every kernel look 10% slower; with the 6.12 agcount=4 cell as the control, that drift drops
// out, a real change stays, and the header says what the control did.
#include "compare/compare.hpp"
#include "compare/render.hpp"
#include "scenario.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

namespace rlab::compare {
namespace {

namespace fs = std::filesystem;
using testing::BootSpec;
using testing::kAgcount4;
using testing::kDefaults;
using testing::kInlineAgcount4;
using testing::kInlineDefaults;

/// Host speed of repeat `r` of run `which` (0 base, 1 new): a slow drift within each run and
/// 10% slower in the new run.
double host(int which, unsigned r) { return (which == 0 ? 1.0 : 0.9) * (1 + 0.03 * (r % 5) - 0.06); }

BootSpec drifting(int which, const std::string& cell, const std::string& kernel, unsigned r) {
  BootSpec b;
  const bool agcount4 = cell.find("agcount4") != std::string::npos;
  b.env = testing::tcg_env(agcount4 ? R"(["-d","agcount=4"])" : "[]", kernel != "6.12");
  double level = 270;
  if (cell == kInlineDefaults && which == 1) level = 243;  // a real -10% on the new side only
  b.score = level * host(which, r) * (1 + 0.003 * testing::z(r, cell.size() % 7));
  return b;
}

class CompareDrift : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-compare-drift-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    auto st = store::Store::open(dir_ / "rlab.db");
    base_ = testing::fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return drifting(0, c, k, r); });
    new_ = testing::fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return drifting(1, c, k, r); });
  }
  void TearDown() override { fs::remove_all(dir_); }
  static const CellComparison* row(const ComparisonTable& r, const std::string& label) {
    for (const auto& c : r.cells)
      if (c.label == label) return &c;
    return nullptr;
  }
  fs::path dir_;
  store::RunId base_ = 0, new_ = 0;
};

TEST_F(CompareDrift, TheControlRemovesTheHostsDriftAndKeepsARealChange) {
  const auto read_only = rlab::store::Store::open_read_only(dir_ / "rlab.db");
  const rlab::store::Store& db = *read_only;
  const auto raw = compare_runs(db, base_, new_, {});
  ASSERT_NE(row(raw, kDefaults), nullptr);
  EXPECT_EQ(row(raw, kDefaults)->result->verdict, stats::Verdict::different);  // the host's -10%
  EXPECT_LT(row(raw, kDefaults)->result->difference.relative_change, -0.08);

  CompareOptions opt;
  opt.control = kAgcount4;
  const auto rep = compare_runs(db, base_, new_, opt);
  ASSERT_TRUE(rep.drift.has_value());
  EXPECT_EQ(rep.drift->control, kAgcount4);
  EXPECT_NEAR(rep.drift->new_control_mean / rep.drift->base_control_mean, 0.9, 0.01);
  EXPECT_EQ(rep.drift->dropped, 0u);
  EXPECT_EQ(row(rep, kAgcount4), nullptr) << "the control is not compared";
  const auto* d = row(rep, kDefaults);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->result->verdict, stats::Verdict::same) << d->result->reason;
  EXPECT_LT(*d->noise, 0.01);  // the within-run drift (±6%) is gone too
  EXPECT_EQ(row(rep, kInlineAgcount4)->result->verdict, stats::Verdict::same);
  const auto* real = row(rep, kInlineDefaults);
  EXPECT_EQ(real->result->verdict, stats::Verdict::different);
  EXPECT_NEAR(real->result->difference.relative_change, -0.10, 0.01);

  std::ostringstream out;
  render_text(rep, out);
  EXPECT_NE(out.str().find("drift-corrected against control " + kAgcount4), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("(-10.0%)"), std::string::npos) << out.str();
  EXPECT_EQ(to_json(rep)["drift"]["control"], kAgcount4);
}

TEST_F(CompareDrift, KernelsOfOneRunAndBadControls) {
  const auto read_only = rlab::store::Store::open_read_only(dir_ / "rlab.db");
  const rlab::store::Store& db = *read_only;
  CompareOptions opt;
  opt.control = "6.12/xfs-agcount4";  // a unique part of a cell id
  const auto rep = compare_kernels(db, new_, "6.12", "6.12+inline-inactivation", opt);
  ASSERT_TRUE(rep.drift.has_value());
  EXPECT_EQ(rep.drift->control, kAgcount4);
  ASSERT_EQ(rep.cells.size(), 2u);
  bool compared = false, control_pair = false;
  for (const auto& c : rep.cells) {
    if (c.base_cell == kDefaults) {
      compared = true;
      EXPECT_EQ(c.result->verdict, stats::Verdict::different);
      EXPECT_NEAR(c.result->difference.relative_change, -0.10, 0.01);
    } else {
      control_pair = true;  // the control left the base side: its pair is one-sided
      EXPECT_EQ(c.status, RowStatus::new_only);
    }
  }
  EXPECT_TRUE(compared && control_pair);
  opt.control = "agcount4";  // matches both kernels' agcount4 cells
  EXPECT_THROW(compare_runs(db, base_, new_, opt), rlab::UsageError);
  opt.control = "ext4";
  try {
    compare_runs(db, base_, new_, opt);
    ADD_FAILURE() << "no error";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--control: no cell matches 'ext4'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rlab::compare
