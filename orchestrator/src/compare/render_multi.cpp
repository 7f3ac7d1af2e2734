// N-way text and JSON of `rlab compare`: the base's column, then one column group per other
// run or kernel, as mmtests' compare-kernels lays out N kernels against the first
// (docs/compare.md "N runs or kernels").
#include "compare/render.hpp"
#include "compare/text_parts.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace rlab::compare {
namespace {

/// One label over all pairs: its row in each pair (nullptr where that pair lacks the label).
struct LabelRow {
  std::string label;
  std::vector<const CellComparison*> per_pair;
};

std::vector<LabelRow> label_rows(const MultiComparison& m) {
  std::vector<LabelRow> rows;
  std::map<std::string, std::size_t> at;
  for (std::size_t p = 0; p < m.pairs.size(); ++p)
    for (const auto& c : m.pairs[p].cells) {
      auto [it, fresh] = at.emplace(c.label, rows.size());
      if (fresh) rows.push_back({c.label, std::vector<const CellComparison*>(m.pairs.size(), nullptr)});
      rows[it->second].per_pair[p] = &c;
    }
  return rows;
}

/// The base side's summary of a label: that of the first pair that compared it.
const stats::Summary* base_summary(const LabelRow& r) {
  for (const auto* c : r.per_pair)
    if (c && c->result) return &c->result->a;
  return nullptr;
}

/// The row of the first pair that has the label on the base side (its base figures).
const CellComparison* base_row(const LabelRow& r) {
  for (const auto* c : r.per_pair)
    if (c && !c->base_cell.empty()) return c;
  return nullptr;
}

/// One other side's column group: " %change  median ± %stddev  p  verdict".
std::string score_group(const CellComparison* c) {
  const bool cmp = c && c->result;
  return results::group_col(cmp ? std::optional(c->result->difference.relative_change) : std::nullopt,
                            cmp ? std::optional(c->result->b.median) : std::nullopt,
                            cmp ? std::optional<double>(c->result->b.relative_stddev) : std::nullopt,
                            cmp ? std::optional(c->result->difference.p_min) : std::nullopt,
                            c ? verdict_of(*c) : std::string());
}

/// The column heads: side names, rules, "median %stddev  %change  median %stddev  p  verdict".
void heads(const MultiComparison& m, std::ostream& out) {
  const auto& first = m.pairs.front();
  std::vector<std::string> names{side_name(first, first.base)};
  for (const auto& p : m.pairs) names.push_back(side_name(p, p.next));
  results::write_heads(names, out);
}

/// A figure line beside the score (UnixBench index, inode AGs): base value, each side's change
/// and value, no p or verdict.
template <class Get>
void figure_line(const LabelRow& r, const CellComparison& base, std::string_view name, Get get, std::ostream& out) {
  const auto a = get(base, true);
  bool any = a.has_value();
  std::string s = value_col(a, std::nullopt);
  for (const auto* c : r.per_pair) {
    const auto b = c ? get(*c, false) : std::nullopt;
    any |= b.has_value();
    std::optional<double> ch;
    if (a && b && *a != 0) ch = *b / *a - 1;
    s += results::group_col(ch, b, std::nullopt, std::nullopt, "");
  }
  if (any) out << s << "  " << r.label << "." << name << "\n";
}

/// A label's score line, figure lines, then per other side its advice and "what changed".
void label_lines(const MultiComparison& m, const LabelRow& r, std::ostream& out) {
  const stats::Summary* a = base_summary(r);
  const CellComparison* base = base_row(r);
  std::string line = value_col(a ? std::optional(a->median) : std::nullopt, a ? std::optional<double>(a->relative_stddev) : std::nullopt);
  std::string boots = fmt::format("{}", base ? base->base_scores.size() : 0);
  for (const auto* c : r.per_pair) {
    line += score_group(c);
    boots += fmt::format(" | {}", c ? c->new_scores.size() : 0);
  }
  out << line << "  " << r.label << "." << results::kScoreMetric << "  (boots " << boots << ")\n";
  if (base) {
    figure_line(r, *base, "unixbench_index(this_guest)",
                [](const CellComparison& c, bool b) { return b ? c.base_index : c.new_index; }, out);
    figure_line(r, *base, "xfs_inode_ags",
                [](const CellComparison& c, bool b) { return b ? c.base_inode_ags : c.new_inode_ags; }, out);
  }
  for (std::size_t p = 0; p < r.per_pair.size(); ++p) {
    const CellComparison* c = r.per_pair[p];
    if (!c) continue;
    const std::string side = side_name(m.pairs[p], m.pairs[p].next);
    advice(*c, m.pairs[p].options, out, "      " + side + ": ");
    if ((c->movers && !c->movers->empty()) || c->ag_headers) {
      out << "      " << side << ", against the base:\n";
      what_changed(*c, out, "        ");
    }
  }
}

/// The header: the sides, the verdict rule, each pair's drift correction.
void preamble(const MultiComparison& m, std::ostream& out) {
  const auto& first = m.pairs.front();
  std::vector<std::string> others;
  for (const auto& p : m.pairs) others.push_back(side_name(p, p.next));
  out << fmt::format("base: {}   others: {}", side_name(first, first.base), fmt::join(others, ", "));
  if (first.mode == Mode::kernels) out << fmt::format("   (run {})", first.base.run);
  out << fmt::format("\nverdict per other side against the base: alpha {}, minimum effect {:g}%, medians over boots; "
                     "unknown: boots from the noise, up to {} per side\n\n",
                     first.options.verdict.alpha, first.options.verdict.min_effect * 100, first.options.plan.cap);
  for (const auto& p : m.pairs)
    if (const auto& d = p.drift)
      out << fmt::format("drift-corrected against control {} ({}): reference {:.2f} lpm, control mean base {:.2f}, "
                         "{} {:.2f} lpm ({:+.1f}%); {} boots without a control boot left out\n",
                         d->control, side_name(p, p.next), d->reference, d->base_control_mean, side_name(p, p.next),
                         d->new_control_mean, (d->new_control_mean / d->base_control_mean - 1) * 100, d->dropped);
}

/// "kernel B: 1 different (1 regressions), 1 same, 1 unknown, 0 refused" per other side.
void tallies(const MultiComparison& m, std::ostream& out) {
  out << "\n";
  for (const auto& p : m.pairs) {
    std::size_t diff = 0, regress = 0, same = 0, unknown = 0, refused = 0;
    for (const auto& c : p.cells) {
      refused += c.status == RowStatus::refused;
      regress += c.regression();
      if (c.status != RowStatus::compared) continue;
      diff += c.result->verdict == stats::Verdict::different;
      same += c.result->verdict == stats::Verdict::same;
      unknown += c.result->verdict == stats::Verdict::unknown;
    }
    out << fmt::format("{}: {} different ({} regressions), {} same, {} unknown, {} refused\n", side_name(p, p.next),
                       diff, regress, same, unknown, refused);
  }
}

using nlohmann::json;

json json_number(std::optional<double> v) { return v && std::isfinite(*v) ? json(*v) : json(nullptr); }

json json_side(const ComparisonTable& p, const Side& s) {
  return {{"run", s.run}, {"kernel", p.mode == Mode::kernels ? json(s.kernel) : json(nullptr)}};
}

/// One label of the N-way grid: the base's figures and each other side's.
json grid_cell(const MultiComparison& m, const LabelRow& r) {
  const stats::Summary* a = base_summary(r);
  const CellComparison* base = base_row(r);
  json others = json::array();
  for (std::size_t p = 0; p < r.per_pair.size(); ++p) {
    const CellComparison* c = r.per_pair[p];
    json o = json_side(m.pairs[p], m.pairs[p].next);
    const bool cmp = c && c->result && c->status == RowStatus::compared;
    o["cell"] = c && !c->new_cell.empty() ? json(c->new_cell) : json(nullptr);
    o["status"] = c ? json(row_status_name(c->status)) : json(nullptr);
    o["boots"] = c ? c->new_scores.size() : 0;
    o["median"] = cmp ? json(c->result->b.median) : json(nullptr);
    o["rel_stddev"] = json_number(cmp ? std::optional<double>(c->result->b.relative_stddev) : std::nullopt);
    o["change"] = cmp ? json(c->result->difference.relative_change) : json(nullptr);
    o["p"] = cmp ? json(c->result->difference.p_min) : json(nullptr);
    o["verdict"] = cmp ? json(stats::verdict_name(c->result->verdict)) : json(nullptr);
    o["regression"] = c && c->regression();
    others.push_back(std::move(o));
  }
  return {{"label", r.label},
          {"base", {{"cell", base ? json(base->base_cell) : json(nullptr)},
                    {"boots", base ? base->base_scores.size() : 0},
                    {"median", a ? json(a->median) : json(nullptr)},
                    {"rel_stddev", json_number(a ? std::optional<double>(a->relative_stddev) : std::nullopt)}}},
          {"others", others}};
}

}  // namespace

json to_json(const MultiComparison& m) {
  if (m.pairs.empty()) throw std::invalid_argument("to_json: a comparison without pairs");
  if (m.pairs.size() == 1) return to_json(m.pairs.front());
  const auto& first = m.pairs.front();
  json others = json::array(), comparisons = json::array(), cells = json::array(), summary = json::object();
  for (const auto& p : m.pairs) {
    others.push_back(json_side(p, p.next));
    comparisons.push_back(to_json(p));
    for (const auto& [k, v] : comparisons.back()["summary"].items())
      summary[k] = summary.value(k, 0) + v.get<int>();
  }
  for (const auto& r : label_rows(m)) cells.push_back(grid_cell(m, r));
  return {{"mode", first.mode == Mode::runs ? "runs" : "kernels"},
          {"base", json_side(first, first.base)},
          {"others", others},
          {"options", comparisons.front()["options"]},
          {"cells", cells},
          {"comparisons", comparisons},
          {"summary", summary}};
}

void render_text(const MultiComparison& m, std::ostream& out) {
  if (m.pairs.empty()) throw std::invalid_argument("render_text: a comparison without pairs");
  if (m.pairs.size() == 1) return render_text(m.pairs.front(), out);
  preamble(m, out);
  const auto rows = label_rows(m);
  if (rows.empty()) {
    out << "no scored cells on any side\n";
    return;
  }
  heads(m, out);
  for (const auto& r : rows) label_lines(m, r, out);
  tallies(m, out);
}

}  // namespace rlab::compare
