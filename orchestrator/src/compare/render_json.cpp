// The JSON form of `rlab compare` (docs/compare.md).
#include "compare/render.hpp"

#include "attribution/ag_table_render.hpp"
#include "attribution/render.hpp"

#include <cmath>

namespace rlab::compare {
namespace {

using nlohmann::json;

json num(std::optional<double> v) {
  return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

json side_json(const ComparisonTable& r, const Side& s) {
  return {{"run", s.run}, {"kernel", r.mode == Mode::kernels ? json(s.kernel) : json(nullptr)}};
}

json summary_json(const stats::Summary& s, const std::vector<double>& scores) {
  return {{"boots", s.n},          {"median", s.median},
          {"mean", s.mean},        {"rel_stddev", num(s.relative_stddev)},
          {"min", s.min},          {"max", s.max},
          {"scores", scores}};
}

json cell_json(const CellComparison& c, double fdr) {
  json j = {{"label", c.label},
            {"base_cell", c.base_cell.empty() ? json(nullptr) : json(c.base_cell)},
            {"new_cell", c.new_cell.empty() ? json(nullptr) : json(c.new_cell)},
            {"status", row_status_name(c.status)},
            {"verdict", nullptr},
            {"regression", c.regression()},
            {"base", {{"boots", c.base_scores.size()}, {"scores", c.base_scores}}},
            {"new", {{"boots", c.new_scores.size()}, {"scores", c.new_scores}}},
            {"change", nullptr},
            {"p", nullptr},
            {"p_mann_whitney", nullptr},
            {"p_kolmogorov_smirnov", nullptr},
            {"ratio_interval", nullptr},
            {"reason", nullptr},
            {"refused", nullptr},
            {"error", c.error.empty() ? json(nullptr) : json(c.error)},
            {"noise", num(c.noise)},
            {"mde", num(c.mde)},
            {"more_boots", nullptr}};
  if (c.result && c.status == RowStatus::compared) {
    const auto& x = *c.result;
    j["verdict"] = stats::verdict_name(x.verdict);
    j["base"] = summary_json(x.a, c.base_scores);
    j["new"] = summary_json(x.b, c.new_scores);
    j["change"] = x.difference.relative_change;
    j["p"] = x.difference.p_min;
    j["p_mann_whitney"] = x.difference.mann_whitney.p;
    j["p_kolmogorov_smirnov"] = x.difference.kolmogorov_smirnov.p;
    // Moses' distribution-free interval of new's scale against base's; null below the floor.
    j["ratio_interval"] = x.ratio.exists ? nlohmann::json{{"ratio", x.ratio.estimate}, {"low", x.ratio.low},
                                                          {"high", x.ratio.high}, {"confidence", x.ratio.confidence}}
                                         : nlohmann::json(nullptr);
    j["boots_floor"] = x.boots_floor;
    j["reason"] = x.reason;
    if (x.verdict == stats::Verdict::unknown)
      j["more_boots"] = {{"at_cap", c.next_boots_per_side == 0},
                         {"beyond_cap", c.beyond_cap},
                         {"boots_per_side", c.next_boots_per_side},
                         {"more_base", c.more_base},
                         {"more_new", c.more_new}};
  }
  if (c.mismatch)
    j["refused"] = {{"field", c.mismatch->field}, {"where", c.mismatch->where},
                    {"base", c.mismatch->first}, {"new", c.mismatch->second},
                    {"message", c.mismatch->message()}};
  j["what_changed"] = c.movers ? attribution::ranking_json(*c.movers, fdr) : json(nullptr);
  if (c.ag_headers) j["ag_headers"] = attribution::ag_comparison_json(*c.ag_headers);  // XFS with AG header totals only
  j["unixbench_index"] = {{"base", num(c.base_index)}, {"new", num(c.new_index)}};
  j["xfs_inode_ags"] = {{"base", num(c.base_inode_ags)}, {"new", num(c.new_inode_ags)}};
  return j;
}

}  // namespace

json to_json(const ComparisonTable& r) {
  json cells = json::array();
  json summary = {{"different", 0}, {"regressions", 0}, {"same", 0}, {"unknown", 0},
                  {"refused", 0},   {"error", 0},       {"one_sided", 0}};
  for (const auto& c : r.cells) {
    cells.push_back(cell_json(c, r.options.movers.fdr));
    switch (c.status) {
      case RowStatus::compared:
        summary[std::string(stats::verdict_name(c.result->verdict))] =
            summary[std::string(stats::verdict_name(c.result->verdict))].get<int>() + 1;
        if (c.regression()) summary["regressions"] = summary["regressions"].get<int>() + 1;
        break;
      case RowStatus::refused: summary["refused"] = summary["refused"].get<int>() + 1; break;
      case RowStatus::error: summary["error"] = summary["error"].get<int>() + 1; break;
      default: summary["one_sided"] = summary["one_sided"].get<int>() + 1;
    }
  }
  return {{"mode", r.mode == Mode::runs ? "runs" : "kernels"},
          {"base", side_json(r, r.base)},
          {"new", side_json(r, r.next)},
          {"options",
           {{"alpha", r.options.verdict.alpha},
            {"min_effect", r.options.verdict.min_effect},
            {"cap_boots_per_side", r.options.plan.cap},
            {"axis_fields", r.options.axis_fields}}},
          {"drift", r.drift ? json{{"control", r.drift->control},
                                   {"reference_lpm", r.drift->reference},
                                   {"base_control_mean_lpm", r.drift->base_control_mean},
                                   {"new_control_mean_lpm", r.drift->new_control_mean},
                                   {"dropped_boots", r.drift->dropped}}
                            : json(nullptr)},
          {"cells", cells},
          {"summary", summary}};
}

}  // namespace rlab::compare
