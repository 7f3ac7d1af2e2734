#include "kernel_bisect/driver.hpp"

#include "run/clock.hpp"

#include "kernel_bisect/culprit.hpp"
#include "kernel_bisect/vm_lab.hpp"
#include "matrix/matrix.hpp"
#include "run/interrupts.hpp"
#include "stats/descriptive.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace rlab::kernel_bisect {
namespace {

void tell(const Say& say, const std::string& line) {
  if (say) say(line);
}

std::string short_sha(const std::string& c) { return c.substr(0, 12); }

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

/// `opt` (session_options(s.spec)) with a deterministic gap session's resolution turned from
/// lpm into the ratio's, (a/b) res sqrt(1/a^2 + 1/b^2) for the good end's medians a and b of
/// the two cells (stored by the ends' check): each cell's score is quantised on its own, so a
/// bound on each one's spread (res / 2) bounds the ratio's relative spread by their sum in
/// quadrature. Throws std::runtime_error when those medians are not stored yet.
bisection::Options with_gap_resolution(bisection::Options opt, const SessionDb& db, const Session& s) {
  if (!s.spec.gap() || !opt.deterministic) return opt;
  const auto a = db.samples(s.id, s.spec.good_commit, kEndsPurpose, s.spec.cell_id);
  const auto b = db.samples(s.id, s.spec.good_commit, kEndsPurpose, s.spec.against_cell_id);
  if (a.empty() || b.empty())
    throw std::runtime_error(fmt::format("bisect session {}: the good end has no boots of both cells yet", s.id));
  const double ma = stats::median(a), mb = stats::median(b);
  opt.resolution = ma / mb * opt.resolution * std::sqrt(1 / (ma * ma) + 1 / (mb * mb));
  return opt;
}

/// The boots a session's steps start with (bisection::plan_steps over the ends' stored samples).
bisection::StepPlan step_plan(const bisection::Options& opt, const Session& s, Lab& lab) {
  return bisection::plan_steps(opt, lab.stored(s.spec.good_commit, kEndsPurpose),
                               lab.stored(s.spec.bad_commit, kEndsPurpose));
}

/// A session's step options once worked out (step_options), or not yet.
using StepOptions = std::optional<bisection::Options>;

/// The options of a session's steps, its matrix read once: session_options with the gap's
/// resolution and the boots a step starts with.
bisection::Options step_options(const SessionDb& db, const Session& s, Lab& lab) {
  auto opt = with_gap_resolution(session_options(s.spec), db, s);
  opt.plan.initial = step_plan(opt, s, lab).initial;
  return opt;
}

/// "cell c" or, for a gap, "c / d": what a session measures, in words.
std::string measured_what(const SessionSpec& spec) {
  return spec.gap() ? fmt::format("the gap {} / {}", spec.cell_id, spec.against_cell_id) : spec.cell_id;
}

/// Measures both ends; true when the bisection may go on (status set otherwise).
bool measure_ends(SessionDb& db, const Session& s, Lab& lab, const Say& say) {
  ReplayOracle oracle(lab, {s.spec.good_commit, s.spec.bad_commit}, kEndsPurpose);
  bisection::References refs;
  refs.good_index = 0;
  refs.bad_index = 1;
  auto opt = session_options(s.spec);
  tell(say, fmt::format("measuring {} at the ends, interleaved: good {} and bad {}", measured_what(s.spec),
                        short_sha(s.spec.good_commit), short_sha(s.spec.bad_commit)));
  auto check = bisection::check_ends(refs, std::ref(oracle), opt,
                                  fmt::format("good {}", short_sha(s.spec.good_commit)),
                                  fmt::format("bad {}", short_sha(s.spec.bad_commit)));
  tell(say, check.message);
  if (check.confirmed) {
    opt = with_gap_resolution(opt, db, s);
    const auto plan = step_plan(opt, s, lab);
    if (plan.noise)
      tell(say, fmt::format("noise {:.1f}% per {}{} next to a change of {:+.1f}%: steps start with {} {} "
                            "of each (at most {})", *plan.noise * 100, s.spec.gap() ? "round" : "boot",
                            opt.deterministic ? fmt::format(" (at least half a loop, {:.2g}{})", opt.resolution / 2,
                                                            s.spec.gap() ? "" : " lpm")
                                              : "",
                            plan.change * 100, plan.initial, s.spec.gap() ? "rounds" : "boots", s.spec.cap));
    db.set_status(s.id, SessionState::bisecting, check.message);
    return true;
  }
  db.set_status(s.id, finished_state(check.status), check.message);
  return false;
}

}  // namespace

bisection::Options session_options(const SessionSpec& spec) {
  bisection::Options opt;
  opt.verdict.alpha = spec.alpha;
  opt.verdict.min_effect = spec.min_effect;
  opt.plan.initial = spec.initial;
  opt.plan.cap = spec.cap;
  opt.direction = spec.direction;
  opt.step_alpha = bisection::default_step_alpha(spec.commit_count, spec.alpha);
  if (!spec.matrix_text.empty()) {
    matrix::LoadOptions lo;
    lo.check_paths = false;  // only the guest clock and the cell's pass length are read
    auto m = matrix::parse_matrix(spec.matrix_text, spec.matrix_path, lo);
    run::settle_auto_clock(m);
    opt.deterministic = m.guest.clock == matrix::GuestClock::kIcount;
    for (const auto& c : matrix::expand_cells(m))
      if (c.id == spec.cell_id) opt.resolution = 60 / c.workload.duration_s;  // lpm of one loop in one pass
    if (opt.deterministic && !(opt.resolution > 0))
      throw std::runtime_error(fmt::format("bisect session: cell {} is not in its matrix {}", spec.cell_id,
                                           spec.matrix_path));
  }
  return opt;
}

SessionId create_session(SessionDb& db, const StartOptions& o) {
  if (o.initial < 2 || o.cap < o.initial)
    throw UsageError(fmt::format(
        "boots per commit: --initial {} must be at least 2 and --cap {} at least --initial",
        o.initial, o.cap));
  if (!(o.alpha > 0 && o.alpha < 1))
    throw UsageError(fmt::format("--alpha {} is not in (0, 1)", o.alpha));
  if (!(o.min_effect >= 0 && o.min_effect < 1))
    throw UsageError(fmt::format("--min-effect {} is not in [0, 1)", o.min_effect));
  GitTree git(o.tree);
  if (git.bisecting())
    throw UsageError(git.dir().string() + ": a bisection is already in progress "
                                "(finish it or `git -C " + git.dir().string() + " bisect reset`)");
  SessionSpec spec;
  spec.tree = git.dir();
  spec.good_ref = o.good;
  spec.bad_ref = o.bad;
  spec.good_commit = git.resolve(o.good);
  spec.bad_commit = git.resolve(o.bad);
  if (spec.good_commit == spec.bad_commit)
    throw UsageError(fmt::format("--good {} and --bad {} are the same commit", o.good, o.bad));
  if (!git.is_ancestor(spec.good_commit, spec.bad_commit))
    throw UsageError(fmt::format("{}: --good {} is not an ancestor of --bad {}",
                                            git.dir().string(), o.good, o.bad));
  spec.commit_count = git.count_between(spec.good_commit, spec.bad_commit) + 1;
  auto m = matrix::load_matrix(o.matrix);
  const auto cell = matrix::select_cell(m, o.cell);
  spec.cell_id = cell.id;
  if (!o.against.empty()) {
    const auto against = matrix::select_cell(m, o.against);
    if (against.id == cell.id)
      throw UsageError(fmt::format("--against {} names the same cell as --cell {} ({}): a gap needs two cells",
                                   o.against, o.cell, cell.id));
    if (against.kernel.name != cell.kernel.name)
      throw UsageError(fmt::format("--against {} ({}) has kernel {}, --cell {} ({}) kernel {}: a gap compares two "
                                   "cells of the same kernel (each commit is built once and booted in both)",
                                   o.against, against.id, against.kernel.name, o.cell, cell.id, cell.kernel.name));
    spec.against_cell_id = against.id;
  }
  spec.matrix_path = m.path.string();
  spec.matrix_text = m.text;
  spec.direction = o.direction;
  spec.alpha = o.alpha;
  spec.min_effect = o.min_effect;
  spec.initial = o.initial;
  spec.cap = o.cap;
  return db.create(spec);
}

int exit_code_for(bisection::StepResult result) {
  switch (result) {
    case bisection::StepResult::good: return 0;
    case bisection::StepResult::bad: return 1;
    case bisection::StepResult::skip: return 125;
  }
  return 125;
}

namespace {

/// `commit` tested as a bisection step of session `s` with its step options `opt`: booted
/// interleaved with both ends, its samples kept under `purpose` (a stored purpose is replayed,
/// not booted again).
bisection::Step test_against_ends(const bisection::Options& opt, const Session& s, Lab& lab,
                                  const std::string& commit, const std::string& purpose) {
  const auto& good = s.spec.good_commit;
  const auto& bad = s.spec.bad_commit;
  ReplayOracle oracle(lab, {good, bad, commit}, purpose);
  bisection::References refs;
  refs.good_index = 0;
  refs.bad_index = 1;
  if (opt.deterministic) {  // deterministic: no drift to pair against, the ends' boots stand
    refs.good = lab.stored(good, kEndsPurpose);
    refs.bad = lab.stored(bad, kEndsPurpose);
  }
  return bisection::test_commit(2, refs, std::ref(oracle), opt);
}

/// The revert check of `culprit` (culprit.hpp): the bad end with it reverted, tested as a step.
RevertCheck check_revert(const SessionDb& db, const GitTree& git, const Session& s, Lab& lab,
                         const std::string& culprit, StepOptions& opt, const Say& say) {
  RevertCheck r;
  std::string why;
  const auto revert = git.revert_onto(culprit, s.spec.bad_commit, why);
  if (!revert) {
    r.reason = why;
    return r;
  }
  r.commit = *revert;
  tell(say, fmt::format("revert check: testing {} (bad end {} with {} reverted)", short_sha(r.commit),
                        short_sha(s.spec.bad_commit), short_sha(culprit)));
  if (!opt) opt = step_options(db, s, lab);
  const auto step = test_against_ends(*opt, s, lab, r.commit, "revert " + r.commit);
  r.result = step.result;
  r.reason = step.reason;
  r.change_vs_good = step.change_vs_good;
  return r;
}

/// answer_commit, with the session's step options worked out once (`opt`, on the first
/// commit that needs them) and kept for the next commits.
StepRow answer(SessionDb& db, const Session& s, Lab& lab, const std::string& commit, StepOptions& step_opt) {
  if (auto done = db.step(s.id, commit)) return *done;
  const auto& good = s.spec.good_commit;
  const auto& bad = s.spec.bad_commit;
  StepRow row;
  row.commit = commit;
  if (commit == good || commit == bad) {
    // git never asks for an end, but a hand-run `git bisect run` might.
    row.result = commit == good ? bisection::StepResult::good : bisection::StepResult::bad;
    row.reason = "an end of the range";
    row.samples = db.statistic(s, commit).size();
    db.record_step(s.id, row);
    return row;
  }
  if (s.status == SessionState::ends || lab.stored(good, kEndsPurpose).empty() || lab.stored(bad, kEndsPurpose).empty())
    throw std::runtime_error(fmt::format("bisect session {}: the ends are not measured yet "
                                         "(run `rlab bisect --resume {}`)", s.id, s.id));
  if (!step_opt) step_opt = step_options(db, s, lab);
  const auto& opt = *step_opt;
  const auto step = test_against_ends(opt, s, lab, commit, commit);
  row.result = step.result;
  row.ends_differ = step.references_differ;
  row.samples = step.samples.size();
  row.median = step.samples.empty() ? 0 : stats::median(step.samples);
  row.change_vs_good = step.change_vs_good;
  row.p_vs_good = step.p_vs_good;
  row.p_vs_bad = step.p_vs_bad;
  row.reason = step.reason;
  row.good_median = step.good.empty() ? 0 : stats::median(step.good);
  row.bad_median = step.bad.empty() ? 0 : stats::median(step.bad);
  // Boots of the ends measured for this step (none when it reused the ends' own).
  row.reference_samples = opt.deterministic ? 0 : step.good.size() + step.bad.size();
  row.seq = db.record_step(s.id, row);
  return row;
}

}  // namespace

StepRow answer_commit(SessionDb& db, const Session& s, Lab& lab, const std::string& commit) {
  StepOptions opt;
  return answer(db, s, lab, commit, opt);
}

namespace {

/// A bisection in `git`'s tree that rlab started and whose process is gone (killed, crashed)
/// is stale: reset it (its session keeps every answer and resumes with --resume). One by hand,
/// or one whose process still runs, is not rlab's to touch: UsageError.
void clear_stale_bisection(const GitTree& git, const Say& say) {
  if (!git.bisecting()) return;
  const auto owner = git.owner();
  if (!owner)
    throw UsageError(git.dir().string() + ": a bisection is already in progress, not started by rlab "
                     "(finish it or `git -C " + git.dir().string() + " bisect reset`)");
  if (owner->alive)
    throw UsageError(fmt::format("{}: bisect session {} is bisecting in this tree now (process {})",
                                 git.dir().string(), owner->session, owner->pid));
  tell(say, fmt::format("{}: the bisection of session {} was left by process {}, which is gone: reset",
                        git.dir().string(), owner->session, owner->pid));
  git.reset();
}

/// Whatever ends a drive -- an answer, an interrupt, a lab or store failure -- the tree is left
/// without a bisection in progress; the stored answers rebuild it on resume.
struct ResetOnExit {
  const GitTree& g;
  ~ResetOnExit() {
    try {
      g.reset();
    } catch (const std::exception& e) {
      spdlog::warn("{}: git bisect reset: {}", g.dir().string(), e.what());
    }
  }
};

/// git's bisection marked with the session's stored answers, in answer order.
void replay_steps(GitBisecter& bisecter, const SessionDb& db, SessionId id, const Say& say) {
  for (const auto& row : db.steps(id)) {
    if (bisecter.state().done) break;
    tell(say, fmt::format("replaying step {}: {} {}", row.seq, short_sha(row.commit),
                          bisection::step_result_name(row.result)));
    bisecter.mark(row.commit, row.result);
  }
}

/// The search's answer for one commit: answer_commit, said before and after.
bisection::StepAnswer answer_and_say(SessionDb& db, const Session& s, Lab& lab, const GitTree& git,
                                     const std::string& commit, StepOptions& opt, const Say& say) {
  tell(say, fmt::format("testing {} {}", short_sha(commit), git.subject(commit)));
  const auto ts = std::chrono::steady_clock::now();
  const auto row = answer(db, s, lab, commit, opt);
  tell(say, fmt::format("{} is {} ({} {}, {} of the ends alongside; {:.0f} s): {}", short_sha(commit),
                        bisection::step_result_name(row.result), row.samples, s.spec.gap() ? "rounds" : "boots",
                        row.reference_samples, seconds_since(ts), row.reason));
  return bisection::StepAnswer{row.result, row.ends_differ};
}

/// The culprit's checks (culprit.hpp), stored with the session as they come; a failure here
/// loses no answer (an interrupt is passed on).
void check_and_store_culprit(SessionDb& db, const GitTree& git, const Session& s, Lab& lab,
                             const std::string& culprit, StepOptions& opt, const Say& say) {
  try {
    auto checks = check_culprit(git, lab, culprit);
    db.set_checks(s.id, checks_json(checks).dump());  // kept if the revert's boots are cut short
    checks.revert = check_revert(db, git, s, lab, culprit, opt, say);
    db.set_checks(s.id, checks_json(checks).dump());
    tell(say, "checks of the culprit:\n" + render_checks(checks));
  } catch (const std::exception& e) {
    if (run::Interrupts::instance().stopped()) throw;
    spdlog::warn("bisect session {}: culprit checks: {}", s.id, e.what());
  }
}

/// Stores how the search ended: the culprit (then checked), the candidates skips hide, or that
/// the change did not reproduce.
void conclude(SessionDb& db, const GitTree& git, const Session& s, Lab& lab, const bisection::SearchEnd& end,
              StepOptions& opt, const Say& say) {
  switch (end.status) {
    case bisection::Status::inconclusive_endpoints:
      db.set_status(s.id, finished_state(end.status),
                    fmt::format("the ends booted alongside {} did not differ in the expected direction "
                                "at the cap: the change between the ends did not reproduce",
                                short_sha(end.last)));
      return;
    case bisection::Status::found:
      db.set_status(s.id, SessionState::found,
                    fmt::format("first bad commit {} {}", short_sha(end.first_bad), git.subject(end.first_bad)),
                    end.first_bad);
      check_and_store_culprit(db, git, s, lab, end.first_bad, opt, say);
      return;
    default:
      db.set_status(s.id, SessionState::hidden_by_skips,
                    fmt::format("the first bad commit is one of {} commits that were skipped or are "
                                "next to skipped ones", end.candidates.size()),
                    "", end.candidates);
  }
}

}  // namespace

Session drive(SessionDb& db, SessionId id, Lab& lab, bool resume, const Say& say,
              std::optional<std::chrono::steady_clock::time_point> deadline) {
  const auto out_of_time = [&] {
    if (!deadline || std::chrono::steady_clock::now() < *deadline) return false;
    tell(say, fmt::format("bisect session {}: out of time; its answers are stored and it goes on "
                          "where it stopped (`rlab bisect --resume {}`, or the next night)", id, id));
    return true;
  };
  const auto t0 = std::chrono::steady_clock::now();
  auto s = db.get(id);
  if (!s) throw UsageError(fmt::format("{}: no bisect session {}", db.path().string(), id));
  if (!unfinished(s->status)) return *s;  // finished earlier
  GitTree git(s->spec.tree);
  if (!resume) clear_stale_bisection(git, say);
  const ResetOnExit reset_on_exit{git};
  if (s->status == SessionState::ends) {
    if (out_of_time() || !measure_ends(db, *s, lab, say)) return *db.get(id);
    s = db.get(id);
  }
  git.reset();
  GitBisecter bisecter(git, git.start(s->spec.bad_commit, s->spec.good_commit));
  git.mark_owner(id);
  replay_steps(bisecter, db, id, say);
  StepOptions opt;  // the session's step options, worked out once for every step and the revert check
  // The one bisection loop (bisect/search.hpp), as the simulator runs it over a list.
  const auto end = bisection::search(
      bisecter, [&](const std::string& c) { return answer_and_say(db, *s, lab, git, c, opt, say); },
      s->spec.commit_count + 1, [&](const std::string& c) { return !db.step(id, c) && out_of_time(); });
  if (end.stopped) return *db.get(id);
  git.reset();
  if (end.status != bisection::Status::inconclusive_endpoints)
    tell(say, fmt::format("bisection took {:.1f} min in this process ({} commits tested)", seconds_since(t0) / 60,
                          end.answered));
  conclude(db, git, *s, lab, end, opt, say);
  return *db.get(id);
}

}  // namespace rlab::kernel_bisect
