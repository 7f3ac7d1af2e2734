// The text table, laid out like LKP's comparison tables: the first kernel is the base
// column ("value ± %stddev"); every other kernel adds "%change" against it and its own
// "value ± %stddev"; the row's name is on the right.
#include "results/results_table.hpp"

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

std::string value_col(const std::optional<double>& v, const std::optional<double>& rel) {
  if (!v) return fmt::format("{:>10}      ", "-");
  std::string num = fmt::format("{:>10.2f}", *v);
  if (!rel) return num + "      ";
  return num + fmt::format(" ±{:>3.0f}%", *rel * 100.0);
}

/// The score's %change with its verdict's mark: "*" different, "=" same, "~" unknown but
/// within the noise (|change| below the measured noise of one boot), "?" not judged.
std::string judged_col(const stats::Comparison& c, const std::optional<HostNoise>& noise) {
  char mark = '?';
  if (c.verdict == stats::Verdict::different) mark = '*';
  else if (c.verdict == stats::Verdict::same) mark = '=';
  if (c.verdict == stats::Verdict::unknown && noise && std::fabs(c.difference.relative_change) < noise->rel_stddev)
    mark = '~';
  return fmt::format("{:>+9.1f}%{}", 100.0 * c.difference.relative_change, mark);
}

/// Display width of UTF-8 text (code points; the table uses no wide characters).
std::size_t width_of(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad_left(const std::string& s, std::size_t w) {
  const std::size_t n = width_of(s);
  return n >= w ? s : std::string(w - n, ' ') + s;
}

/// What the score's marks mean, what a verdict needs and, at the measured noise, how many
/// boots a side a 5% change and the minimum effect need.
void legend(const ResultsTable& t, std::size_t unjudged, std::size_t smallest_side, std::ostream& out) {
  const std::size_t floor = stats::shift_interval_floor(1 - 2 * t.verdict.alpha);
  out << fmt::format("\n%change of score_lpm against {}: * different, = same, ~ within the noise of one boot, ? not judged "
                     "(alpha {:g}, minimum effect {:g}%; docs/statistics.md)\n",
                     t.kernels.front(), t.verdict.alpha, 100 * t.verdict.min_effect);
  if (unjudged == 0) return;
  if (smallest_side < floor)
    out << fmt::format("{} change{} not judged: with {} boot{} a side no change can be judged; a verdict needs at least {} "
                       "boots a side\n",
                       unjudged, unjudged == 1 ? " is" : "s are", smallest_side, smallest_side == 1 ? "" : "s", floor);
  else
    out << fmt::format("{} change{} unknown: measure more boots\n", unjudged, unjudged == 1 ? " is" : "s are");
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

/// Writes the kernels' column heads (name, rule, "%change %stddev") and returns each
/// column's width: the base 16, the others 1 + 11 (%change) + 16 (value), widened to fit the
/// kernel's name.
std::vector<std::size_t> column_heads(const std::vector<std::string>& kernels, std::ostream& out) {
  std::vector<std::size_t> width;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    width.push_back(std::max<std::size_t>(i == 0 ? 16 : 27, kernels[i].size()));
  std::string names, rule, head1, head2;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string sep = i == 0 ? "" : " ";
    names += sep + pad_left(kernels[i], width[i]);
    rule += sep + std::string(width[i], '-');
    if (i == 0) {
      head1 += pad_left("%stddev", width[i]);
      head2 += pad_left("\\", width[i] - 3) + "   ";
    } else {
      head1 += sep + pad_left("%change         %stddev", width[i]);
      head2 += sep + pad_left("|                \\", width[i] - 3) + "   ";
    }
  }
  out << names << "\n" << rule << "\n" << head1 << "\n" << head2 << "\n";
  return width;
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

/// The lines of one row key, each through `line(key, metric, with_stddev, judged, get)`: the
/// score (judged), this guest's UnixBench index, and on XFS the inodegc throttle and the AGs
/// the load's inodes were in, when a cell of the row has them. `byk`: the row's cells by kernel.
template <class Line>
void figure_lines(const Key& k, const std::map<std::string, const CellSummary*>& byk, Line& line) {
  line(k, "score_lpm", true, true, [](const CellSummary& c) { return c.mean; });
  line(k, "unixbench_index(this_guest)", false, false, [](const CellSummary& c) { return c.index; });
  bool any_throttle = false;
  for (const auto& [kn, c] : byk) any_throttle |= c->throttle_per_kloop.has_value();
  if (any_throttle && std::get<0>(k) == "xfs")  // an XFS tracepoint says nothing of ext4
    line(k, "inodegc_throttle_per_1k_loops", false, false, [](const CellSummary& c) { return c.throttle_per_kloop; });
  const CellSummary* any = nullptr;
  for (const auto& [kn, c] : byk)
    if (c->inode_ags) any = c;
  if (any)
    line(k, fmt::format("xfs_inode_ags_of_{}({})", any->agcount.value_or(0), any->layout), false, false,
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

  const std::vector<std::size_t> width = column_heads(t.kernels, out);

  std::map<Key, std::map<std::string, const CellSummary*>> rows;
  std::vector<Key> order;
  for (const auto& c : t.cells) {
    Key k{c.fs, c.mkfs_label, c.vcpus, c.workload};
    if (!rows.count(k)) order.push_back(k);
    rows[k][c.kernel] = &c;
  }
  std::size_t unjudged = 0, smallest_side = SIZE_MAX;
  auto line = [&](const Key& k, const std::string& metric, bool with_stddev, bool judged, auto get) {
    const auto& byk = rows[k];
    auto cell = [&](std::size_t i) -> const CellSummary* {
      auto it = byk.find(t.kernels[i]);
      return it == byk.end() ? nullptr : it->second;
    };
    std::string s;
    for (std::size_t i = 0; i < t.kernels.size(); ++i) {
      const CellSummary* c = cell(i);
      std::optional<double> v = c ? get(*c) : std::nullopt;
      std::optional<double> rel = c && with_stddev ? c->rel_stddev : std::nullopt;
      std::string group = value_col(v, rel);
      if (i > 0) {
        const CellSummary* b = cell(0);
        const auto verdict = judged && b && c ? judge(*b, *c, t.verdict) : std::nullopt;
        // Only a judged figure shows a %change: the other rows' change would be the score's again
        // (the index) or a count's without a verdict.
        group = (verdict ? judged_col(*verdict, t.noise) : fmt::format("{:>11}", "")) + group;
        if (verdict && verdict->verdict == stats::Verdict::unknown) {
          ++unjudged;
          smallest_side = std::min({smallest_side, verdict->a.n, verdict->b.n});
        }
      }
      s += (i == 0 ? "" : " ") + pad_left(group, width[i]);
    }
    out << s << "  " << fmt::format("{}({}).{}vcpu.{}.{}", std::get<0>(k), std::get<1>(k),
                                    std::get<2>(k), std::get<3>(k), metric)
        << "\n";
  };
  for (const auto& k : order) figure_lines(k, rows[k], line);

  if (t.kernels.size() > 1) legend(t, unjudged, smallest_side, out);

  ag_headers(t, out);
  incomplete_cells(t, out);
  boot_line(t, out);
}

}  // namespace rlab::results
