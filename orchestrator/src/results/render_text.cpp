// The text table, laid out as `rlab compare --kernels` lays out one run's kernels (results/
// vocabulary.hpp): the first kernel is the base column (median ± %stddev); every other kernel
// adds a group "%change  median ± %stddev  p  verdict" against it; the row's name is on the right.
#include "results/results_table.hpp"
#include "attribution/ag_table_render.hpp"
#include "results/vocabulary.hpp"

#include <fmt/format.h>

#include "stats/power.hpp"
#include "stats/shift_interval.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>

namespace rlab::results {
namespace {

using Key = std::tuple<std::string, std::string, unsigned, std::string>;  // fs, mkfs, vcpus, workload

/// What the verdicts say, what a verdict needs and, at the measured noise, how many boots a
/// side a 5% change and the minimum effect need.
void legend(const ResultsTable& t, std::size_t unjudged, std::size_t smallest_side, std::ostream& out) {
  const std::size_t floor = stats::shift_interval_floor(1 - 2 * t.verdict.alpha);
  out << fmt::format("\nverdict of {} against kernel {}: different, same or unknown (alpha {:g}, minimum effect {:g}%, "
                     "{}s over boots; docs/statistics.md)\n",
                     kScoreMetric, t.kernels.front(), t.verdict.alpha, 100 * t.verdict.min_effect, kScoreStatistic);
  if (unjudged == 0) return;
  if (smallest_side < floor)
    out << fmt::format("{} verdict{} unknown: with {} boot{} a side no change can be judged; a verdict needs at least {} "
                       "boots a side\n",
                       unjudged, unjudged == 1 ? " is" : "s are", smallest_side, smallest_side == 1 ? "" : "s", floor);
  else
    out << fmt::format("{} verdict{} unknown: measure more boots\n", unjudged, unjudged == 1 ? " is" : "s are");
  if (!t.noise) {
    out << "the noise of a boot on this host is not measured yet: run `rlab noise`, or repeats of 2 or more\n";
    return;
  }
  auto need = [&](double effect) {
    const auto n = stats::boots_for_effect(t.noise->rel_stddev, effect, 200, t.verdict.alpha);
    return n ? fmt::format("{} boots a side", *n) : std::string("more than 200 boots a side");
  };
  out << fmt::format("at the measured noise of {:.1f}% a boot ({}), a 5% change needs {}, a {:g}% change {}\n",
                     100 * t.noise->rel_stddev, t.noise->source, need(0.05), 100 * t.verdict.min_effect,
                     need(std::max(t.verdict.min_effect, 1e-3)));
}

/// The AG header table of each cell that has one.
void ag_headers(const ResultsTable& t, std::ostream& out) {
  for (const auto& c : t.cells) {
    if (!c.ag_headers) continue;
    out << "\n" << c.cell_id << ":\n";
    attribution::render_ag_table(*c.ag_headers, out, "  ");
  }
}

/// The cells with failed or missing boots, with their failures.
void incomplete_cells(const ResultsTable& t, std::ostream& out) {
  bool header = false;
  for (const auto& c : t.cells) {
    if (c.failures.empty() && c.done == c.boots) continue;
    if (!header) out << "\nincomplete cells:\n";
    header = true;
    out << fmt::format("  {}: {}/{} boots done, {} failed\n", c.cell_id, c.done, c.boots,
                       c.failed);
    for (const auto& f : c.failures) out << "    " << f << "\n";
  }
}

/// "boot to hello: 2.31 s (median of 8 boots); guest clock: init at 0.80 s, agent at 0.81 s,
/// hello at 0.93 s", each part only when known (init: PID 1 began, the agent itself or the
/// shell /init that execs it).
void boot_line(const ResultsTable& t, std::ostream& out) {
  if (!t.boot) return;
  const auto& b = *t.boot;
  std::string guest;
  for (auto [what, v] : {std::pair{"init", b.init_s}, {"agent", b.agent_s}, {"hello", b.hello_s}})
    if (v) guest += fmt::format("{}{} at {:.2f} s", guest.empty() ? "; guest clock: " : ", ", what, *v);
  out << fmt::format("\nboot to hello: {} (median of {} boot{}){}\n",
                     b.boot_s ? fmt::format("{:.2f} s", *b.boot_s) : std::string("?"), b.boots, b.boots == 1 ? "" : "s",
                     guest);
}

/// The lines of one row key, each through `line(key, metric, note, judged, get)`: the score
/// (judged), this guest's UnixBench index, and on XFS the inodegc throttle and the AGs the
/// load's inodes were in, when a cell of the row has them. `byk`: the row's cells by kernel.
template <class Line>
void figure_lines(const Key& k, const std::map<std::string, const CellSummary*>& byk, Line& line) {
  line(k, std::string(kScoreMetric), "", true, [](const CellSummary& c) { return c.median; });
  line(k, "unixbench_index(this_guest)", "", false, [](const CellSummary& c) { return c.index; });
  bool any_throttle = false;
  for (const auto& [kn, c] : byk) any_throttle |= c->throttle_per_kloop.has_value();
  if (any_throttle && std::get<0>(k) == "xfs")  // an XFS tracepoint says nothing of ext4
    line(k, "inodegc_throttle_per_1k_loops", "", false, [](const CellSummary& c) { return c.throttle_per_kloop; });
  const CellSummary* any = nullptr;
  for (const auto& [kn, c] : byk)
    if (c->inode_ags) any = c;
  if (any)
    line(k, "xfs_inode_ags", fmt::format("  (of {} AGs, {} layout)", any->agcount.value_or(0), any->layout), false,
         [](const CellSummary& c) { return c.inode_ags; });
}

}  // namespace

void render_text(const ResultsTable& t, std::ostream& out) {
  out << fmt::format("run {}  {}  {}  seed {}\n", t.run.id, store::to_string(t.run.status), t.run.matrix_path,
                     t.run.seed);
  out << fmt::format("started {}{}\n\n", t.run.created_at,
                     t.run.finished_at.empty() ? "" : "  finished " + t.run.finished_at);
  if (t.cells.empty()) {
    out << "no cells\n";
    return;
  }
  out << "kernels:\n";
  for (const auto& k : t.kernels) out << "  " << k << "\n";
  out << "\n";

  const std::vector<std::size_t> width = write_heads(t.kernels, out);

  std::map<Key, std::map<std::string, const CellSummary*>> rows;
  std::vector<Key> order;
  for (const auto& c : t.cells) {
    Key k{c.fs, c.mkfs_label, c.vcpus, c.workload};
    if (!rows.count(k)) order.push_back(k);
    rows[k][c.kernel] = &c;
  }
  std::size_t unjudged = 0, smallest_side = SIZE_MAX;
  // The score's line carries each other kernel's %change, p and verdict against the first
  // kernel and the boots of each; a figure's line (index, counts) its %change alone: it has
  // no verdict of its own.
  auto line = [&](const Key& k, const std::string& metric, const std::string& note, bool judged, auto get) {
    const auto& byk = rows[k];
    auto cell = [&](std::size_t i) -> const CellSummary* {
      auto it = byk.find(t.kernels[i]);
      return it == byk.end() ? nullptr : it->second;
    };
    const CellSummary* base = cell(0);
    const std::optional<double> a = base ? get(*base) : std::nullopt;
    bool any = a.has_value();
    for (std::size_t i = 1; i < t.kernels.size(); ++i) any |= cell(i) && get(*cell(i)).has_value();
    if (!any && !judged) return;  // a figure no kernel has (as `rlab compare` leaves it out)
    std::string s = pad_left(value_col(a, base && judged ? base->rel_stddev : std::nullopt), width[0]);
    std::string boots = fmt::format("{}", base ? base->done : 0);
    for (std::size_t i = 1; i < t.kernels.size(); ++i) {
      const CellSummary* c = cell(i);
      const std::optional<double> v = c ? get(*c) : std::nullopt;
      boots += fmt::format(" | {}", c ? c->done : 0);
      if (!judged) {
        std::optional<double> change;
        if (a && v && *a != 0) change = *v / *a - 1;
        s += pad_left(group_col(change, v, std::nullopt, std::nullopt, ""), width[i]);
        continue;
      }
      const auto verdict = base && c ? judge(*base, *c, t.verdict) : std::nullopt;
      if (verdict && verdict->verdict == stats::Verdict::unknown) {
        ++unjudged;
        smallest_side = std::min({smallest_side, verdict->a.n, verdict->b.n});
      }
      s += pad_left(verdict ? group_col(verdict->difference.relative_change, v, c->rel_stddev,
                                        verdict->difference.p_min, stats::verdict_name(verdict->verdict))
                            : group_col(std::nullopt, v, c ? c->rel_stddev : std::nullopt, std::nullopt, ""),
                    width[i]);
    }
    out << s << "  " << row_label(std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<3>(k)) << "." << metric
        << (judged ? fmt::format("  (boots {})", boots) : note) << "\n";
  };
  for (const auto& k : order) figure_lines(k, rows[k], line);

  if (t.kernels.size() > 1) legend(t, unjudged, smallest_side, out);

  ag_headers(t, out);
  incomplete_cells(t, out);
  boot_line(t, out);
}

}  // namespace rlab::results
