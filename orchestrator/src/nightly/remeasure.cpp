#include "nightly/remeasure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace rlab::nightly {

namespace {

struct Candidate {
  unsigned more = 0;
  double clarity = 0;
  std::string cannot;  ///< why more boots cannot decide it ("" when they can)
};

/// Adds what `t` says about each unknown cell to `out` (by tonight's cell id).
void collect(const std::optional<compare::ComparisonTable>& t, const std::string& control,
             std::map<std::string, Candidate>& out) {
  if (!t) return;
  for (const auto& c : t->cells) {
    if (c.status != compare::RowStatus::compared || !c.result || c.new_cell.empty() ||
        c.new_cell == control || c.result->verdict != stats::Verdict::unknown)
      continue;
    Candidate& k = out[c.new_cell];
    const std::size_t floor = c.result->boots_floor;
    if (c.base_scores.size() < floor) {
      if (k.more == 0)
        k.cannot = fmt::format("run {} has {} boots of it, a verdict needs {} a side", t->base.run,
                               c.base_scores.size(), floor);
      continue;
    }
    if (c.beyond_cap || c.next_boots_per_side == 0) {
      if (k.more == 0)
        k.cannot = c.noise ? fmt::format("at {:.1f}% noise a verdict needs more than {} boots a side",
                                         *c.noise * 100, t->options.plan.cap)
                           : fmt::format("already {} boots a side", c.new_scores.size());
      continue;
    }
    const auto more = static_cast<unsigned>(std::max(c.new_scores.size(), c.more_new));
    k.more = std::max(k.more, more);
    k.cannot.clear();
    const double change = std::abs(c.result->difference.relative_change);
    k.clarity = std::max(k.clarity, c.noise && *c.noise > 0 ? change / *c.noise : change);
  }
}

}  // namespace

RemeasurePlan plan_remeasure(const NightAnalysis& a, double budget_s, const BootsEstimate& estimate) {
  std::map<std::string, Candidate> found;
  collect(a.vs_previous, a.control, found);
  collect(a.vs_baseline, a.control, found);
  RemeasurePlan plan;
  std::vector<std::pair<std::string, const Candidate*>> ranked;
  for (const auto& cell : a.cells) {  // the night's cell order, for stable plans
    auto it = found.find(cell.cell_id);
    if (it == found.end()) continue;
    if (it->second.more == 0) plan.cannot.push_back(cell.cell_id + ": " + it->second.cannot);
    else ranked.emplace_back(cell.cell_id, &it->second);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.second->clarity > y.second->clarity; });
  unsigned control_boots = 0;
  auto with_control = [&](std::vector<std::pair<std::string, unsigned>> b, unsigned c) {
    if (!a.control.empty() && c > 0) b.emplace_back(a.control, c);
    return b;
  };
  for (const auto& [id, k] : ranked) {
    auto trial = plan.boots;
    trial.emplace_back(id, k->more);
    const unsigned c = std::max(control_boots, k->more);
    const double s = estimate(with_control(trial, c));
    if (s > budget_s) {
      plan.cannot.push_back(fmt::format("{}: {} more boots do not fit the re-measure budget", id, k->more));
      continue;
    }
    plan.boots = std::move(trial);
    control_boots = c;
    plan.estimate_s = s;
  }
  // The cells in the night's order, the control last.
  std::vector<std::pair<std::string, unsigned>> ordered;
  for (const auto& cell : a.cells)
    for (const auto& b : plan.boots)
      if (b.first == cell.cell_id) ordered.push_back(b);
  plan.boots = with_control(std::move(ordered), control_boots);
  return plan;
}

}  // namespace rlab::nightly
