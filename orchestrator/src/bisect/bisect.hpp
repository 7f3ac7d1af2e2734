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

#include "bisect/classify.hpp"
#include "stats/verdict.hpp"

namespace rlab::bisect {

/// What the oracle returns for one request.
struct Measurement {
  std::vector<double> samples;  ///< the new samples, one per run (e.g. lpm of one fresh boot)
  std::string failure;          ///< non-empty: cannot be measured (build or boot failed)
};

/// Measures commit `index` (into the commit list) `runs` more times. The bisection keeps
/// every sample it receives and never asks for a commit again after a failure (except the
/// ends, whose failure ends the bisection). May throw to abort (infrastructure errors).
using Oracle = std::function<Measurement(std::size_t index, std::size_t runs)>;

/// Outcome of one tested commit.
enum class StepResult { good, bad, skip };

/// "good", "bad" or "skip".
std::string_view step_result_name(StepResult r);

/// One tested commit, in test order.
struct Step {
  std::size_t index = 0;
  StepResult result = StepResult::skip;
  std::vector<double> samples;    ///< all samples of this commit
  double change_vs_good = 0;      ///< relative median change against the good end (fraction)
  double p_vs_good = 1;           ///< min p against the good end
  double p_vs_bad = 1;            ///< min p against the bad end
  std::string reason;             ///< evidence in words, or the oracle's failure
};

/// How the bisection ended.
enum class Status {
  found,                   ///< first_bad names the first bad commit
  hidden_by_skips,         ///< the first bad commit is in [range_first, range_last]
  no_regression,           ///< the ends are the same (the data rule the minimum effect out)
  inconclusive_endpoints,  ///< the ends still "unknown" at the cap
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
  std::size_t endpoint_runs = 0;  ///< runs of the two ends, including top-ups during steps
  std::size_t step_runs = 0;      ///< runs of the tested commits
  double step_alpha = 0;          ///< significance level the steps used (Options::step_alpha)
  std::string message;            ///< one line summary naming commits from the list
};

/// The two ends of the range and their samples: the references of every step.
struct References {
  std::size_t good_index = 0;
  std::size_t bad_index = 0;
  std::vector<double> good;
  std::vector<double> bad;
  std::size_t runs = 0;   ///< runs spent on the ends
  bool can_grow = true;   ///< cleared when topping an end up failed (steps go on without)
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

/// Measures both ends adaptively: plan.initial runs each, compared with the full verdict at
/// opt.verdict.alpha; "unknown" doubles both up to the cap. Appends to refs.good/bad (an end
/// that already has samples keeps them). `good_name`/`bad_name` are used in the message.
EndsCheck check_ends(References& refs, const Oracle& oracle, const Options& opt,
                     std::string_view good_name, std::string_view bad_name);

/// One adaptive bisection step: measures commit `index` plan.initial times, classifies it
/// against the ends at opt.step_alpha (> 0, e.g. default_step_alpha), and while unknown
/// doubles its runs up to the cap (topping the ends up to the same count when
/// opt.grow_references); unknown at the cap or an oracle failure -> skip.
/// Throws std::invalid_argument when opt.step_alpha <= 0 or the plan is invalid.
Step test_commit(std::size_t index, References& refs, const Oracle& oracle, const Options& opt);

/// Bisects `commits` (oldest first): commits.front() is known good, commits.back() known
/// bad, at least two entries. First measures both ends adaptively until the verdict is
/// "different" in the expected direction (otherwise stops with no_regression,
/// inconclusive_endpoints, wrong_direction or endpoint_failed); then tests the not-yet-skipped
/// commit nearest the middle of the remaining range with test_commit() at opt.step_alpha
/// (0: default_step_alpha(commits.size(), opt.verdict.alpha)), until one commit is left or
/// every commit inside the range is skipped. Without skips this takes at most
/// ceil(log2(commits.size() - 1)) steps.
/// Throws std::invalid_argument on fewer than two commits or an invalid sampling plan; lets
/// the oracle's exceptions pass.
Result bisect(std::span<const std::string> commits, const Oracle& oracle, const Options& opt = {});

}  // namespace rlab::bisect
