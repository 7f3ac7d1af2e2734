// The re-measure planner: which unknown cells get more boots tonight, how many, with the
// control, within the budget, and why the others cannot be decided tonight.
#include "nightly/remeasure.hpp"

#include <gtest/gtest.h>

using namespace rlab;
using nightly::NightAnalysis;

namespace {

/// A compared row: `base` and `tonight` boots, verdict, relative change and noise.
compare::CellComparison row(const std::string& id, std::size_t base, std::size_t tonight,
                            stats::Verdict v, double change, double noise, std::size_t more_new) {
  compare::CellComparison c;
  c.label = c.base_cell = c.new_cell = id;
  c.base_scores.assign(base, 100.0);
  c.new_scores.assign(tonight, 100.0 * (1 + change));
  stats::Comparison r;
  r.verdict = v;
  r.boots_floor = 5;
  r.difference.relative_change = change;
  c.result = r;
  c.noise = noise;
  c.more_new = more_new;
  c.next_boots_per_side = tonight + more_new;
  return c;
}

NightAnalysis remeasure_night(std::vector<compare::CellComparison> rows, std::string control = "") {
  NightAnalysis a;
  compare::ComparisonTable t;
  t.base.run = 1;
  t.cells = std::move(rows);
  auto outcome = [](std::string id) {
    rlab::nightly::CellOutcome o;
    o.cell_id = std::move(id);
    return o;
  };
  for (const auto& c : t.cells) a.cells.push_back(outcome(c.new_cell));
  if (!control.empty()) a.cells.push_back(outcome(control));
  a.vs_previous = t;
  a.control = control;
  return a;
}

/// 10 s a boot, whatever the cell.
double ten_s_a_boot(const std::vector<std::pair<std::string, unsigned>>& b) {
  double s = 0;
  for (const auto& [id, n] : b) s += 10.0 * n;
  return s;
}

}  // namespace

TEST(Remeasure, UnknownCellsGetAtLeastDoubleTheirBootsAndTheControlAsMany) {
  auto a = remeasure_night({row("A", 6, 3, stats::Verdict::unknown, -0.05, 0.02, 1),
                  row("B", 6, 4, stats::Verdict::unknown, -0.03, 0.02, 9),
                  row("C", 6, 6, stats::Verdict::different, -0.10, 0.02, 0),
                  row("D", 6, 6, stats::Verdict::same, 0.0, 0.02, 0)},
                 "K");
  const auto p = nightly::plan_remeasure(a, 1000, ten_s_a_boot);
  using B = std::vector<std::pair<std::string, unsigned>>;
  EXPECT_EQ(p.boots, (B{{"A", 3}, {"B", 9}, {"K", 9}})) << "A doubles, B takes what its noise asks";
  EXPECT_DOUBLE_EQ(p.estimate_s, 210);
  EXPECT_TRUE(p.cannot.empty());
}

TEST(Remeasure, WhatMoreBootsTonightCannotDecideIsNamedWithWhy) {
  auto few_base = row("A", 2, 5, stats::Verdict::unknown, -0.05, 0.02, 0);
  auto beyond = row("B", 6, 6, stats::Verdict::unknown, -0.01, 0.40, 0);
  beyond.beyond_cap = true;
  beyond.next_boots_per_side = 0;
  const auto p = nightly::plan_remeasure(remeasure_night({few_base, beyond}), 1000, ten_s_a_boot);
  EXPECT_TRUE(p.boots.empty());
  ASSERT_EQ(p.cannot.size(), 2u);
  EXPECT_NE(p.cannot[0].find("A: run 1 has 2 boots of it, a verdict needs 5 a side"), std::string::npos) << p.cannot[0];
  EXPECT_NE(p.cannot[1].find("B: at 40.0% noise"), std::string::npos) << p.cannot[1];
}

TEST(Remeasure, TheClearestEffectsComeFirstWhenTheBudgetIsShort) {
  auto a = remeasure_night({row("faint", 6, 5, stats::Verdict::unknown, -0.02, 0.04, 0),
                  row("clear", 6, 5, stats::Verdict::unknown, -0.08, 0.04, 0)});
  const auto p = nightly::plan_remeasure(a, 60, ten_s_a_boot);  // room for 6 boots: one cell
  using B = std::vector<std::pair<std::string, unsigned>>;
  EXPECT_EQ(p.boots, (B{{"clear", 5}}));
  ASSERT_EQ(p.cannot.size(), 1u);
  EXPECT_NE(p.cannot[0].find("faint: 5 more boots do not fit the re-measure budget"), std::string::npos);
  EXPECT_TRUE(nightly::plan_remeasure(a, 0, ten_s_a_boot).boots.empty()) << "no budget, no boots";
}
