// report.html: one self-contained page (inline CSS, inline SVG from svg.hpp, no script and
// nothing fetched): the night's cells, score against vCPUs per kernel and filesystem, the
// XFS / ext4 ratio per vCPU count with each gap's ratio history beside it (`gaps:`), the gaps,
// and every cell's nightly history with change points.
#include "nightly/report_dirs.hpp"
#include "attribution/ag_table_render.hpp"
#include "nightly/svg.hpp"

#include "attribution/flame.hpp"
#include "attribution/render.hpp"
#include "results/vocabulary.hpp"
#include "stats/shift_interval.hpp"
#include "util/xml.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <map>
#include <tuple>

namespace rlab::nightly {

using util::xml_escape;

namespace {

constexpr const char* kCss = R"(body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:3px 7px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.PASS{background:#e3f4e3}.FAIL{background:#f8d0d0;font-weight:bold}.ERROR{background:#fde9c8;font-weight:bold}
.plots{display:flex;flex-wrap:wrap;gap:1em}.note{color:#666;font-size:.9em}
)";

std::string h(const std::string& s) { return xml_escape(s); }

/// "-11.1% (different, p 1.1e-05)": the %change, verdict word and p as `rlab compare` gives
/// them; a regression (different and slower) is marked FAIL.
std::string cmp_cell(const std::optional<compare::CellComparison>& c) {
  if (!c) return "<td>-</td>";
  if (!c->result || c->status != compare::RowStatus::compared)
    return "<td>" + h(std::string(compare::row_status_name(c->status))) +
           (c->mismatch ? ": " + h(c->mismatch->message()) : std::string()) + "</td>";
  const auto& d = c->result->difference;
  return fmt::format(R"(<td class="num{}">{:+.1f}% ({}, p {:.2g})</td>)", c->regression() ? " FAIL" : "",
                     d.relative_change * 100.0, h(std::string(stats::verdict_name(c->result->verdict))), d.p_min);
}

/// "240.00 ± 2%": the cell's score_lpm, median ± relative stddev over its boots.
std::string score_text(const CellOutcome& c) {
  if (!c.median) return "-";
  if (!c.rel_stddev) return fmt::format("{:.2f}", *c.median);
  return fmt::format("{:.2f} ± {:.0f}%", *c.median, *c.rel_stddev * 100.0);
}

std::string run_text(const std::optional<store::RunInfo>& r) {
  return r ? fmt::format("run {} ({})", r->id, r->created_at) : std::string("none");
}

std::string variant(const CellOutcome& c) {
  return c.mkfs_label == "defaults" ? c.fs : c.fs + "(" + c.mkfs_label + ")";
}

/// Score against vCPUs: one series per kernel, filesystem variant and workload.
Chart score_chart(const NightAnalysis& r) {
  Chart ch;
  ch.title = "score_lpm against vCPUs (median over boots)";
  ch.x_label = "vCPUs";
  ch.y_label = "loops per minute";
  ch.integer_x = true;
  std::map<std::string, Series> by;
  std::vector<std::string> order;
  for (const auto& c : r.cells) {
    if (!c.median) continue;
    const std::string name = c.kernel + " " + variant(c) + " " + c.workload;
    if (!by.count(name)) order.push_back(name);
    by[name].name = name;
    by[name].points.push_back({static_cast<double>(c.vcpus), *c.median});
  }
  for (const auto& n : order) ch.series.push_back(by[n]);
  return ch;
}

/// XFS / ext4 ratio per vCPU count: each XFS variant against the first ext4 variant of the
/// same kernel, workload and vCPUs. Each point is the ratio of the medians with the
/// distribution-free interval of the ratio (stats/shift_interval.hpp) at 1 - 2 alpha; with
/// fewer boots a side than that needs, the point is hollow and says it is not judged.
Chart ratio_chart(const NightAnalysis& r) {
  Chart ch;
  ch.title = "XFS / ext4 score ratio per vCPU count";
  ch.x_label = "vCPUs";
  ch.y_label = "xfs ÷ ext4";
  ch.integer_x = true;
  ch.reference_y = 1.0;
  ch.y_from_zero = false;
  std::map<std::tuple<std::string, std::string, unsigned>, const CellOutcome*> ext4;
  for (const auto& c : r.cells)
    if (c.fs == "ext4" && c.median) ext4.emplace(std::tuple{c.kernel, c.workload, c.vcpus}, &c);
  const double alpha = r.vs_previous   ? r.vs_previous->options.verdict.alpha
                       : r.vs_baseline ? r.vs_baseline->options.verdict.alpha
                                       : stats::VerdictOptions{}.alpha;
  const double confidence = 1 - 2 * alpha;
  std::map<std::string, Series> by;
  std::vector<std::string> order;
  for (const auto& c : r.cells) {
    if (c.fs != "xfs" || !c.median) continue;
    auto it = ext4.find({c.kernel, c.workload, c.vcpus});
    if (it == ext4.end() || *it->second->median <= 0) continue;
    const std::string name = c.kernel + " " + variant(c) + " ÷ ext4 " + c.workload;
    if (!by.count(name)) order.push_back(name);
    by[name].name = name;
    XY p{static_cast<double>(c.vcpus), *c.median / *it->second->median};
    // A boot that completed no loop (0 lpm) has no ratio: the point is shown, not judged.
    const auto positive = [](const std::vector<double>& x) {
      return std::all_of(x.begin(), x.end(), [](double v) { return v > 0; });
    };
    const auto iv = positive(it->second->scores) && positive(c.scores)
                        ? stats::ratio_shift_interval(it->second->scores, c.scores, confidence)
                        : stats::ShiftInterval{};
    p.judged = iv.exists;
    if (iv.exists) {
      p.low = iv.low;
      p.high = iv.high;
      p.note = fmt::format("{:.3f}, {:.0f}% interval [{:.3f}, {:.3f}] ({} xfs and {} ext4 boots)", p.y, 100 * iv.confidence,
                           iv.low, iv.high, c.scores.size(), it->second->scores.size());
    } else {
      p.note = fmt::format("{:.3f} from {} xfs and {} ext4 boots: not judged (an interval needs {} boots a side)", p.y,
                           c.scores.size(), it->second->scores.size(), stats::shift_interval_floor(confidence));
    }
    by[name].points.push_back(p);
  }
  for (const auto& n : order) ch.series.push_back(by[n]);
  return ch;
}

/// A cell's nightly history (x = run id) with its change points.
Chart history_chart(const CellOutcome& c) {
  Chart ch;
  ch.title = c.cell_id;
  ch.x_label = "nightly run";
  ch.y_label = "score_lpm (median)";
  ch.integer_x = true;
  ch.width = 420;
  ch.height = 240;
  Series s;
  s.name = fmt::format("{} nights", c.history.points.size());
  for (const auto& p : c.history.points) s.points.push_back({static_cast<double>(p.run), p.score});
  ch.series.push_back(s);
  for (const auto& m : c.change_points)
    ch.markers.push_back({(m.detection.last_before.run + m.detection.first_after.run) / 2.0,
                          fmt::format("{:+.1f}%{}", m.detection.change.relative_change * 100.0,
                                      m.is_new ? " new" : ""),
                          m.detection.regression()});
  return ch;
}

/// A gap's nightly history: its ratio per night (x = run id), a dashed line at 1.0 and its
/// change points. A night whose ratio is one of medians (no round booted both cells) is hollow.
Chart gap_history_chart(const GapOutcome& g) {
  Chart ch;
  // Short enough for the chart's width: the second cell by the parts of its id that differ.
  std::string other;
  for (std::size_t a = 0, b = 0; b <= g.against_cell_id.size();) {
    const std::size_t ea = std::min(g.cell_id.find('/', a), g.cell_id.size());
    const std::size_t eb = std::min(g.against_cell_id.find('/', b), g.against_cell_id.size());
    const std::string pa = a <= g.cell_id.size() ? g.cell_id.substr(a, ea - a) : "";
    const std::string pb = g.against_cell_id.substr(b, eb - b);
    if (pa != pb) other += (other.empty() ? "" : "/") + pb;
    a = ea + 1;
    b = eb + 1;
  }
  ch.title = "gap " + g.cell_id + " ÷ " + (other.empty() ? g.against_cell_id : other);
  ch.x_label = "nightly run";
  ch.y_label = "score ratio";
  ch.integer_x = true;
  ch.reference_y = 1.0;
  ch.y_from_zero = false;
  Series s;
  s.name = fmt::format("{} nights", g.nights.size());
  for (const auto& n : g.nights) {
    XY p{static_cast<double>(n.point.run), n.point.score};
    p.judged = n.method == "paired";
    p.note = n.method == "paired"
                 ? fmt::format("run {}: {:.4f}, median over {} rounds", n.point.run, n.point.score, n.ratios.size())
                 : fmt::format("run {}: {:.4f}, ratio of the medians of {} and {} boots (no round booted both)",
                               n.point.run, n.point.score, n.boots, n.against_boots);
    s.points.push_back(p);
  }
  ch.series.push_back(s);
  for (const auto& m : g.change_points)
    ch.markers.push_back({(m.detection.last_before.run + m.detection.first_after.run) / 2.0,
                          fmt::format("{:+.1f}%{}", m.detection.change.relative_change * 100.0, m.is_new ? " new" : ""),
                          m.detection.regression()});
  return ch;
}

std::string gap_cmp_cell(const std::optional<GapComparison>& c) {
  if (!c) return "<td>-</td>";
  if (!c->result) return "<td>" + h(c->note) + "</td>";
  const auto& d = c->result->difference;
  const std::string verdict = c->regression() ? "regression" : std::string(stats::verdict_name(c->result->verdict));
  return fmt::format(R"(<td class="num{}">{:.4f} → {:.4f}, {:+.1f}% ({}, p {:.2g})</td>)",
                     c->regression() ? " FAIL" : "", d.median_a, d.median_b, d.relative_change * 100.0, h(verdict), d.p_min);
}

/// The gaps table: each gap's ratio tonight, its comparisons, why it fails, its bisection.
std::string gaps_table(const NightAnalysis& r) {
  std::string o =
      "<h2>Gaps</h2>\n<p class=\"note\">The score ratio of two cells of one kernel (the matrix's <code>gaps:</code>), "
      "per night the median over the rounds that booted both cells (their host drift cancels), else the ratio of "
      "the medians; compared with the verdict rule on the per-round ratios, and followed for change points like a "
      "cell. A fall is a regression of the first cell against the second; its bisection boots both cells at "
      "every commit.</p>\n<table><tr><th>status</th><th>gap</th><th>ratio tonight</th><th>vs previous night</th>"
      "<th>vs baseline</th><th>why</th><th>bisection</th></tr>\n";
  for (const auto& g : r.gaps) {
    const auto* b = r.gap_bisect(g);
    o += fmt::format(R"(<tr><td class="{0}">{0}</td><td>{1}</td><td class="num">{2}</td>{3}{4}<td>{5}</td><td>{6}</td></tr>)" "\n",
                     g.status(), h(g.name()),
                     g.tonight ? fmt::format("{:.4f} ({})", g.tonight->point.score, g.tonight->method) : std::string("-"),
                     gap_cmp_cell(g.vs_previous), gap_cmp_cell(g.vs_baseline), h(g.reason()),
                     b ? h(fmt::format("{} .. {}: {}", b->good_commit, b->bad_commit, b->state())) : std::string("-"));
  }
  return o + "</table>\n";
}

/// Where the time went, for the cells that regressed (else those whose comparison flagged a
/// time family), at most kWhereShown: the "what changed" ranking of the comparison that found it.
std::string where_the_time_went(const NightAnalysis& r) {
  constexpr std::size_t kWhereShown = 8;
  auto flagged = [](const compare::CellComparison& c) {
    if (!c.movers) return false;
    for (const auto* part : {&c.movers->rows, &c.movers->context})
      for (const auto& m : *part)
        if (m.significant && attribution::is_time(m.family)) return true;
    return false;
  };
  std::string o;
  std::size_t shown = 0;
  for (const bool regressions_only : {true, false}) {
    for (const auto& c : r.cells) {
      if (shown == kWhereShown || c.cell_id == r.control || c.regression() != regressions_only) continue;
      for (const auto* side : {&c.vs_previous, &c.vs_baseline}) {
        if (!*side || !(*side)->movers || (*side)->movers->empty()) continue;
        if (!regressions_only && !flagged(**side)) continue;
        const bool prev = side == &c.vs_previous;
        o += fmt::format("<h3>{} (against the {})</h3>\n", h(c.cell_id), prev ? "previous night" : "baseline");
        o += attribution::ranking_html(*(*side)->movers, prev ? "previous night" : "baseline", "tonight");
        if (const auto& ag = (*side)->ag_headers)
          o += "<h4>XFS AG headers</h4>\n" + attribution::ag_comparison_html(*ag, prev ? "previous night" : "baseline", "tonight");
        for (const auto& [family, tree] : (*side)->flames) {
          attribution::FlameSvgOptions fo;
          fo.base_label = prev ? "previous night" : "baseline";
          fo.new_label = "tonight";
          fo.title = fmt::format("{}: {} -> tonight, {}", attribution::family_name(family), fo.base_label, c.cell_id);
          o += fmt::format("<details><summary>differential flame graph: {}</summary>\n{}</details>\n",
                           attribution::family_name(family), attribution::flame_svg(tree, fo));
        }
        ++shown;
        break;
      }
    }
    if (shown) break;
  }
  return o.empty() ? "<p>no regression, and no time family moved significantly</p>\n" : o;
}

}  // namespace

std::string render_html(const NightAnalysis& r) {
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  o += fmt::format("<title>rlab nightly run {} ({})</title>\n<style>{}</style></head><body>\n",
                   r.run.id, h(r.run.created_at.substr(0, 10)), kCss);
  o += fmt::format("<h1>rlab nightly: run {}</h1>\n<table>\n", r.run.id);
  for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
           {"matrix", r.run.matrix_path},
           {"started / finished", r.run.created_at + " / " + (r.run.finished_at.empty() ? "-" : r.run.finished_at)},
           {"status", std::string(store::to_string(r.run.status))},
           {"host", r.run.hostname},
           {"previous night", run_text(r.previous)},
           {"baseline", run_text(r.baseline) + " (" + r.baseline_source + ")"},
           {"drift vs previous", r.drift_text("previous")},
           {"drift vs baseline", r.drift_text("baseline")},
           {"verdict", fmt::format("{} cells{}, {} regressions, {} with failed boots", r.cells.size(),
                                   r.gaps.empty() ? "" : fmt::format(", {} gap{}", r.gaps.size(), r.gaps.size() == 1 ? "" : "s"),
                                   r.regressions(), r.failed_cells())}})
    o += "<tr><th>" + h(k) + "</th><td>" + h(v) + "</td></tr>\n";
  o += "</table>\n<p class=\"note\">Also: <a href=\"summary.txt\">summary.txt</a> · "
       "<a href=\"kcidb.json\">kcidb.json</a> · <a href=\"junit.xml\">junit.xml</a></p>\n";

  o += "<h2>Cells</h2>\n<table><tr><th>status</th><th>cell</th><th>score_lpm: median ± %stddev</th><th>UnixBench index (this guest)</th><th>boots "
       "(done/failed)</th><th>vs previous night</th><th>vs baseline</th><th>why</th></tr>\n";
  for (const auto& c : r.cells)
    o += fmt::format(R"(<tr><td class="{0}">{0}</td><td>{1}</td><td class="num">{2}</td><td class="num">{9}</td>)"
                     R"(<td class="num">{3} ({4}/{5})</td>{6}{7}<td>{8}</td></tr>)" "\n",
                     c.status(), h(c.cell_id),
                     h(score_text(c)), c.boots,
                     c.done, c.failed,
                     c.cell_id == r.control ? "<td>control</td>" : cmp_cell(c.vs_previous),
                     c.cell_id == r.control ? "<td>control</td>" : cmp_cell(c.vs_baseline), h(c.reason()),
                     c.index ? fmt::format("{:.1f}", *c.index) : std::string("-"));
  o += "</table>\n";

  o += "<h2>Where the time went</h2>\n" + where_the_time_went(r);

  o += "<h2>Scores</h2>\n<div class=\"plots\">\n" + render_svg(score_chart(r)) + render_svg(ratio_chart(r));
  for (const auto& g : r.gaps) o += render_svg(gap_history_chart(g));  // beside the ratio per vCPU count
  o += "</div>\n";
  if (!r.gaps.empty()) o += gaps_table(r);

  o += fmt::format("<h2>Nightly history</h2>\n<p class=\"note\">One point per nightly run (median "
                   "over its boots); dashed lines are change points (E-Divisive means, alpha {}, "
                   "{} permutations, at least {} nights a side), red for regressions.</p>\n"
                   "<div class=\"plots\">\n",
                   r.detect.method.alpha, r.detect.method.permutations, r.detect.method.min_segment);
  for (const auto& c : r.cells) o += render_svg(history_chart(c));
  o += "</div>\n";

  if (!r.lab_notes.empty()) {
    o += "<h2>Lab</h2>\n<ul>\n";
    for (const auto& n : r.lab_notes)
      o += fmt::format("<li{}>{}</li>\n", n.find(": failed") != std::string::npos ? " class=\"ERROR\"" : "", h(n));
    o += "</ul>\n";
  }
  o += "<h2>Bisections</h2>\n";
  if (r.bisects.empty()) o += "<p>none called for</p>\n";
  else {
    o += "<table><tr><th>cell</th><th>good</th><th>bad</th><th>why</th><th>also regressed over the range</th><th>state</th></tr>\n";
    for (const auto& b : r.bisects)
      o += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       h(b.subject()), h(b.good_commit), h(b.bad_commit), h(b.why), h(fmt::format("{}", fmt::join(b.also, ", "))),
                       h(b.state()));
    o += "</table>\n";
  }
  o += "</body></html>\n";
  return o;
}

}  // namespace rlab::nightly
