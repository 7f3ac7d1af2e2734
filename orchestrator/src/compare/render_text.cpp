// The text table of `rlab compare`, laid out like LKP's comparison tables.
#include "compare/render.hpp"
#include "attribution/ag_table_render.hpp"
#include "compare/multi.hpp"
#include "compare/text_parts.hpp"

#include "attribution/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace rlab::compare {
namespace {

/// Leading rows (stacks, parts, counters) of the "what changed" ranking shown per cell in the
/// text table, and its context rows (totals and pressure) under them.
constexpr std::size_t kMoversShown = 10;
constexpr std::size_t kContextShown = 5;

}  // namespace

std::string verdict_of(const CellComparison& c) {
  return c.result && c.status == RowStatus::compared ? std::string(stats::verdict_name(c.result->verdict))
                                                     : std::string(row_status_name(c.status));
}

std::string side_name(const ComparisonTable& r, const Side& s) { return side_name(r.mode, s); }

void advice(const CellComparison& c, const CompareOptions& o, std::ostream& out, const std::string& pad) {
  switch (c.status) {
    case RowStatus::refused: out << pad << "refused: " << c.mismatch->message() << "\n"; return;
    case RowStatus::error: out << pad << "error: " << c.error << "\n"; return;
    case RowStatus::base_only: out << pad << "only in base: nothing to compare\n"; return;
    case RowStatus::new_only: out << pad << "only in new: nothing to compare\n"; return;
    case RowStatus::compared: break;
  }
  if (c.result->verdict != stats::Verdict::unknown) return;
  if (c.beyond_cap) {
    const double sought = std::max(o.verdict.min_effect, std::abs(c.result->difference.relative_change));
    out << pad << fmt::format("unknown: at {:.1f}% noise a {:.1f}% change needs more than {} boots per "
                              "side: stays unknown until the noise is cut (docs/methodology.md)\n",
                              *c.noise * 100, sought * 100, o.plan.cap);
  } else if (c.next_boots_per_side == 0) {
    out << pad << fmt::format("unknown at the cap of {} boots per side: stays unknown\n", o.plan.cap);
  } else if (c.more_base == c.more_new) {
    out << pad << fmt::format("unknown: measure {} more boots per side ({} each)\n", c.more_base,
                              c.next_boots_per_side);
  } else {
    out << pad << fmt::format("unknown: measure {} more base and {} more new boots ({} each)\n",
                              c.more_base, c.more_new, c.next_boots_per_side);
  }
}

namespace {

/// One cell's score row (medians, %change, p, verdict, boots a side), the advice when it is
/// not judged, its index and inode-AG rows, and its first movers.
void write_row(const CellComparison& c, const CompareOptions& options, std::ostream& out) {
  const bool cmp = c.result.has_value();
  std::optional<double> base_med, new_med, base_rel, new_rel, change, p;
  if (cmp) {
    base_med = c.result->a.median;
    new_med = c.result->b.median;
    base_rel = c.result->a.relative_stddev;
    new_rel = c.result->b.relative_stddev;
    change = c.result->difference.relative_change;
    p = c.result->difference.p_min;
  }
  out << value_col(base_med, base_rel) << results::group_col(change, new_med, new_rel, p, verdict_of(c)) << "  "
      << c.label << "." << results::kScoreMetric
      << fmt::format("  ({} vs {} boots", c.base_scores.size(), c.new_scores.size())
      << (c.noise ? fmt::format("; noise {:.1f}%, detectable {:.1f}%)\n", *c.noise * 100, *c.mde * 100)
                  : std::string(")\n"));
  advice(c, options, out, std::string(6, ' '));
  const auto figure = [&](std::optional<double> a, std::optional<double> b, std::string_view name) {
    if (!a && !b) return;
    std::optional<double> ch;
    if (a && b && *a != 0) ch = *b / *a - 1;
    out << value_col(a, std::nullopt) << results::group_col(ch, b, std::nullopt, std::nullopt, "") << "  "
        << c.label << "." << name << "\n";
  };
  figure(c.base_index, c.new_index, "unixbench_index(this_guest)");
  figure(c.base_inode_ags, c.new_inode_ags, "xfs_inode_ags");
  what_changed(c, out, "      ");
}

}  // namespace

void what_changed(const CellComparison& c, std::ostream& out, const std::string& indent) {
  if (c.movers && !c.movers->empty()) {
    attribution::Ranking top = *c.movers;  // the text shows the first rows; --json has them all
    if (top.rows.size() > kMoversShown) {
      top.left_out += top.rows.size() - kMoversShown;
      top.rows.resize(kMoversShown);
    }
    if (top.context.size() > kContextShown) {
      top.context_left_out += top.context.size() - kContextShown;
      top.context.resize(kContextShown);
    }
    std::ostringstream m;
    attribution::render_ranking(top, m, indent);
    out << m.str();
  }
  if (c.ag_headers) {
    std::ostringstream m;
    attribution::render_ag_comparison(*c.ag_headers, m, indent);
    out << m.str();
  }
}

void render_text(const ComparisonTable& r, std::ostream& out) {
  out << fmt::format("base: {}   new: {}", side_name(r, r.base), side_name(r, r.next));
  if (r.mode == Mode::kernels) out << fmt::format("   (run {})", r.base.run);
  out << "\n";
  out << fmt::format("verdict: alpha {}, minimum effect {:g}%, medians over boots; "
                     "unknown: boots from the noise, up to {} per side\n\n",
                     r.options.verdict.alpha, r.options.verdict.min_effect * 100, r.options.plan.cap);
  if (const auto& d = r.drift) {
    out << fmt::format("drift-corrected against control {}: each score x {:.2f} lpm / the control's "
                       "score of its run and repeat\n", d->control, d->reference);
    out << fmt::format("control mean: base {:.2f} lpm, new {:.2f} lpm ({:+.1f}%)", d->base_control_mean,
                       d->new_control_mean, (d->new_control_mean / d->base_control_mean - 1) * 100);
    if (d->dropped) out << fmt::format("; {} boots without a control boot left out", d->dropped);
    out << "\n\n";
  }
  if (r.cells.empty()) {
    out << "no scored cells on either side\n";
    return;
  }
  results::write_heads({side_name(r, r.base), side_name(r, r.next)}, out);
  for (const auto& c : r.cells) write_row(c, r.options, out);
  std::size_t diff = 0, regress = 0, same = 0, unknown = 0, refused = 0;
  for (const auto& c : r.cells) {
    refused += c.status == RowStatus::refused;
    if (c.status != RowStatus::compared) continue;
    diff += c.result->verdict == stats::Verdict::different;
    same += c.result->verdict == stats::Verdict::same;
    unknown += c.result->verdict == stats::Verdict::unknown;
    regress += c.regression();
  }
  out << fmt::format("\n{} different ({} regressions), {} same, {} unknown, {} refused\n", diff,
                     regress, same, unknown, refused);
}

}  // namespace rlab::compare
