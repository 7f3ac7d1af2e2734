#include "nightly/night.hpp"
#include "store/readers.hpp"

#include "kernel_bisect/culprit.hpp"
#include "kernel_bisect/driver.hpp"
#include "kernel_bisect/vm_lab.hpp"
#include "matrix/matrix.hpp"
#include "metrics/push.hpp"
#include "nightly/fetch.hpp"
#include "nightly/remeasure.hpp"
#include "nightly/report_dirs.hpp"
#include "run/boot.hpp"
#include "run/estimate.hpp"
#include "run/interrupts.hpp"
#include "run/run_dir.hpp"
#include "util/process.hpp"
#include "util/usage_error.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>

namespace rlab::nightly {
namespace fs = std::filesystem;
namespace bd = rlab::kernel_bisect;

namespace {

/// The reports' line for a driven session: its status, culprit and what the checks say.
std::string outcome_of(const bd::Session& s) {
  if (bd::unfinished(s.status))
    return "waiting: the night's bisection time is spent; the next night resumes it";
  std::string o = std::string(bd::state_name(s.status)) + (s.first_bad.empty() ? "" : ": first bad commit " + s.first_bad);
  if (const auto checks = bd::checks_from_json(s.checks_json); checks && checks->suspicious())
    o += " (SUSPICIOUS: " + checks->suspicion() + ")";
  else if (checks && checks->revert && checks->revert->result == bisection::StepResult::good)
    o += " (confirmed: reverting it removes the regression)";
  return o;
}

/// Whether two SHAs name the same commit (either may be abbreviated).
bool same_commit(const std::string& a, const std::string& b) {
  return !a.empty() && !b.empty() && (a.rfind(b, 0) == 0 || b.rfind(a, 0) == 0);
}

/// Tonight's bisections: the unfinished sessions of earlier nights of this matrix first, then
/// the new ranges tonight calls for (a range a session already has for the same subject is not
/// started twice; a gap's session and a cell's of the same range are different subjects).
void gather_bisects(NightAnalysis& r, const bd::SessionDb& db) {
  std::vector<BisectPlan> all;
  for (const auto id : db.unfinished(r.run.matrix_path)) {
    const auto s = db.get(id);
    BisectPlan p;
    p.cell_id = s->spec.cell_id;
    p.against_cell_id = s->spec.against_cell_id;
    p.good_commit = s->spec.good_commit;
    p.bad_commit = s->spec.bad_commit;
    p.why = "unfinished from an earlier night";
    p.session = id;
    all.push_back(std::move(p));
  }
  for (auto& b : r.bisects) {
    const bool known = std::any_of(all.begin(), all.end(), [&](const BisectPlan& p) {
      return p.cell_id == b.cell_id && p.against_cell_id == b.against_cell_id &&
             same_commit(p.good_commit, b.good_commit) && same_commit(p.bad_commit, b.bad_commit);
    });
    if (!known) all.push_back(std::move(b));
  }
  r.bisects = std::move(all);
}

/// Drives tonight's bisections one after another within `minutes` (0: no limit): a session
/// still running at the deadline stops between steps, the ones after it wait; both resume the
/// next night. A failure of one is its outcome, not the night's.
void start_bisects(NightOutcome& out, const fs::path& tree, double minutes, const NightOptions& o,
                   const Say& say) {
  auto& r = out.analysis;
  if (!util::run({"git", "-C", tree.string(), "rev-parse", "--git-dir"}).ok()) {
    const std::string why = tree.string() + " is not a git repository";
    r.lab_notes.push_back("bisections: failed: " + why);
    for (auto& b : r.bisects) b.outcome = "not started: " + why;
    out.bisect_errors += r.bisects.size();
    say("bisections not started: " + why);
    return;
  }
  bd::SessionDb db(r.db);
  gather_bisects(r, db);
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (minutes > 0)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(minutes * 60));
  for (auto& b : r.bisects) {
    if (run::Interrupts::instance().stopped()) break;
    try {
      if (b.session == 0) {
        bd::StartOptions so;
        so.tree = tree;
        so.good = b.good_commit;
        so.bad = b.bad_commit;
        so.cell = b.cell_id;
        so.against = b.against_cell_id;  // "" for a cell; a gap bisects the ratio
        so.matrix = r.run.matrix_path;
        b.session = bd::create_session(db, so);
        say(fmt::format("bisect session {}: {} between {} and {} ({})", b.session, b.subject(),
                        b.good_commit, b.bad_commit, b.why));
      }
      auto stored = *db.get(b.session);
      if (deadline && std::chrono::steady_clock::now() >= *deadline) {
        b.outcome = outcome_of(stored);
      } else {
        bd::VmLab lab(db, stored, o.agent, [&](std::string_view l) { say(l); });
        b.outcome = outcome_of(bd::drive(db, b.session, lab, false, [&](std::string_view l) { say(l); }, deadline));
      }
    } catch (const std::exception& e) {
      b.outcome = std::string("not finished: ") + e.what();
      ++out.bisect_errors;
    }
    say(fmt::format("bisect of {}: {}", b.subject(), b.outcome));
  }
}

/// What the night resolves before it boots: the matrix and the options it fills in.
struct Setup {
  std::optional<matrix::Matrix> m;  ///< nullopt with report_only (nothing boots)
  fs::path db;
  fs::path tree;                    ///< --tree, else nightly.tree ("" none)
  std::string push_url;             ///< --push, else push: ("" none)
  AnalyseOptions analyse;           ///< with --control, else the matrix's control:; the matrix's gaps:
  double bisect_minutes = 0;        ///< nightly.bisect_minutes (0: no limit)
  unsigned keep_reports = 400;      ///< nightly.keep_reports
  unsigned thin_after_days = 90;    ///< nightly.thin_after_days
};

/// Loads and checks everything a night needs before anything boots. Throws UsageError,
/// matrix::MatrixError and metrics::PushUrlError (run_night's contract).
Setup setup(const NightOptions& o) {
  Setup s;
  s.analyse = o.analyse;
  s.tree = o.tree.empty() ? fs::path() : fs::absolute(o.tree);
  s.push_url = o.push;
  matrix::LoadOptions lo;
  lo.check_paths = !o.report_only;
  const matrix::Matrix m = matrix::load_matrix(o.matrix, lo);
  if (s.tree.empty()) s.tree = m.nightly.tree;
  s.bisect_minutes = m.nightly.bisect_minutes;
  s.keep_reports = m.nightly.keep_reports;
  s.thin_after_days = m.nightly.thin_after_days;
  s.db = matrix::store_path(o.db, o.matrix);
  if (o.report_only) {
    if (!fs::exists(s.db)) throw UsageError(s.db.string() + ": no results store");
  } else {
    if (s.push_url.empty()) s.push_url = m.push_url.value_or("");
    if (!o.analyse.compare.control.empty()) {  // refuse a control that is no single cell before booting
      std::vector<std::string> ids;
      for (const auto& c : matrix::expand_cells(m)) ids.push_back(c.id);
      resolve_night_control(ids, o.analyse.compare.control);
    }
    if (!s.push_url.empty()) metrics::parse_push_url(s.push_url);  // refuse a bad URL before booting
    if (o.analyse.baseline && (!fs::exists(s.db) || !store::Store::open(s.db)->run(*o.analyse.baseline)))
      throw UsageError(fmt::format("{}: no baseline run {}", s.db.string(), *o.analyse.baseline));
    s.m = m;
  }
  // --control, else the matrix's `control:` (validated when the matrix was loaded).
  if (s.analyse.compare.control.empty() && m.control) s.analyse.compare.control = *m.control;
  s.analyse.gaps = m.gaps;  // the matrix's `gaps:` (the matrix of --run too: it names the series)
  return s;
}

/// Re-measures what the night could not decide (remeasure.hpp) within nightly.remeasure_minutes:
/// rounds of added boots, each booted through run --resume's path and followed by a new
/// analysis, until nothing is left to do or to fit. Says and notes each round.
void remeasure(NightOutcome& out, const Setup& s, const NightOptions& o, run::Progress& progress,
               std::vector<std::string>& notes, const Say& say) {
  const matrix::Matrix& m = *s.m;
  const double budget_s = m.nightly.remeasure_minutes * 60.0;
  if (budget_s <= 0) return;
  // For the estimate: KVM when any of tonight's boots ran under it (each host resolves its own).
  vm::Accel accel = vm::Accel::kTcg;
  for (const auto& b : store::scored_boots(*store::Store::open(s.db), out.run->run))
    if (b.env.accel == "kvm") {
      accel = vm::Accel::kKvm;
      break;
    }
  unsigned vcpus = 0;
  for (const auto& h : m.hosts) vcpus += h.vcpu_budget;
  std::map<std::string, matrix::Cell> cells;
  for (auto& c : matrix::expand_cells(m)) cells.emplace(c.id, c);
  const BootsEstimate estimate = [&](const std::vector<std::pair<std::string, unsigned>>& boots) {
    std::vector<const matrix::Cell*> list;
    for (const auto& [id, n] : boots)
      for (unsigned k = 0; k < n; ++k) list.push_back(&cells.at(id));
    return run::boots_estimate_s(list, accel, vcpus);
  };
  const auto t0 = std::chrono::steady_clock::now();
  RemeasurePlan plan;
  for (unsigned round = 1;; ++round) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    plan = plan_remeasure(out.analysis, budget_s - spent, estimate);
    if (plan.boots.empty()) break;
    std::size_t boots = 0;
    for (const auto& b : plan.boots) boots += b.second;
    store::Store::open(s.db)->add_repeats(out.run->run, plan.boots);
    say(fmt::format("re-measuring {} cells: {} more boots, about {:.0f} s", plan.boots.size(), boots,
                    plan.estimate_s));
    run::RunOptions ro;
    ro.matrix = o.matrix;
    ro.db = s.db;
    ro.agent_binary = o.agent;
    ro.resume = out.run->run;
    const run::RunSummary sum = run::execute(ro, progress);
    notes.push_back(fmt::format("re-measure round {}: {} more boots of {} cells ({} done, {} failed) in {:.0f} s",
                                round, boots, plan.boots.size(), sum.done, sum.failed, sum.wall_s));
    if (sum.interrupted) {
      out.interrupted = true;
      return;
    }
    out.analysis = analyse(s.db, out.run->run, s.analyse);
  }
  for (const auto& c : plan.cannot) notes.push_back("still unknown: " + c);
}

/// Pushes run `run` of `db` to `url`, counting failures into `out` (the store keeps everything).
void push(NightOutcome& out, const fs::path& db, store::RunId run, const std::string& url, const Say& say) {
  try {
    auto st = store::Store::open(db);
    const auto p = metrics::push_run(*st, run, url);
    for (const auto& e : p.errors) say("push to " + url + ": " + e);
    out.push_errors = p.errors.size();
    if (p.ok()) say(fmt::format("pushed {} groups to {}", p.groups_pushed, url));
  } catch (const std::exception& e) {
    say("push to " + url + ": " + e.what());
    out.push_errors = 1;
  }
}

/// Thins the runs of `db` that finished more than `days` days ago: their samples (Store::thin,
/// with VACUUM) and run directories (run::remove_run_dirs). Says what went. Never throws: a
/// night's results are in by now, and what is not thinned tonight is thinned the next night.
void thin_old_runs(const fs::path& db, unsigned days, const Say& say) {
  try {
    const auto cutoff = std::chrono::system_clock::now() - std::chrono::hours(24) * days;
    const auto iso = fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(cutoff)));
    const auto t = store::Store::open(db)->thin(iso);
    const auto dirs = run::remove_run_dirs(db, t.old_runs);
    if (t.samples_deleted > 0 || dirs > 0)
      say(fmt::format("thinned the runs finished before {} (nightly.thin_after_days {}): {} samples deleted{}, "
                      "{} run directories removed",
                      iso, days, t.samples_deleted, t.vacuumed ? " and the store vacuumed" : "", dirs));
    if (!t.vacuum_error.empty())
      say(fmt::format("{}: VACUUM after thinning failed: {} (the samples are gone; the file shrinks at the next "
                      "night's VACUUM)", db.string(), t.vacuum_error));
  } catch (const std::exception& e) {
    say(fmt::format("thinning {}: {} (nothing thinned tonight)", db.string(), e.what()));
  }
}

}  // namespace

NightOutcome run_night(const NightOptions& o, run::Progress& progress, const Say& say_in) {
  const Say say = say_in ? say_in : [](std::string_view) {};
  NightOutcome out;
  const Setup s = setup(o);
  store::RunId run_id = o.report_only.value_or(0);
  std::vector<std::string> notes;  // the fetches and re-measure rounds
  if (s.m) {
    for (const auto& f : fetch_remotes(*s.m, s.tree)) {
      notes.push_back(describe(f));
      say(notes.back());
      if (!f.ok) ++out.fetch_errors;
    }
    run::RunOptions ro;
    ro.matrix = o.matrix;
    ro.db = o.db;
    ro.agent_binary = o.agent;
    ro.kind = kNightlyKind;
    out.run = run::execute(ro, progress);
    run_id = out.run->run;
    out.interrupted = out.run->interrupted;
    if (!out.interrupted) {
      out.analysis = analyse(s.db, run_id, s.analyse);
      remeasure(out, s, o, progress, notes, say);
    }
    if (out.interrupted) {
      out.analysis.run.id = run_id;
      return out;
    }
  } else {
    out.analysis = analyse(s.db, run_id, s.analyse);
  }
  out.analysis.lab_notes = std::move(notes);
  const fs::path root = o.out.empty() ? s.db.parent_path() / "reports" : o.out;
  out.report_dir = write_reports(out.analysis, root);
  say(fmt::format("reports of run {} in {}", run_id, out.report_dir.string()));
  if (!s.push_url.empty()) push(out, s.db, run_id, s.push_url, say);
  if (!s.tree.empty() && (!out.analysis.bisects.empty() ||
                          !bd::SessionDb(s.db).unfinished(out.analysis.run.matrix_path).empty())) {
    start_bisects(out, s.tree, s.bisect_minutes, o, say);
    write_reports(out.analysis, root);  // now with the bisections' outcome
  }
  if (const auto n = prune_reports(root, s.keep_reports))
    say(fmt::format("removed the {} oldest night reports in {} (nightly.keep_reports {})", n, root.string(), s.keep_reports));
  thin_old_runs(s.db, s.thin_after_days, say);
  return out;
}

}  // namespace rlab::nightly
