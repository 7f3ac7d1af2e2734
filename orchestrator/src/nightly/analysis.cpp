#include "nightly/analysis.hpp"

#include "changepoint/e_divisive.hpp"
#include "results/results_table.hpp"
#include "store/readers.hpp"
#include "stats/descriptive.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace rlab::nightly {

std::string BisectPlan::state() const {
  if (session > 0) return fmt::format("session {} {}", session, outcome);
  return outcome.empty() ? "not started (no --tree or nightly.tree)" : outcome;
}

std::string BisectPlan::subject() const {
  return against_cell_id.empty() ? cell_id : cell_id + " ÷ " + against_cell_id;
}
namespace {

/// Nightly runs of the same matrix file other than `run` that have a scored boot, oldest first.
std::vector<store::RunInfo> sibling_nights(const store::Store& st, const store::RunInfo& run) {
  std::vector<store::RunInfo> out;
  for (const auto& r : st.runs())  // newest first
    if (r.id != run.id && r.kind == kNightlyKind && r.matrix_path == run.matrix_path &&
        !store::scored_boots(st, r.id).empty())
      out.push_back(r);
  std::reverse(out.begin(), out.end());
  return out;
}

/// The rows of `rep` by cell id (runs mode pairs cells by id, so either side's id will do).
std::map<std::string, compare::CellComparison> rows_by_cell(const compare::ComparisonTable& rep) {
  std::map<std::string, compare::CellComparison> out;
  for (const auto& c : rep.cells) out[c.new_cell.empty() ? c.base_cell : c.new_cell] = c;
  return out;
}

using RunPair = std::pair<std::int64_t, std::int64_t>;

/// E-Divisive change points of `pts` as (run before, run after) with their segmentation.
std::vector<std::pair<RunPair, changepoint::ChangePoint>> change_points(
    const std::vector<changepoint::HistoryPoint>& pts, const changepoint::EDivisiveOptions& opt) {
  std::vector<std::pair<RunPair, changepoint::ChangePoint>> out;
  if (pts.size() < 2 * opt.min_segment) return out;
  std::vector<double> x;
  for (const auto& p : pts) x.push_back(p.score);
  for (const auto& cp : changepoint::e_divisive(x, opt).change_points)
    out.push_back({{pts[cp.index - 1].run, pts[cp.index].run}, cp});
  return out;
}

/// Keeps the points of a history (oldest first) up to and including tonight's run: a report
/// of an older night does not see the nights after it. Returns whether tonight has a point.
template <class T, class PointOf>
bool keep_up_to_tonight(std::vector<T>& pts, const store::RunInfo& tonight, PointOf point_of) {
  auto it = std::find_if(pts.begin(), pts.end(), [&](const T& p) { return point_of(p).run == tonight.id; });
  const bool scored_tonight = it != pts.end();
  if (scored_tonight) pts.erase(it + 1, pts.end());
  else
    std::erase_if(pts, [&](const T& p) { return point_of(p).created_at > tonight.created_at; });
  return scored_tonight;
}

/// The change points of a history as of tonight (`pts` already cut after tonight): E-Divisive
/// over the points, each marked new when the same history without tonight does not show it.
/// Sets `note` instead when the history is too short to split.
void nightly_change_points(const std::vector<changepoint::HistoryPoint>& pts, bool scored_tonight,
                           const changepoint::EDivisiveOptions& opt, std::string& note,
                           std::vector<ChangeMark>& marks) {
  if (pts.size() < 2 * opt.min_segment) {
    note = fmt::format("{} nights: too short to split (needs {})", pts.size(), 2 * opt.min_segment);
    return;
  }
  std::set<RunPair> before;
  if (scored_tonight)
    for (const auto& [pair, cp] : change_points({pts.begin(), pts.end() - 1}, opt)) before.insert(pair);
  for (const auto& [pair, cp] : change_points(pts, opt)) {
    const auto& a = pts[cp.index - 1];
    const auto& b = pts[cp.index];
    marks.push_back({{cp, a, b, changepoint::environment_change(a, b)}, scored_tonight && !before.count(pair)});
  }
}

/// The cell's change points as of tonight (nightly_change_points over its history up to tonight).
void nightly_change_points(CellOutcome& c, const store::RunInfo& tonight, const changepoint::EDivisiveOptions& opt) {
  const bool scored_tonight = keep_up_to_tonight(c.history.points, tonight, [](const auto& p) -> const auto& { return p; });
  nightly_change_points(c.history.points, scored_tonight, opt, c.history_note, c.change_points);
}

bool is_hex_commit(const std::string& s) {
  return s.size() >= 7 && s.size() <= 40 &&
         std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isxdigit(ch) != 0; });
}

/// The relative stddev of a history's nightly values before its newest night; 0 with fewer than 3.
double history_noise(const std::vector<changepoint::HistoryPoint>& pts) {
  std::vector<double> x;
  for (const auto& p : pts) x.push_back(p.score);
  if (!x.empty()) x.pop_back();
  return x.size() >= 3 ? stats::relative_stddev(x) : 0.0;
}

/// The plans of one kind (cells, or gaps) by commit range: the clearest subject of a range is
/// bisected, the others listed under it.
class RangePlans {
 public:
  /// `cell`/`against`: the subject (against "" for a cell); `change` relative, `noise` the
  /// subject's relative noise (0: unknown).
  void add(const std::string& cell, const std::string& against, const std::string& good, const std::string& bad,
           const std::string& why, double change, double noise) {
    const double clarity = noise > 0 ? std::fabs(change) / noise : 0;
    auto [it, fresh] = by_range_.try_emplace({good, bad});
    BisectPlan& b = it->second;
    BisectPlan next;
    next.cell_id = cell;
    next.against_cell_id = against;
    next.good_commit = good;
    next.bad_commit = bad;
    next.why = why;
    next.clarity = clarity;
    if (fresh) {
      order_.push_back({good, bad});
      b = next;
      return;
    }
    const std::string subject = next.subject();
    if (subject == b.subject() || std::find(b.also.begin(), b.also.end(), subject) != b.also.end()) return;
    if (clarity > b.clarity) {
      next.also = std::move(b.also);
      next.also.push_back(b.subject());
      b = std::move(next);
    } else {
      b.also.push_back(subject);
    }
  }
  void append_to(std::vector<BisectPlan>& out) const {
    for (const auto& k : order_) out.push_back(by_range_.at(k));
  }

 private:
  std::map<std::pair<std::string, std::string>, BisectPlan> by_range_;
  std::vector<std::pair<std::string, std::string>> order_;
};

/// The plans of a history's new regression change points between two commits.
void plan_change_points(RangePlans& plans, const std::string& cell, const std::string& against,
                        const std::vector<ChangeMark>& marks, double noise) {
  for (const auto& m : marks)
    if (m.is_new && m.detection.regression() && m.detection.bisectable())
      plans.add(cell, against, m.detection.last_before.source_commit, m.detection.first_after.source_commit,
                fmt::format("new change point between run {} and run {} ({:+.1f}%)", m.detection.last_before.run,
                            m.detection.first_after.run, m.detection.change.relative_change * 100.0),
                m.detection.change.relative_change, noise);
}

void plan_bisects(NightAnalysis& r) {
  RangePlans cell_plans, gap_plans;  // a gap's plan is never merged with a cell's of the same range
  for (const auto& c : r.cells) {
    plan_change_points(cell_plans, c.cell_id, "", c.change_points, history_noise(c.history.points));
    if (!c.vs_previous || !c.vs_previous->regression() || !r.previous) continue;
    // The previous night's commit of the cell is the history point of that run.
    for (const auto& p : c.history.points)
      if (p.run == r.previous->id && is_hex_commit(p.source_commit) &&
          is_hex_commit(c.source_commit) && p.source_commit != c.source_commit)
        cell_plans.add(c.cell_id, "", p.source_commit, c.source_commit,
                  fmt::format("regression against the previous night (run {}, {:+.1f}%)", p.run,
                              c.vs_previous->result ? c.vs_previous->result->difference.relative_change * 100.0 : 0.0),
                  c.vs_previous->result ? c.vs_previous->result->difference.relative_change : 0.0,
                  c.vs_previous->noise.value_or(0.0));
  }
  for (const auto& g : r.gaps) {
    plan_change_points(gap_plans, g.cell_id, g.against_cell_id, g.change_points, history_noise(g.history.points));
    if (!g.tonight || !g.vs_previous || !g.vs_previous->regression() || !r.previous) continue;
    const std::string& bad = g.tonight->point.source_commit;
    for (const auto& n : g.nights)
      if (n.point.run == r.previous->id && is_hex_commit(n.point.source_commit) && is_hex_commit(bad) &&
          n.point.source_commit != bad) {
        const auto& d = g.vs_previous->result->difference;
        gap_plans.add(g.cell_id, g.against_cell_id, n.point.source_commit, bad,
                 fmt::format("gap regression against the previous night (run {}, ratio {:.3f} -> {:.3f}, {:+.1f}%)",
                             n.point.run, d.median_a, d.median_b, d.relative_change * 100.0),
                 d.relative_change, g.vs_previous->result->a.relative_stddev);
      }
  }
  cell_plans.append_to(r.bisects);
  gap_plans.append_to(r.bisects);
}

/// One cell's scored boots in one run: (repeat, lpm), by repeat.
using RoundScores = std::vector<std::pair<unsigned, double>>;

/// The ratio of a's scores over b's in one run: per round where both have a positive score
/// ("paired"), else the ratio of their medians ("medians"); nullopt when either has no score
/// or b's median is not positive.
std::optional<GapNight> gap_night(const RoundScores& a, const RoundScores& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  GapNight n;
  n.boots = a.size();
  n.against_boots = b.size();
  for (const auto& [ra, sa] : a)
    for (const auto& [rb, sb] : b)
      if (ra == rb && sa > 0 && sb > 0) n.ratios.push_back(sa / sb);
  if (!n.ratios.empty()) {
    n.method = "paired";
    n.point.score = stats::median(n.ratios);
    n.point.boots = n.ratios.size();
    return n;
  }
  std::vector<double> xa, xb;
  for (const auto& p : a) xa.push_back(p.second);
  for (const auto& p : b) xb.push_back(p.second);
  const double mb = stats::median(xb);
  if (!(mb > 0)) return std::nullopt;
  n.method = "medians";
  n.point.score = stats::median(xa) / mb;
  n.point.boots = std::min(a.size(), b.size());
  return n;
}

/// Tonight's ratios against another run's (the verdict rule on the per-round ratios).
GapComparison compare_gap(const std::optional<GapNight>& base, store::RunId base_run, const GapNight& tonight,
                          const stats::VerdictOptions& opt, store::RunId tonight_run) {
  GapComparison c;
  c.base_run = base_run;
  if (!base) {
    c.note = fmt::format("run {} has no score of one of the two cells", base_run);
  } else if (base->ratios.empty() || tonight.ratios.empty()) {
    c.note = fmt::format("run {} has no round with both cells scored", base->ratios.empty() ? base_run : tonight_run);
  } else {
    try {
      c.result = stats::compare(base->ratios, tonight.ratios, opt);
    } catch (const std::invalid_argument& e) {
      c.note = e.what();
    }
  }
  return c;
}

/// The scores of `cell` in run `run` by round.
RoundScores round_scores(const std::vector<compare::BootData>& boots, const std::string& cell) {
  RoundScores out;
  for (const auto& b : boots)
    if (b.cell_id == cell) out.emplace_back(b.repeat, b.score);
  return out;
}

/// Each gap of `gaps` tonight and over its history: ratio, change points, comparisons.
void analyse_gaps(NightAnalysis& r, const store::Store& db, const std::vector<matrix::Gap>& gaps,
                  const stats::VerdictOptions& verdict, const std::vector<compare::BootData>& tonight_boots) {
  std::vector<compare::BootData> baseline_boots;
  if (r.baseline && !gaps.empty()) baseline_boots = store::scored_boots(db, r.baseline->id);
  for (const auto& gap : gaps) {
    GapOutcome g;
    g.cell_id = gap.cell_id;
    g.against_cell_id = gap.against_cell_id;
    g.kernel = g.cell_id.substr(0, g.cell_id.find('/'));
    for (const auto& c : r.cells)
      if (c.cell_id == g.cell_id) g.kernel = c.kernel;
    g.history.cell_id = g.name();
    g.nights = gap_history(db, g.cell_id, g.against_cell_id, kNightlyKind);
    const bool scored_tonight = keep_up_to_tonight(g.nights, r.run, [](const GapNight& n) -> const auto& { return n.point; });
    for (const auto& n : g.nights) g.history.points.push_back(n.point);
    if (scored_tonight) {
      g.tonight = g.nights.back();
    } else {
      // Tonight's run may not be nightly (--run of another kind): its ratio from its own boots.
      auto n = gap_night(round_scores(tonight_boots, g.cell_id), round_scores(tonight_boots, g.against_cell_id));
      if (n) {
        n->point.run = r.run.id;
        n->point.created_at = r.run.created_at;
        g.tonight = std::move(n);
      } else {
        for (const auto* id : {&g.cell_id, &g.against_cell_id})
          if (g.note.empty() && round_scores(tonight_boots, *id).empty())
            g.note = fmt::format("no ratio tonight: {} has no scored boot in run {}", *id, r.run.id);
        if (g.note.empty()) g.note = "no ratio tonight: the second cell's median is 0";
      }
    }
    nightly_change_points(g.history.points, scored_tonight, r.detect.method, g.history_note, g.change_points);
    if (g.tonight && r.previous) {
      std::optional<GapNight> prev;
      for (const auto& n : g.nights)
        if (n.point.run == r.previous->id) prev = n;
      g.vs_previous = compare_gap(prev, r.previous->id, *g.tonight, verdict, r.run.id);
    }
    if (g.tonight && r.baseline)
      g.vs_baseline = compare_gap(gap_night(round_scores(baseline_boots, g.cell_id),
                                            round_scores(baseline_boots, g.against_cell_id)),
                                  r.baseline->id, *g.tonight, verdict, r.run.id);
    r.gaps.push_back(std::move(g));
  }
}

}  // namespace

std::vector<GapNight> gap_history(const store::Store& st, const std::string& cell_id,
                                  const std::string& against_cell_id, const std::string& kind) {
  // Each run's boots of either cell, in the history's order (by start, then id).
  struct Run {
    store::HistoryBoot first;  ///< the first cell's first scored boot (kernel, environment)
    bool has_first = false;
    RoundScores a, b;
  };
  std::map<store::RunId, Run> runs;
  std::vector<store::RunId> order;
  for (auto& h : store::cell_history(st, cell_id, kind)) {
    auto [it, fresh] = runs.try_emplace(h.run);
    if (fresh) order.push_back(h.run);
    if (!it->second.has_first) {
      it->second.first = h;
      it->second.has_first = true;
    }
    it->second.a.emplace_back(h.repeat, h.score);
  }
  for (const auto& h : store::cell_history(st, against_cell_id, kind))
    if (auto it = runs.find(h.run); it != runs.end()) it->second.b.emplace_back(h.repeat, h.score);
  std::vector<GapNight> out;
  for (const auto id : order) {
    const Run& run = runs.at(id);
    auto n = gap_night(run.a, run.b);
    if (!n) continue;
    n->point.run = id;
    n->point.created_at = run.first.created_at;
    n->point.kernel_release = run.first.kernel_release;
    n->point.source_commit = run.first.source_commit;
    n->point.env = run.first.env;
    out.push_back(std::move(*n));
  }
  return out;
}

bool GapComparison::regression() const {
  return result && result->verdict == stats::Verdict::different && result->difference.relative_change < 0;
}

std::string GapOutcome::name() const { return cell_id + " ÷ " + against_cell_id; }

bool GapOutcome::regression() const {
  if (vs_previous && vs_previous->regression()) return true;
  if (vs_baseline && vs_baseline->regression()) return true;
  return std::any_of(change_points.begin(), change_points.end(),
                     [](const ChangeMark& m) { return m.is_new && m.detection.regression(); });
}

std::string GapOutcome::status() const {
  if (regression()) return "FAIL";
  if (!tonight) return "ERROR";
  return "PASS";
}

std::string GapOutcome::reason() const {
  std::vector<std::string> why;
  auto pct = [](const GapComparison& c) {
    const auto& d = c.result->difference;
    return fmt::format("ratio {:.3f} -> {:.3f}, {:+.1f}%, p {:.2g}", d.median_a, d.median_b, d.relative_change * 100.0,
                       d.p_min);
  };
  if (vs_previous && vs_previous->regression())
    why.push_back("gap regression against the previous night (" + pct(*vs_previous) + ")");
  if (vs_baseline && vs_baseline->regression())
    why.push_back("gap regression against the baseline (" + pct(*vs_baseline) + ")");
  for (const auto& m : change_points)
    if (m.is_new && m.detection.regression())
      why.push_back(fmt::format("new change point of the ratio {:+.1f}% ({:.3f} -> {:.3f}) between run {} and run {}",
                                m.detection.change.relative_change * 100.0, m.detection.change.mean_before,
                                m.detection.change.mean_after, m.detection.last_before.run,
                                m.detection.first_after.run));
  if (!tonight) why.push_back(note);
  std::string out;
  for (const auto& w : why) out += (out.empty() ? "" : "; ") + w;
  return out;
}

bool CellOutcome::regression() const {
  if (vs_previous && vs_previous->regression()) return true;
  if (vs_baseline && vs_baseline->regression()) return true;
  return std::any_of(change_points.begin(), change_points.end(),
                     [](const ChangeMark& m) { return m.is_new && m.detection.regression(); });
}

std::string CellOutcome::status() const {
  if (regression()) return "FAIL";
  if (failed_cell()) return "ERROR";
  return "PASS";
}

std::string CellOutcome::reason() const {
  std::vector<std::string> why;
  auto pct = [](const compare::CellComparison& c) {
    return c.result ? fmt::format("{:+.1f}%, p {:.2g}", c.result->difference.relative_change * 100.0, c.result->difference.p_min)
                    : std::string("?");
  };
  if (vs_previous && vs_previous->regression())
    why.push_back("regression against the previous night (" + pct(*vs_previous) + ")");
  if (vs_baseline && vs_baseline->regression())
    why.push_back("regression against the baseline (" + pct(*vs_baseline) + ")");
  for (const auto& m : change_points)
    if (m.is_new && m.detection.regression())
      why.push_back(fmt::format("new change point {:+.1f}% between run {} and run {}",
                                m.detection.change.relative_change * 100.0,
                                m.detection.last_before.run, m.detection.first_after.run));
  if (failed_cell())
    why.push_back(fmt::format("{} of {} boots failed{}", failed, boots,
                              failure.empty() ? "" : ": " + failure));
  std::string out;
  for (const auto& w : why) out += (out.empty() ? "" : "; ") + w;
  return out;
}

std::size_t NightAnalysis::regressions() const {
  return static_cast<std::size_t>(
      std::count_if(cells.begin(), cells.end(), [](const auto& c) { return c.regression(); }) +
      std::count_if(gaps.begin(), gaps.end(), [](const auto& g) { return g.regression(); }));
}

const BisectPlan* NightAnalysis::gap_bisect(const GapOutcome& g) const {
  for (const auto& b : bisects)
    if (b.cell_id == g.cell_id && b.against_cell_id == g.against_cell_id) return &b;
  for (const auto& b : bisects)
    if (!b.against_cell_id.empty() && std::find(b.also.begin(), b.also.end(), g.name()) != b.also.end()) return &b;
  return nullptr;
}

std::size_t NightAnalysis::failed_cells() const {
  return static_cast<std::size_t>(
      std::count_if(cells.begin(), cells.end(), [](const auto& c) { return c.failed_cell(); }));
}

std::string NightAnalysis::drift_text(std::string_view which) const {
  const bool prev = which == "previous";
  const auto& rep = prev ? vs_previous : vs_baseline;
  const auto& why = prev ? vs_previous_uncorrected : vs_baseline_uncorrected;
  if (!rep) return "no comparison";
  if (rep->drift) {
    const auto& d = *rep->drift;
    return fmt::format("drift-corrected against control {} (control mean {:.2f} -> {:.2f} lpm, {:+.1f}%: "
                       "the host's drift{})",
                       d.control, d.base_control_mean, d.new_control_mean,
                       d.base_control_mean > 0 ? (d.new_control_mean / d.base_control_mean - 1) * 100.0 : 0.0,
                       d.dropped ? fmt::format("; {} boots without a control boot left out", d.dropped) : "");
  }
  if (!why.empty()) return "not drift-corrected: " + why;
  return "not drift-corrected (no control cell: --control or the matrix's control:)";
}

std::string resolve_night_control(const std::vector<std::string>& cell_ids, const std::string& selector) {
  try {
    return matrix::select_cell_id(cell_ids, selector);
  } catch (const UsageError& e) {
    throw UsageError(std::string("--control: ") + e.what());
  }
}

std::string NightAnalysis::dir_name() const {
  return fmt::format("{}-run{}", run.created_at.substr(0, 10), run.id);
}

std::optional<store::RunInfo> previous_night(const store::Store& st, const store::RunInfo& run) {
  std::optional<store::RunInfo> out;
  for (const auto& r : sibling_nights(st, run))
    if (r.id < run.id) out = r;  // oldest first: the last one before tonight wins
  return out;
}

std::optional<store::RunInfo> first_night(const store::Store& st, const store::RunInfo& run) {
  auto nights = sibling_nights(st, run);
  if (nights.empty()) return std::nullopt;
  return nights.front();
}

namespace {

/// The store at `db_path`, opened only when it is a non-empty file (a report must not create
/// one). Throws UsageError.
std::unique_ptr<store::Store> open_night_store(const std::filesystem::path& db_path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec) || std::filesystem::file_size(db_path, ec) == 0)
    throw UsageError(fmt::format("{}: no results store to report on", db_path.string()));
  return store::Store::open(db_path);
}

/// The night `run_id`, the night before it and its baseline (`--baseline`, else the matrix's
/// first night). Throws UsageError for an unknown run or baseline.
void pick_nights(const store::Store& st, const std::filesystem::path& db_path, store::RunId run_id,
                 const AnalyseOptions& opt, NightAnalysis& r) {
  auto info = st.run(run_id);
  if (!info) throw UsageError(fmt::format("{}: no run {}", db_path.string(), run_id));
  r.run = *info;
  r.previous = previous_night(st, r.run);
  if (opt.baseline) {
    auto b = st.run(*opt.baseline);
    if (!b)
      throw UsageError(
          fmt::format("{}: no baseline run {} (see `rlab results --list`)", db_path.string(), *opt.baseline));
    if (b->id != run_id) r.baseline = b;
    r.baseline_source = "--baseline";
  } else {
    auto b = first_night(st, r.run);
    if (b && b->id < run_id) r.baseline = b;
    r.baseline_source = "first night of the matrix";
  }
}

/// Tonight against the previous night and the baseline, drift-corrected when a control is named
/// (resolved against tonight's cells into r.control). A side without a scored control boot
/// (e.g. a night before the control joined the matrix) is compared uncorrected, and says why.
void compare_nights(const store::Store& st, const AnalyseOptions& opt, NightAnalysis& r) {
  compare::CompareOptions copt = opt.compare;
  if (!copt.control.empty()) {
    std::vector<std::string> ids;
    for (const auto& b : st.boot_results(r.run.id)) ids.push_back(b.cell_id);
    r.control = copt.control = resolve_night_control(ids, copt.control);
  }
  auto compare_with = [&](store::RunId base, std::string& uncorrected) {
    if (copt.control.empty()) return compare::compare_runs(st, base, r.run.id, copt);
    try {
      return compare::compare_runs(st, base, r.run.id, copt);
    } catch (const UsageError& e) {
      uncorrected = e.what();
      auto plain = copt;
      plain.control.clear();
      return compare::compare_runs(st, base, r.run.id, plain);
    }
  };
  if (r.previous) r.vs_previous = compare_with(r.previous->id, r.vs_previous_uncorrected);
  if (r.baseline) r.vs_baseline = compare_with(r.baseline->id, r.vs_baseline_uncorrected);
}

/// Tonight's cells in the store's cell order, grouped and scored by results::summarize (boots,
/// done, failed, scores, median, relative stddev, index), with the first failure's message.
std::vector<CellOutcome> night_cells(const store::Store& st, const store::RunInfo& run) {
  const auto boots = st.boot_results(run.id);
  std::map<std::string, results::CellSummary> summaries;
  for (auto& c : results::summarize(run, boots).cells) summaries.emplace(c.cell_id, std::move(c));
  std::vector<CellOutcome> cells;
  for (const auto& b : boots) {
    if (!cells.empty() && cells.back().cell_id == b.cell_id) {
      if (cells.back().failure.empty() && b.status == store::BootStatus::failed) cells.back().failure = b.failure;
      continue;
    }
    const auto& s = summaries.at(b.cell_id);
    CellOutcome c;  // the summary's fields, then the boot's and the run's
    std::tie(c.cell_id, c.kernel, c.fs, c.mkfs_label, c.vcpus, c.workload, c.copies) =
        std::tie(s.cell_id, s.kernel, s.fs, s.mkfs_label, s.vcpus, s.workload, s.copies);
    std::tie(c.boots, c.done, c.failed, c.scores, c.median, c.rel_stddev, c.index) =
        std::tie(s.boots, s.done, s.failed, s.scores, s.median, s.rel_stddev, s.index);
    c.patchset = b.patchset;
    if (b.status == store::BootStatus::failed) c.failure = b.failure;
    c.kernel_release = b.kernel_release;
    c.started_at = run.created_at;
    cells.push_back(std::move(c));
  }
  return cells;
}

/// Each cell's kernel identity (from its first of tonight's `scored` boots), its rows of
/// tonight's two comparisons, and its nightly history with the change points found in it.
void annotate_cells(const store::Store& st, const std::vector<compare::BootData>& scored, NightAnalysis& r) {
  std::map<std::string, changepoint::CellDetection> detections;
  for (auto& d : changepoint::detect(st, r.detect)) detections[d.history.cell_id] = std::move(d);
  std::map<std::string, const compare::BootData*> identity;
  for (const auto& b : scored) identity.emplace(b.cell_id, &b);
  const auto prev_rows = r.vs_previous ? rows_by_cell(*r.vs_previous) : decltype(rows_by_cell({})){};
  const auto base_rows = r.vs_baseline ? rows_by_cell(*r.vs_baseline) : decltype(rows_by_cell({})){};
  for (auto& c : r.cells) {
    if (auto it = identity.find(c.cell_id); it != identity.end()) {
      c.source_commit = it->second->source_commit;
      c.kernel_release = it->second->env.kernel_release;
      c.config_sha256 = it->second->env.config_sha256;
    }
    if (auto it = prev_rows.find(c.cell_id); it != prev_rows.end()) c.vs_previous = it->second;
    if (auto it = base_rows.find(c.cell_id); it != base_rows.end()) c.vs_baseline = it->second;
    if (auto it = detections.find(c.cell_id); it != detections.end()) {
      c.history = it->second.history;
      nightly_change_points(c, r.run, r.detect.method);
    } else {
      c.history.cell_id = c.cell_id;
      c.history_note = "no scored nightly run yet";
    }
  }
}

}  // namespace

NightAnalysis analyse(const std::filesystem::path& db_path, store::RunId run_id,
                      const AnalyseOptions& opt) {
  const auto st = open_night_store(db_path);
  NightAnalysis r;
  r.db = db_path;
  pick_nights(*st, db_path, run_id, opt, r);
  compare_nights(*st, opt, r);
  r.detect = opt.detect;
  r.detect.kind = kNightlyKind;
  r.detect.selector.clear();
  r.cells = night_cells(*st, r.run);
  const auto scored = store::scored_boots(*st, run_id);
  annotate_cells(*st, scored, r);
  analyse_gaps(r, *st, opt.gaps, opt.compare.verdict, scored);
  plan_bisects(r);
  return r;
}

}  // namespace rlab::nightly
