// summary.txt: an LKP-style text summary; the tables are compare's own (compare::render_text).
#include "compare/render.hpp"
#include "nightly/report_dirs.hpp"
#include "results/vocabulary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace rlab::nightly {
namespace {

std::string run_line(const char* what, const std::optional<store::RunInfo>& r, const std::string& how) {
  if (!r) return fmt::format("{:<9} none{}\n", what, how.empty() ? "" : " (" + how + ")");
  return fmt::format("{:<9} run {} ({}, {}){}\n", what, r->id, r->created_at, store::to_string(r->status),
                     how.empty() ? "" : " (" + how + ")");
}

/// "-11.1% different": the %change and the verdict word, as `rlab compare` prints them; the
/// row's status ("refused", ...) when it was not compared.
std::string change_text(const std::optional<compare::CellComparison>& c) {
  if (!c) return "-";
  if (!c->result || c->status != compare::RowStatus::compared) return std::string(compare::row_status_name(c->status));
  return fmt::format("{:+.1f}% {}", c->result->difference.relative_change * 100.0,
                     stats::verdict_name(c->result->verdict));
}

/// The "== change points ==" section: every cell's change points, new ones marked.
void change_points(const NightAnalysis& r, std::ostream& out) {
  out << fmt::format("\n== change points (E-Divisive, alpha {}, {} permutations, segments >= {} nights) ==\n",
                     r.detect.method.alpha, r.detect.method.permutations, r.detect.method.min_segment);
  std::size_t listed = 0;
  for (const auto& c : r.cells)
    for (const auto& m : c.change_points) {
      const auto& d = m.detection;
      out << fmt::format("{:<4} {:<11} {:>+7.1f}%  {:>9.2f} -> {:>9.2f} lpm  p {:.4f}  run {} -> {}  {}\n",
                         m.is_new ? "NEW" : "", d.regression() ? "regression" : "improvement",
                         d.change.relative_change * 100.0, d.change.mean_before, d.change.mean_after,
                         d.change.p, d.last_before.run, d.first_after.run, c.cell_id);
      ++listed;
    }
  if (listed == 0) out << "none\n";
}

std::string gap_change_text(const std::optional<GapComparison>& c) {
  if (!c) return "-";
  if (!c->result) return "not compared";
  const auto& d = c->result->difference;
  return fmt::format("{:+.1f}% {}", d.relative_change * 100.0,
                     c->result->verdict == stats::Verdict::different ? (c->regression() ? "REGRESSION" : "better")
                                                                      : std::string(stats::verdict_name(c->result->verdict)));
}

/// The "== gaps ==" section: each gap's ratio tonight, its comparisons, its history (the
/// newest kHistoryShown nights), its change points and its bisection.
void gap_section(const NightAnalysis& r, std::ostream& out) {
  constexpr std::size_t kHistoryShown = 20;
  out << "\n== gaps (score ratio of two cells of one kernel, per night: the median over the rounds that "
         "booted both, else the ratio of medians) ==\n";
  for (const auto& g : r.gaps) {
    out << fmt::format("{:<6} {}\n", g.status(), g.name());
    if (g.tonight)
      out << fmt::format("       tonight {:.4f} ({}{})   vs previous {}   vs baseline {}\n", g.tonight->point.score,
                         g.tonight->method,
                         g.tonight->method == "paired" ? fmt::format(", {} rounds", g.tonight->ratios.size()) : "",
                         gap_change_text(g.vs_previous), gap_change_text(g.vs_baseline));
    if (g.status() != "PASS") out << "       " << g.reason() << "\n";
    std::string hist;
    const std::size_t from = g.nights.size() > kHistoryShown ? g.nights.size() - kHistoryShown : 0;
    for (std::size_t i = from; i < g.nights.size(); ++i)
      hist += fmt::format(" {}:{:.3f}{}", g.nights[i].point.run, g.nights[i].point.score,
                          g.nights[i].method == "medians" ? "m" : "");
    out << fmt::format("       history ({} nights{}, run:ratio, m = ratio of medians):{}\n", g.nights.size(),
                       from ? fmt::format(", the newest {}", kHistoryShown) : "", hist.empty() ? " none" : hist);
    if (!g.history_note.empty()) out << "       change points: " << g.history_note << "\n";
    else if (g.change_points.empty()) out << "       change points: none\n";
    for (const auto& m : g.change_points) {
      const auto& d = m.detection;
      out << fmt::format("       {:<4} {:<11} {:>+7.1f}%  ratio {:.4f} -> {:.4f}  p {:.4f}  run {} -> {}\n",
                         m.is_new ? "NEW" : "", d.regression() ? "regression" : "improvement",
                         d.change.relative_change * 100.0, d.change.mean_before, d.change.mean_after, d.change.p,
                         d.last_before.run, d.first_after.run);
    }
    if (const auto* b = r.gap_bisect(g))
      out << fmt::format("       bisection ({} .. {}): {}\n", b->good_commit, b->bad_commit, b->state());
  }
}

}  // namespace

std::string render_summary(const NightAnalysis& r) {
  std::ostringstream out;
  out << fmt::format("rlab nightly: run {} of {}\n", r.run.id, r.run.matrix_path);
  out << fmt::format("started {}, finished {}, status {}, host {}\n", r.run.created_at,
                     r.run.finished_at.empty() ? "-" : r.run.finished_at, store::to_string(r.run.status),
                     r.run.hostname);
  out << run_line("previous", r.previous, "");
  out << run_line("baseline", r.baseline, r.baseline_source);
  if (!r.control.empty() || r.vs_previous || r.vs_baseline) {
    if (r.vs_previous) out << fmt::format("{:<9} vs previous: {}\n", "drift", r.drift_text("previous"));
    if (r.vs_baseline) out << fmt::format("{:<9} vs baseline: {}\n", "drift", r.drift_text("baseline"));
  }
  out << fmt::format("{} cells{}: {} regressions, {} with failed boots\n\n", r.cells.size(),
                     r.gaps.empty() ? "" : fmt::format(", {} gap{}", r.gaps.size(), r.gaps.size() == 1 ? "" : "s"),
                     r.regressions(), r.failed_cells());

  // The cell's score as `rlab compare` prints the same cell: median ± %stddev, <cell>.score_lpm;
  // FAIL marks a regression (different and slower).
  out << fmt::format("{:<6} {:>16} {:>22} {:>22}  {}\n", "status", "median %stddev", "vs previous", "vs baseline",
                     "cell");
  for (const auto& c : r.cells) {
    const bool control = c.cell_id == r.control;  // not compared: it measures the host's drift
    out << fmt::format("{:<6} {} {:>22} {:>22}  {}.{}\n", c.status(), results::value_col(c.median, c.rel_stddev),
                       control ? "control" : change_text(c.vs_previous),
                       control ? "control" : change_text(c.vs_baseline), c.cell_id, results::kScoreMetric);
    if (c.status() != "PASS") out << "       " << c.reason() << "\n";
  }

  if (r.vs_previous) {
    out << "\n== against the previous night ==\n";
    compare::render_text(*r.vs_previous, out);
  } else {
    out << "\n== against the previous night ==\nno earlier nightly run of this matrix\n";
  }
  if (r.vs_baseline) {
    out << "\n== against the baseline ==\n";
    compare::render_text(*r.vs_baseline, out);
  } else {
    out << "\n== against the baseline ==\nno baseline run\n";
  }

  change_points(r, out);
  if (!r.gaps.empty()) gap_section(r, out);

  if (!r.lab_notes.empty()) {
    out << "\n== lab ==\n";
    for (const auto& n : r.lab_notes) out << n << "\n";
  }

  out << "\n== bisections ==\n";
  if (r.bisects.empty()) out << "none called for\n";
  for (const auto& b : r.bisects) {
    out << fmt::format("{}{}: good {} bad {} ({}): {}\n", b.against_cell_id.empty() ? "" : "gap ", b.subject(),
                       b.good_commit, b.bad_commit, b.why, b.state());
    const bool gap = !b.against_cell_id.empty();
    if (!b.also.empty())
      out << fmt::format("  the same range also regressed {}: {}\n",
                         b.also.size() == 1 ? (gap ? "this gap" : "this cell") : (gap ? "these gaps" : "these cells"),
                         fmt::join(b.also, ", "));
  }
  return out.str();
}

}  // namespace rlab::nightly
