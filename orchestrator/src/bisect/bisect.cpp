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

double default_step_alpha(std::size_t commit_count, double alpha) {
  if (commit_count < 3) return alpha;
  return alpha / std::ceil(std::log2(static_cast<double>(commit_count - 1)));
}

namespace {

// Appends `runs` samples of commit `index` to `into`; false (and the failure) on failure.
bool measure(const Oracle& oracle, std::size_t index, std::size_t runs, std::vector<double>& into,
             std::string& failure) {
  Measurement m = oracle(index, runs);
  if (!m.failure.empty()) {
    failure = m.failure;
    return false;
  }
  if (m.samples.size() != runs) {
    throw std::runtime_error(fmt::format("bisect: the oracle returned {} samples of commit #{}, wanted {}",
                                         m.samples.size(), index, runs));
  }
  into.insert(into.end(), m.samples.begin(), m.samples.end());
  return true;
}

// Tops each end up to at least n samples (runs counted in refs.runs).
void grow_references(References& refs, std::size_t n, const Oracle& oracle) {
  std::string failure;
  for (auto [index, samples] : {std::pair{refs.good_index, &refs.good}, std::pair{refs.bad_index, &refs.bad}}) {
    if (samples->size() >= n) continue;
    const std::size_t more = n - samples->size();
    if (!measure(oracle, index, more, *samples, failure)) {
      refs.can_grow = false;  // keep bisecting with the samples we have
      return;
    }
    refs.runs += more;
  }
}

// The unskipped commit strictly inside (lo, hi) nearest the middle; 0 if none.
std::size_t pick(std::size_t lo, std::size_t hi, const std::set<std::size_t>& skipped) {
  if (hi - lo < 2) return 0;
  const std::size_t mid = lo + (hi - lo) / 2;
  for (std::size_t d = 0; d < hi - lo; ++d) {
    if (mid >= lo + 1 + d && !skipped.count(mid - d)) return mid - d;
    if (mid + d + 1 <= hi - 1 && !skipped.count(mid + d + 1)) return mid + d + 1;
  }
  return 0;
}

}  // namespace

EndsCheck check_ends(References& refs, const Oracle& oracle, const Options& opt,
                     std::string_view good_name, std::string_view bad_name) {
  EndsCheck out;
  std::size_t n = std::max(opt.plan.initial, std::max(refs.good.size(), refs.bad.size()));
  std::string failure;
  while (true) {
    for (auto [index, samples] : {std::pair{refs.good_index, &refs.good}, std::pair{refs.bad_index, &refs.bad}}) {
      if (samples->size() >= n) continue;
      const std::size_t more = n - samples->size();
      if (!measure(oracle, index, more, *samples, failure)) {
        out.status = Status::endpoint_failed;
        out.message = fmt::format("cannot measure {}: {}", index == refs.good_index ? good_name : bad_name, failure);
        return out;
      }
      refs.runs += more;
    }
    out.comparison = stats::compare(refs.good, refs.bad, opt.verdict);
    const auto& c = out.comparison;
    if (c.verdict == stats::Verdict::different) {
      if ((c.difference.relative_change < 0 ? -1 : 1) == expected_sign(opt)) {
        out.confirmed = true;
        out.message = fmt::format("{} is {:+.1f}% against {}: {}", bad_name, 100 * c.difference.relative_change,
                                  good_name, c.reason);
        return out;
      }
      out.status = Status::wrong_direction;
      out.message = fmt::format("{} is {:+.1f}% against {}: the opposite of the direction bisected ({})",
                                bad_name, 100 * c.difference.relative_change, good_name, c.reason);
      return out;
    }
    if (c.verdict == stats::Verdict::same) {
      out.status = Status::no_regression;
      out.message = fmt::format("{} and {} are the same: {}", good_name, bad_name, c.reason);
      return out;
    }
    n = stats::next_sample_count(std::min(refs.good.size(), refs.bad.size()), opt.plan);
    if (n == 0) {
      out.status = Status::inconclusive_endpoints;
      out.message = fmt::format("{} is not significantly different from {} after {} runs each: {}", bad_name,
                                good_name, refs.good.size(), c.reason);
      return out;
    }
  }
}

Step test_commit(std::size_t index, References& refs, const Oracle& oracle, const Options& opt) {
  if (!(opt.step_alpha > 0)) {
    throw std::invalid_argument("bisect::test_commit: step_alpha must be > 0 (see default_step_alpha)");
  }
  stats::next_sample_count(opt.plan.initial, opt.plan);  // validates the plan
  Options step_opt = opt;
  step_opt.verdict.alpha = opt.step_alpha;
  Step step;
  step.index = index;
  std::size_t n = opt.plan.initial;
  while (true) {
    if (!measure(oracle, index, n - step.samples.size(), step.samples, step.reason)) {
      step.result = StepResult::skip;
      return step;
    }
    if (opt.grow_references && refs.can_grow) grow_references(refs, step.samples.size(), oracle);
    const Classification c = classify(refs.good, refs.bad, step.samples, step_opt);
    step.change_vs_good = c.vs_good.relative_change;
    step.p_vs_good = c.vs_good.p_min;
    step.p_vs_bad = c.vs_bad.p_min;
    step.reason = c.reason;
    if (c.call != Call::unknown) {
      step.result = c.call == Call::good ? StepResult::good : StepResult::bad;
      return step;
    }
    n = stats::next_sample_count(step.samples.size(), opt.plan);
    if (n == 0) {
      step.result = StepResult::skip;
      step.reason += fmt::format(" at the cap of {} runs", opt.plan.cap);
      return step;
    }
  }
}

Result bisect(std::span<const std::string> commits, const Oracle& oracle, const Options& opt) {
  if (commits.size() < 2) {
    throw std::invalid_argument("bisect: need at least the good and the bad commit");
  }
  stats::next_sample_count(opt.plan.initial, opt.plan);  // validates the plan
  Result r;
  References refs;
  refs.bad_index = commits.size() - 1;
  Options step_opt = opt;
  if (step_opt.step_alpha <= 0) step_opt.step_alpha = default_step_alpha(commits.size(), opt.verdict.alpha);
  r.step_alpha = step_opt.step_alpha;

  EndsCheck ends = check_ends(refs, oracle, opt, commits.front(), commits.back());
  r.endpoints = std::move(ends.comparison);
  if (ends.confirmed) {
    std::size_t lo = refs.good_index, hi = refs.bad_index;
    std::set<std::size_t> skipped;
    for (std::size_t next = pick(lo, hi, skipped); next != 0; next = pick(lo, hi, skipped)) {
      Step step = test_commit(next, refs, oracle, step_opt);
      if (step.result == StepResult::good) lo = next;
      if (step.result == StepResult::bad) hi = next;
      if (step.result == StepResult::skip) skipped.insert(next);
      r.step_runs += step.samples.size();
      r.steps.push_back(std::move(step));
    }
    r.range_first = lo + 1;
    r.range_last = hi;
    if (lo + 1 == hi) {
      r.status = Status::found;
      r.first_bad = hi;
      r.message = fmt::format("first bad commit: {}", commits[hi]);
    } else {
      r.status = Status::hidden_by_skips;
      r.message = fmt::format("the first bad commit is one of {} commits from {} to {} (skips hide it)",
                              hi - lo, commits[lo + 1], commits[hi]);
    }
  } else {
    r.status = ends.status;
    r.message = std::move(ends.message);
  }
  r.good_samples = std::move(refs.good);
  r.bad_samples = std::move(refs.bad);
  r.endpoint_runs = refs.runs;
  return r;
}

}  // namespace rlab::bisect
