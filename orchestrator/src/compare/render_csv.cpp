// CSV of `rlab compare`: one record per cell and other side (docs/compare.md "CSV").
#include "compare/render.hpp"

#include "util/csv.hpp"

#include <fmt/format.h>

namespace rlab::compare {
namespace {

/// The record of one row of one pair (the columns of render_csv's header).
std::vector<std::string> csv_record(const ComparisonTable& p, const CellComparison& c) {
  const bool cmp = c.result && c.status == RowStatus::compared;
  const auto opt = [&](auto get) { return cmp ? std::optional<double>(get(*c.result)) : std::nullopt; };
  const auto kernel = [&](const Side& s) { return p.mode == Mode::kernels ? s.kernel : std::string(); };
  using util::csv_number;
  return {p.mode == Mode::runs ? "runs" : "kernels",
          std::to_string(p.base.run),
          kernel(p.base),
          std::to_string(p.next.run),
          kernel(p.next),
          c.label,
          c.base_cell,
          c.new_cell,
          std::string(row_status_name(c.status)),
          std::to_string(c.base_scores.size()),
          std::to_string(c.new_scores.size()),
          csv_number(opt([](const stats::Comparison& x) { return x.a.median; })),
          csv_number(opt([](const stats::Comparison& x) { return x.b.median; })),
          csv_number(cmp ? std::optional<double>(c.result->a.relative_stddev) : std::nullopt),
          csv_number(cmp ? std::optional<double>(c.result->b.relative_stddev) : std::nullopt),
          csv_number(opt([](const stats::Comparison& x) { return x.difference.relative_change; })),
          csv_number(opt([](const stats::Comparison& x) { return x.difference.p_min; })),
          cmp ? std::string(stats::verdict_name(c.result->verdict)) : std::string(),
          c.regression() ? "true" : "false"};
}

}  // namespace

void render_csv(const MultiComparison& m, std::ostream& out) {
  util::CsvWriter w(out);
  w.row({"mode", "base_run", "base_kernel", "new_run", "new_kernel", "label", "base_cell", "new_cell", "status",
         "base_boots", "new_boots", "base_median_lpm", "new_median_lpm", "base_rel_stddev", "new_rel_stddev",
         "change", "p", "verdict", "regression"});
  for (const auto& p : m.pairs)
    for (const auto& c : p.cells) w.row(csv_record(p, c));
}

}  // namespace rlab::compare
