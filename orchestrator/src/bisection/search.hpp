#pragma once
// The one bisection loop: ask a Bisecter which commit to test next, answer it (build, boot,
// measure, classify: test_commit), tell the Bisecter good/bad/skip, until it names the first
// bad commit or only skipped commits are left. `rlab bisect` runs it over `git bisect`
// (kernel_bisect::GitBisecter), the simulator (bench/bisect_sim) over an ordered list
// (ListBisecter): the same loop, the same steps, the same step plan.
#include "bisection/bisect.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace rlab::bisection {

/// Where a search stands: the commit to test next, or how it ended.
struct SearchState {
  bool done = false;
  std::string next;                     ///< the commit to test (when !done)
  std::string first_bad;                ///< done: the first bad commit; "" when skips hide it
  std::vector<std::string> candidates;  ///< done without first_bad: the commits that may be it
};

/// Picks commits and takes answers (syzkaller's Bisecter shape). Commits are names the
/// implementation understands (SHAs for git, list entries for the list).
class Bisecter {
 public:
  virtual ~Bisecter() = default;
  /// Where the search stands now.
  virtual SearchState state() = 0;
  /// Records `result` for `commit` (the one state() named).
  virtual void mark(const std::string& commit, StepResult result) = 0;
};

/// A Bisecter over an ordered list (oldest first; front known good, back known bad): the
/// next commit is the not-skipped one strictly inside the range nearest its middle; done
/// when the range is two adjacent commits (found) or every commit inside it is skipped
/// (candidates: the range without its good end). Throws std::invalid_argument for fewer than
/// two commits or duplicates; mark() throws it for a commit outside the open range.
class ListBisecter : public Bisecter {
 public:
  explicit ListBisecter(std::vector<std::string> commits);
  SearchState state() override;
  void mark(const std::string& commit, StepResult result) override;
  /// Index into the list of `commit`; throws std::invalid_argument when it is not there.
  std::size_t index(const std::string& commit) const;
  std::size_t lo() const { return lo_; }  ///< the newest commit known good
  std::size_t hi() const { return hi_; }  ///< the oldest commit known bad

 private:
  std::vector<std::string> commits_;
  std::size_t lo_ = 0, hi_ = 0;
  std::set<std::size_t> skipped_;
};

/// What answering one commit gives the loop.
struct StepAnswer {
  StepResult result = StepResult::skip;
  /// False when the step's own boots of the ends no longer differed in the expected
  /// direction (Step::references_differ): the loop stops, the change did not reproduce.
  bool ends_differ = true;
};

/// How the loop ended.
struct SearchEnd {
  /// found, hidden_by_skips, or inconclusive_endpoints (a step's ends did not differ).
  Status status = Status::found;
  bool stopped = false;                 ///< `stop` said so before `last` was answered
  std::string first_bad;                ///< status found
  std::vector<std::string> candidates;  ///< status hidden_by_skips
  std::string last;                     ///< the commit answered last, or the one not answered when stopped
  std::size_t answered = 0;             ///< answers in this call
};

/// The loop: while the bisecter has a next commit, asks `stop(commit)` (when given; true
/// leaves the search where it is: SearchEnd::stopped), `answer(commit)`, and marks the
/// result; an answer whose ends no longer differ ends it with inconclusive_endpoints before
/// marking. Throws std::runtime_error after more than `max_answers` answers (a bisecter that
/// never converges); lets answer's and the bisecter's exceptions pass.
SearchEnd search(Bisecter& bisecter, const std::function<StepAnswer(const std::string&)>& answer,
                 std::size_t max_answers,
                 const std::function<bool(const std::string&)>& stop = {});

/// The boots a step starts with, from the ends' samples: the fewest whose comparison at
/// opt.step_alpha shows the ends' change with power 0.9, opt.plan.cap when the noise needs
/// more. Paired steps (rank tests, as many boots of each end): the minimum detectable effect
/// (stats::boots_for_effect, never below the rank tests' floor). Deterministic steps (the
/// pooled t test against the ends' own boots): stats::boots_for_shift with the ends' pooled
/// spread floored at opt.resolution / 2, against the fewer end's boots, at least 2.
/// opt.plan.initial while either end has fewer than two samples or their medians are not
/// positive.
struct StepPlan {
  std::optional<double> noise;  ///< pooled relative stddev of one run of the ends (deterministic: floored)
  double change = 0;            ///< (median bad - median good) / median good
  std::size_t initial = 0;      ///< runs a step starts with
};
/// Requires opt.step_alpha > 0 (see default_step_alpha) and, with opt.deterministic,
/// opt.resolution > 0 (std::invalid_argument otherwise).
StepPlan plan_steps(const Options& opt, std::span<const double> good, std::span<const double> bad);

}  // namespace rlab::bisection
