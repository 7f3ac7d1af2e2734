#pragma once
// Performance bisection over an ordered commit list with a measurement oracle: binary search
// for the first commit whose metric moved from the good end's level to the bad end's, with
// adaptive sampling per step and skips (as `git bisect skip`) for commits that cannot be
// measured or stay ambiguous at the sampling cap. Pure logic: the oracle builds, boots and
// measures (or simulates); this file decides.
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bisection/classify.hpp"
#include "bisection/step_result.hpp"
#include "stats/verdict.hpp"

namespace rlab::bisection {

/// Why a commit of a request has no samples (Measurement::kind).
enum class Failure {
  none,          ///< measured
  boot,          ///< its boots kept failing: the commit itself cannot be measured
  build,         ///< its kernel does not build (then nothing of the request boots)
  not_measured,  ///< not measured because another commit of the same request did not build
};

/// What the oracle returns for one commit of a request.
struct Measurement {
  std::vector<double> samples;  ///< the new samples, one per run (e.g. lpm of one fresh boot)
  /// Non-empty: cannot be measured, in words ("build: ...", "boot: ..."); `kind` says why.
  std::string failure;
  Failure kind = Failure::none;  ///< boot when `failure` is set and the oracle says no more
};

/// One commit of a request: measure commit `index` (into the commit list) `runs` more times.
struct Request {
  std::size_t index = 0;
  std::size_t runs = 0;
};

/// Measures the requested commits *interleaved*: round by round, one run of every commit that
/// still needs one per round, the starting commit rotated each round (A B, B A, A B ...; for
/// three commits G X B, X B G, B G X ...), so that drift of the measuring host hits all of
/// them alike. Returns one Measurement per request, in request order. The bisection keeps
/// every sample it receives and never asks for a commit again after a failure (except the
/// ends, whose failure ends the bisection or skips the step). May throw to abort
/// (infrastructure errors).
using Oracle = std::function<std::vector<Measurement>(std::span<const Request> requests)>;


/// How a step's reason begins when its own boots of the ends did not differ in the expected
/// direction (Step::references_differ false).
inline constexpr std::string_view kEndsDidNotDiffer =
    "the ends measured alongside do not differ in the expected direction";

/// One tested commit, in test order.
struct Step {
  std::size_t index = 0;
  StepResult result = StepResult::skip;
  std::vector<double> samples;    ///< all samples of this commit
  std::vector<double> good;       ///< the good end's samples measured in this step's rounds (deterministic: the ends')
  std::vector<double> bad;        ///< the bad end's samples measured in this step's rounds (deterministic: the ends')
  double change_vs_good = 0;      ///< relative median change against this step's good samples
  double p_vs_good = 1;           ///< min p against this step's good samples
  double p_vs_bad = 1;            ///< min p against this step's bad samples
  std::string reason;             ///< evidence in words, or the oracle's failure
  /// False when the step ended with its own ends not differing in the expected direction:
  /// the change between the ends did not reproduce (bisect() then stops).
  bool references_differ = true;
};

/// How the bisection ended.
enum class Status {
  found,                   ///< first_bad names the first bad commit
  hidden_by_skips,         ///< the first bad commit is in [range_first, range_last]
  no_regression,           ///< the ends are the same (the data rule the minimum effect out)
  inconclusive_endpoints,  ///< the ends still "unknown" at the cap, or a step's boots of the
                           ///< ends no longer differed (the change did not reproduce)
  wrong_direction,         ///< the ends differ, but bad is better than good (or vice versa)
  endpoint_failed,         ///< the good or bad end could not be measured
};

/// Human-readable status name: "found", "hidden by skips", ...
std::string_view status_name(Status s);

/// Result of bisect().
struct Result {
  Status status = Status::inconclusive_endpoints;
  std::size_t first_bad = 0;    ///< index (status found)
  std::size_t range_first = 0;  ///< first candidate index (found: = first_bad)
  std::size_t range_last = 0;   ///< last candidate index, inclusive
  std::vector<Step> steps;
  stats::Comparison endpoints;  ///< final comparison of the ends (good base, bad new)
  std::vector<double> good_samples;
  std::vector<double> bad_samples;
  std::size_t endpoint_runs = 0;   ///< runs of the two ends while checking them (check_ends)
  std::size_t step_runs = 0;       ///< runs of the tested commits
  std::size_t reference_runs = 0;  ///< runs of the two ends measured alongside the steps
  double step_alpha = 0;          ///< significance level the steps used (Options::step_alpha)
  std::string message;            ///< one line summary naming commits from the list
};

/// The two ends of the range and the samples check_ends() measured of them.
struct References {
  std::size_t good_index = 0;
  std::size_t bad_index = 0;
  std::vector<double> good;
  std::vector<double> bad;
  std::size_t runs = 0;   ///< runs spent on the ends by check_ends()
};

/// alpha / ceil(log2(commit_count - 1)) (alpha itself for fewer than three commits): the
/// Bonferroni share of one step in a bisection of `commit_count` commits, ends included.
double default_step_alpha(std::size_t commit_count, double alpha);

/// Outcome of check_ends().
struct EndsCheck {
  bool confirmed = false;   ///< different in the expected direction: bisect
  Status status = Status::inconclusive_endpoints;  ///< why not, when !confirmed
  stats::Comparison comparison;  ///< last comparison (good base, bad new)
  std::string message;           ///< in words, naming the ends
};

/// Measures both ends adaptively and interleaved (one request for both): plan.initial runs
/// each, compared with the full verdict at opt.verdict.alpha; "unknown" doubles both up to
/// the cap. Appends to refs.good/bad (an end that already has samples keeps them).
/// `good_name`/`bad_name` are used in the message.
EndsCheck check_ends(References& refs, const Oracle& oracle, const Options& opt,
                     std::string_view good_name, std::string_view bad_name);

/// One adaptive bisection step, paired in time: commit `index` and both ends are measured
/// plan.initial runs each in one interleaved request (good, commit, bad round-robin), and the
/// commit is classified against the ends' runs *of this step* at opt.step_alpha (> 0, e.g.
/// default_step_alpha), so that every verdict compares runs taken close together. While
/// unknown (including: this step's ends do not differ in the expected direction) all three
/// are doubled up to the cap; unknown at the cap, or a failure of the commit -> skip; a failure
/// of an end -> skip naming the end. Only refs.good_index/bad_index are used. With
/// opt.deterministic the commit alone is measured (plan.initial runs, doubled while unknown) and
/// classified against refs.good/bad, which must hold two samples each at least, by pooled t
/// tests (classify). A step looks at
/// the data at most K = 1 + log2(cap / initial) times, each at opt.step_alpha, so its chance of
/// a wrong call is at most K x step_alpha (Bonferroni over the looks); it stops at the first
/// look that decides.
/// Throws std::invalid_argument when opt.step_alpha <= 0, the plan is invalid, or deterministic
/// without the ends' samples or opt.resolution > 0.
Step test_commit(std::size_t index, const References& refs, const Oracle& oracle, const Options& opt);

/// Bisects `commits` (oldest first): commits.front() is known good, commits.back() known
/// bad, at least two entries. First measures both ends adaptively until the verdict is
/// "different" in the expected direction (otherwise stops with no_regression,
/// inconclusive_endpoints, wrong_direction or endpoint_failed); then runs the bisection loop
/// (search.hpp: search() over a ListBisecter, the loop `rlab bisect` runs over git) with
/// test_commit() at opt.step_alpha (0: default_step_alpha(commits.size(),
/// opt.verdict.alpha)), each step starting with plan_steps() boots, until one commit is left
/// or every commit inside the range is skipped. Without skips this takes at most
/// ceil(log2(commits.size() - 1)) steps. What the simulator (bench/bisect_sim) measures.
/// Throws std::invalid_argument on fewer than two commits, a commit listed twice, or an
/// invalid sampling plan; lets the oracle's exceptions pass.
Result bisect(std::span<const std::string> commits, const Oracle& oracle, const Options& opt = {});

}  // namespace rlab::bisection
