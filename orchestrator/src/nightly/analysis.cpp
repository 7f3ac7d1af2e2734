#include "nightly/analysis.hpp"
#include <cmath>

#include "rlab/protocol/score.hpp"

#include "changepoint/e_divisive.hpp"
#include "store/readers.hpp"
#include "stats/descriptive.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace rlab::nightly {

std::string BisectPlan::state() const {
  if (session > 0) return fmt::format("session {} {}", session, outcome);
  return outcome.empty() ? "not started (no --tree or nightly.tree)" : outcome;
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

/// The cell's change points as of tonight: E-Divisive over the history up to and including
/// tonight's run (a report of an older night does not see the nights after it), each marked
/// new when the same history without tonight does not show it. The environment note of a
/// change point comes from `rlab detect`'s listing of the whole history (same pair of runs).
void nightly_change_points(CellOutcome& c, const changepoint::CellDetection& full,
                           const store::RunInfo& tonight, const changepoint::EDivisiveOptions& opt) {
  auto& pts = c.history.points;
  auto it = std::find_if(pts.begin(), pts.end(), [&](const auto& p) { return p.run == tonight.id; });
  const bool scored_tonight = it != pts.end();
  if (scored_tonight) pts.erase(it + 1, pts.end());
  else
    std::erase_if(pts, [&](const auto& p) { return p.created_at > tonight.created_at; });
  if (pts.size() < 2 * opt.min_segment) {
    c.history_note = fmt::format("{} nights: too short to split (needs {})", pts.size(), 2 * opt.min_segment);
    return;
  }
  std::set<RunPair> before;
  if (scored_tonight)
    for (const auto& [pair, cp] : change_points({pts.begin(), pts.end() - 1}, opt)) before.insert(pair);
  for (const auto& [pair, cp] : change_points(pts, opt)) {
    changepoint::Detection d{cp, pts[cp.index - 1], pts[cp.index], ""};
    for (const auto& f : full.detections)
      if (f.last_before.run == pair.first && f.first_after.run == pair.second)
        d.environment_change = f.environment_change;
    c.change_points.push_back({d, scored_tonight && !before.count(pair)});
  }
}

bool is_hex_commit(const std::string& s) {
  return s.size() >= 7 && s.size() <= 40 &&
         std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isxdigit(ch) != 0; });
}

/// The relative stddev of a cell's nightly medians before its newest night; 0 with fewer than 3.
double history_noise(const CellOutcome& c) {
  std::vector<double> x;
  for (const auto& p : c.history.points) x.push_back(p.score);
  if (!x.empty()) x.pop_back();
  return x.size() >= 3 ? stats::relative_stddev(x) : 0.0;
}

void plan_bisects(NightAnalysis& r) {
  // (good, bad) -> the plan; the clearest cell of a range is bisected, the rest listed.
  std::map<std::pair<std::string, std::string>, BisectPlan> by_range;
  std::vector<std::pair<std::string, std::string>> order;
  auto add = [&](const std::string& cell, const std::string& good, const std::string& bad, const std::string& why,
                 double change, double noise) {
    const double clarity = noise > 0 ? std::fabs(change) / noise : 0;
    auto [it, fresh] = by_range.try_emplace({good, bad});
    BisectPlan& b = it->second;
    if (fresh) {
      order.push_back({good, bad});
      b = {cell, good, bad, why, clarity, {}, 0, ""};
      return;
    }
    if (cell == b.cell_id || std::find(b.also.begin(), b.also.end(), cell) != b.also.end()) return;
    if (clarity > b.clarity) {
      b.also.push_back(b.cell_id);
      b.cell_id = cell;
      b.why = why;
      b.clarity = clarity;
    } else {
      b.also.push_back(cell);
    }
  };
  for (const auto& c : r.cells) {
    for (const auto& m : c.change_points)
      if (m.is_new && m.detection.regression() && m.detection.bisectable())
        add(c.cell_id, m.detection.last_before.source_commit, m.detection.first_after.source_commit,
            fmt::format("new change point between run {} and run {} ({:+.1f}%)",
                        m.detection.last_before.run, m.detection.first_after.run,
                        m.detection.change.relative_change * 100.0),
            m.detection.change.relative_change, history_noise(c));
    if (!c.vs_previous || !c.vs_previous->regression() || !r.previous) continue;
    // The previous night's commit of the cell is the history point of that run.
    for (const auto& p : c.history.points)
      if (p.run == r.previous->id && is_hex_commit(p.source_commit) &&
          is_hex_commit(c.source_commit) && p.source_commit != c.source_commit)
        add(c.cell_id, p.source_commit, c.source_commit,
            fmt::format("regression against the previous night (run {}, {:+.1f}%)", p.run,
                        c.vs_previous->result ? c.vs_previous->result->difference.relative_change * 100.0 : 0.0),
            c.vs_previous->result ? c.vs_previous->result->difference.relative_change : 0.0,
            c.vs_previous->noise.value_or(0.0));
  }
  for (const auto& k : order) r.bisects.push_back(by_range.at(k));
}

}  // namespace

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
      std::count_if(cells.begin(), cells.end(), [](const auto& c) { return c.regression(); }));
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

NightAnalysis analyse(const std::filesystem::path& db_path, store::RunId run_id,
                      const AnalyseOptions& opt) {
  // A report of a store that is not there, or an empty file, must not create one.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec) || std::filesystem::file_size(db_path, ec) == 0)
    throw UsageError(fmt::format("{}: no results store to report on", db_path.string()));
  auto st = store::Store::open(db_path);
  NightAnalysis r;
  r.db = db_path;
  auto info = st->run(run_id);
  if (!info) throw UsageError(fmt::format("{}: no run {}", db_path.string(), run_id));
  r.run = *info;
  r.previous = previous_night(*st, r.run);
  if (opt.baseline) {
    auto b = st->run(*opt.baseline);
    if (!b)
      throw UsageError(
          fmt::format("{}: no baseline run {} (see `rlab results --list`)", db_path.string(), *opt.baseline));
    if (b->id != run_id) r.baseline = b;
    r.baseline_source = "--baseline";
  } else {
    auto b = first_night(*st, r.run);
    if (b && b->id < run_id) r.baseline = b;
    r.baseline_source = "first night of the matrix";
  }
  const store::Store& db = *st;
  compare::CompareOptions copt = opt.compare;
  if (!copt.control.empty()) {
    std::vector<std::string> ids;
    for (const auto& b : st->boot_results(run_id)) ids.push_back(b.cell_id);
    r.control = copt.control = resolve_night_control(ids, copt.control);
  }
  // Drift-corrected when a control is named; a side without a scored control boot (e.g. a
  // night before the control joined the matrix) is compared uncorrected, and says why.
  auto compare_with = [&](store::RunId base, std::string& uncorrected) {
    if (copt.control.empty()) return compare::compare_runs(db, base, run_id, copt);
    try {
      return compare::compare_runs(db, base, run_id, copt);
    } catch (const UsageError& e) {
      uncorrected = e.what();
      auto plain = copt;
      plain.control.clear();
      return compare::compare_runs(db, base, run_id, plain);
    }
  };
  if (r.previous) r.vs_previous = compare_with(r.previous->id, r.vs_previous_uncorrected);
  if (r.baseline) r.vs_baseline = compare_with(r.baseline->id, r.vs_baseline_uncorrected);
  const auto prev_rows = r.vs_previous ? rows_by_cell(*r.vs_previous) : decltype(rows_by_cell({})){};
  const auto base_rows = r.vs_baseline ? rows_by_cell(*r.vs_baseline) : decltype(rows_by_cell({})){};

  r.detect = opt.detect;
  r.detect.kind = kNightlyKind;
  r.detect.selector.clear();
  std::map<std::string, changepoint::CellDetection> detections;
  for (auto& d : changepoint::detect(db, r.detect)) detections[d.history.cell_id] = std::move(d);

  std::map<std::string, const compare::BootData*> identity;
  const auto scored = store::scored_boots(db, run_id);
  for (const auto& b : scored) identity.emplace(b.cell_id, &b);

  for (const auto& b : st->boot_results(run_id)) {
    if (r.cells.empty() || r.cells.back().cell_id != b.cell_id) {
      CellOutcome c;
      c.cell_id = b.cell_id;
      c.kernel = b.kernel;
      c.patchset = b.patchset;
      c.fs = b.fs;
      c.mkfs_label = b.mkfs_label;
      c.vcpus = b.vcpus;
      c.workload = b.workload;
      c.copies = b.copies;
      c.started_at = r.run.created_at;
      c.kernel_release = b.kernel_release;
      r.cells.push_back(std::move(c));
    }
    auto& c = r.cells.back();
    ++c.boots;
    if (b.status == store::BootStatus::done && b.score) {
      ++c.done;
      c.scores.push_back(*b.score);
    } else if (b.status == store::BootStatus::failed) {
      ++c.failed;
      if (c.failure.empty()) c.failure = b.failure;
    }
  }
  for (auto& c : r.cells) {
    if (!c.scores.empty()) c.median = stats::median(c.scores);
    if (c.scores.size() >= 2 && stats::mean(c.scores) > 0) c.rel_stddev = stats::relative_stddev(c.scores);
    if (auto it = identity.find(c.cell_id); it != identity.end()) {
      c.source_commit = it->second->source_commit;
      c.kernel_release = it->second->env.kernel_release;
      c.config_sha256 = it->second->env.config_sha256;
      if (c.median) c.index = protocol::unixbench_index(it->second->env.workload, *c.median);
    }
    if (auto it = prev_rows.find(c.cell_id); it != prev_rows.end()) c.vs_previous = it->second;
    if (auto it = base_rows.find(c.cell_id); it != base_rows.end()) c.vs_baseline = it->second;
    if (auto it = detections.find(c.cell_id); it != detections.end()) {
      c.history = it->second.history;
      nightly_change_points(c, it->second, r.run, r.detect.method);
    } else {
      c.history.cell_id = c.cell_id;
      c.history_note = "no scored nightly run yet";
    }
  }
  plan_bisects(r);
  return r;
}

}  // namespace rlab::nightly
