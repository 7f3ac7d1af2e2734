#include "bisect/bisect.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <stdexcept>

namespace rlab::bisect {

std::string_view step_result_name(StepResult r) {
  switch (r) {
    case StepResult::good: return "good";
    case StepResult::bad: return "bad";
    case StepResult::skip: return "skip";
  }
  return "skip";
}

std::string_view status_name(Status s) {
  switch (s) {
    case Status::found: return "found";
    case Status::hidden_by_skips: return "hidden by skips";
    case Status::no_regression: return "no regression";
    case Status::inconclusive_endpoints: return "inconclusive endpoints";
    case Status::wrong_direction: return "wrong direction";
    case Status::endpoint_failed: return "endpoint failed";
  }
  return "?";
}

namespace {

class Bisection {
 public:
  Bisection(std::span<const std::string> commits, const Oracle& oracle, const Options& opt)
      : commits_(commits), oracle_(oracle), opt_(opt), good_(0), bad_(commits.size() - 1) {
    step_opt_ = opt_;
    if (step_opt_.step_alpha <= 0) {
      const double steps = commits.size() > 2 ? std::ceil(std::log2(double(commits.size() - 1))) : 1;
      step_opt_.step_alpha = opt_.verdict.alpha / steps;
    }
    step_opt_.verdict.alpha = step_opt_.step_alpha;
    r_.step_alpha = step_opt_.step_alpha;
  }

  Result run() {
    if (!measure_endpoints()) return std::move(r_);
    std::size_t lo = good_, hi = bad_;
    std::set<std::size_t> skipped;
    while (true) {
      const std::size_t next = pick(lo, hi, skipped);
      if (next == 0) break;
      Step step = test(next);
      if (step.result == StepResult::good) lo = next;
      if (step.result == StepResult::bad) hi = next;
      if (step.result == StepResult::skip) skipped.insert(next);
      r_.steps.push_back(std::move(step));
    }
    r_.range_first = lo + 1;
    r_.range_last = hi;
    if (r_.range_first == r_.range_last) {
      r_.status = Status::found;
      r_.first_bad = hi;
      r_.message = fmt::format("first bad commit: {}", commits_[hi]);
    } else {
      r_.status = Status::hidden_by_skips;
      r_.message = fmt::format("the first bad commit is one of {} commits from {} to {} (skips hide it)",
                               hi - lo, commits_[lo + 1], commits_[hi]);
    }
    return std::move(r_);
  }

 private:
  // Appends `runs` samples of commit `index` to `into`; false (and the failure) on failure.
  bool measure(std::size_t index, std::size_t runs, std::vector<double>& into, std::string& failure) {
    Measurement m = oracle_(index, runs);
    if (!m.failure.empty()) {
      failure = m.failure;
      return false;
    }
    if (m.samples.size() != runs) {
      throw std::runtime_error(fmt::format("bisect: oracle returned {} samples of {} for {}, wanted {}",
                                           m.samples.size(), index, commits_[index], runs));
    }
    into.insert(into.end(), m.samples.begin(), m.samples.end());
    return true;
  }

  bool measure_endpoints() {
    std::size_t n = opt_.plan.initial;
    std::string failure;
    std::size_t have = 0;
    while (true) {
      if (!measure(good_, n - have, r_.good_samples, failure) ||
          !measure(bad_, n - have, r_.bad_samples, failure)) {
        r_.status = Status::endpoint_failed;
        r_.message = fmt::format("cannot measure an end: {}", failure);
        return false;
      }
      r_.endpoint_runs += 2 * (n - have);
      have = n;
      r_.endpoints = stats::compare(r_.good_samples, r_.bad_samples, opt_.verdict);
      const auto& e = r_.endpoints;
      if (e.verdict == stats::Verdict::different) {
        const int s = e.difference.relative_change < 0 ? -1 : 1;
        if (s == expected_sign(opt_)) return true;
        r_.status = Status::wrong_direction;
        r_.message = fmt::format("{} is {:+.1f}% against {}: the opposite of the direction bisected ({})",
                                 commits_[bad_], 100 * e.difference.relative_change, commits_[good_], e.reason);
        return false;
      }
      if (e.verdict == stats::Verdict::same) {
        r_.status = Status::no_regression;
        r_.message = fmt::format("{} and {} are the same: {}", commits_[good_], commits_[bad_], e.reason);
        return false;
      }
      n = stats::next_sample_count(have, opt_.plan);
      if (n == 0) {
        r_.status = Status::inconclusive_endpoints;
        r_.message = fmt::format("{} is not significantly different from {} after {} runs each: {}",
                                 commits_[bad_], commits_[good_], have, e.reason);
        return false;
      }
    }
  }

  // The untested, unskipped commit strictly inside (lo, hi) nearest the middle; 0 if none.
  static std::size_t pick(std::size_t lo, std::size_t hi, const std::set<std::size_t>& skipped) {
    if (hi - lo < 2) return 0;
    const std::size_t mid = lo + (hi - lo) / 2;
    for (std::size_t d = 0; d < hi - lo; ++d) {
      if (mid >= lo + 1 + d && !skipped.count(mid - d)) return mid - d;
      if (mid + d + 1 <= hi - 1 && !skipped.count(mid + d + 1)) return mid + d + 1;
    }
    return 0;
  }

  // Grows the ends' samples to at least n each (runs counted as endpoint runs).
  void grow_references(std::size_t n) {
    if (!opt_.grow_references) return;
    std::string failure;
    for (auto [index, samples] : {std::pair{good_, &r_.good_samples}, std::pair{bad_, &r_.bad_samples}}) {
      if (samples->size() >= n) continue;
      const std::size_t more = n - samples->size();
      if (!measure(index, more, *samples, failure)) {
        opt_.grow_references = false;  // keep bisecting with the samples we have
        return;
      }
      r_.endpoint_runs += more;
    }
  }

  Step test(std::size_t index) {
    Step step;
    step.index = index;
    std::size_t n = opt_.plan.initial;
    while (true) {
      if (!measure(index, n - step.samples.size(), step.samples, step.reason)) {
        step.result = StepResult::skip;
        return step;
      }
      grow_references(step.samples.size());
      const Classification c = classify(r_.good_samples, r_.bad_samples, step.samples, step_opt_);
      step.change_vs_good = c.vs_good.relative_change;
      step.p_vs_good = c.vs_good.p_min;
      step.p_vs_bad = c.vs_bad.p_min;
      step.reason = c.reason;
      if (c.call != Call::unknown) {
        step.result = c.call == Call::good ? StepResult::good : StepResult::bad;
        break;
      }
      n = stats::next_sample_count(step.samples.size(), opt_.plan);
      if (n == 0) {
        step.result = StepResult::skip;
        step.reason += fmt::format(" at the cap of {} runs", opt_.plan.cap);
        break;
      }
    }
    return step;
  }

  std::span<const std::string> commits_;
  const Oracle& oracle_;
  Options opt_;
  Options step_opt_;  // opt_ with verdict.alpha = the step's significance level
  std::size_t good_, bad_;
  Result r_;
};

}  // namespace

Result bisect(std::span<const std::string> commits, const Oracle& oracle, const Options& opt) {
  if (commits.size() < 2) {
    throw std::invalid_argument("bisect: need at least the good and the bad commit");
  }
  Result r = Bisection(commits, oracle, opt).run();
  for (const Step& s : r.steps) r.step_runs += s.samples.size();
  return r;
}

}  // namespace rlab::bisect
