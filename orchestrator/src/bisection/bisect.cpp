#include "bisection/bisect.hpp"

#include <fmt/format.h>

#include "bisection/search.hpp"
#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <stdexcept>

namespace rlab::bisection {

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

// Asks the oracle for `requests` (interleaved) and checks the answer's shape.
std::vector<Measurement> ask(const Oracle& oracle, std::span<const Request> requests) {
  auto got = oracle(requests);
  if (got.size() != requests.size())
    throw std::runtime_error(fmt::format("bisect: the oracle answered {} of {} requests", got.size(),
                                         requests.size()));
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (got[k].failure.empty() && got[k].samples.size() != requests[k].runs)
      throw std::runtime_error(fmt::format("bisect: the oracle returned {} samples of commit #{}, wanted {}",
                                           got[k].samples.size(), requests[k].index, requests[k].runs));
  }
  return got;
}

// The request whose failure explains the answer: the first that failed on its own rather
// than because another commit of the request did (Failure::not_measured); got.size() if none.
std::size_t blamed(const std::vector<Measurement>& got, std::size_t prefer) {
  const auto own = [&](std::size_t k) { return !got[k].failure.empty() && got[k].kind != Failure::not_measured; };
  if (prefer < got.size() && own(prefer)) return prefer;
  std::size_t any = got.size();
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (got[k].failure.empty()) continue;
    if (own(k)) return k;
    if (any == got.size()) any = k;
  }
  return any;
}

// Requests that bring each of `targets` to `n` samples (those already there are left out);
// `slots` receives, per request, the position in `targets`.
std::vector<Request> top_up(std::span<const std::pair<std::size_t, std::vector<double>*>> targets,
                            std::size_t n, std::vector<std::size_t>& slots) {
  std::vector<Request> out;
  slots.clear();
  for (std::size_t k = 0; k < targets.size(); ++k) {
    if (targets[k].second->size() >= n) continue;
    out.push_back({targets[k].first, n - targets[k].second->size()});
    slots.push_back(k);
  }
  return out;
}

}  // namespace

EndsCheck check_ends(References& refs, const Oracle& oracle, const Options& opt,
                     std::string_view good_name, std::string_view bad_name) {
  EndsCheck out;
  std::size_t n = std::max(opt.plan.initial, std::max(refs.good.size(), refs.bad.size()));
  const std::pair<std::size_t, std::vector<double>*> ends[] = {{refs.good_index, &refs.good},
                                                                 {refs.bad_index, &refs.bad}};
  std::vector<std::size_t> slots;
  while (true) {
    const auto requests = top_up(ends, n, slots);
    if (!requests.empty()) {
      const auto got = ask(oracle, requests);
      if (const std::size_t k = blamed(got, got.size()); k < got.size()) {
        out.status = Status::endpoint_failed;
        out.message = fmt::format("cannot measure {}: {}", slots[k] == 0 ? good_name : bad_name,
                                  got[k].failure);
        return out;
      }
      for (std::size_t k = 0; k < got.size(); ++k) {
        auto& into = *ends[slots[k]].second;
        into.insert(into.end(), got[k].samples.begin(), got[k].samples.end());
        refs.runs += got[k].samples.size();
      }
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

namespace {

/// Classifies the step's commit against the step's ends (its figures and reason filled in);
/// true when it is good or bad, false while unknown (including while the step's ends do not
/// show the change in the bisected direction: no reference to classify against).
bool judge(Step& step, const Options& step_opt) {
  const double mg = stats::median(step.good), mb = stats::median(step.bad);
  if ((mb > mg ? 1 : (mb < mg ? -1 : 0)) != expected_sign(step_opt)) {
    step.references_differ = false;
    const auto d = stats::test_difference(step.good, step.samples, step_opt.verdict);
    step.change_vs_good = d.relative_change;
    step.p_vs_good = d.p_min;
    step.p_vs_bad = 1;
    step.reason = fmt::format("{} (good median {:.4g}, bad {:.4g}) -> unknown", kEndsDidNotDiffer, mg, mb);
    return false;
  }
  step.references_differ = true;
  const Classification c = classify(step.good, step.bad, step.samples, step_opt);
  step.change_vs_good = c.vs_good.relative_change;
  step.p_vs_good = c.vs_good.p_min;
  step.p_vs_bad = c.vs_bad.p_min;
  step.reason = c.reason;
  if (c.call == Call::unknown) return false;
  step.result = c.call == Call::good ? StepResult::good : StepResult::bad;
  return true;
}

}  // namespace

Step test_commit(std::size_t index, const References& refs, const Oracle& oracle, const Options& opt) {
  if (!(opt.step_alpha > 0)) {
    throw std::invalid_argument("bisection::test_commit: step_alpha must be > 0 (see default_step_alpha)");
  }
  stats::next_sample_count(opt.plan.initial, opt.plan);  // validates the plan
  Options step_opt = opt;
  step_opt.verdict.alpha = opt.step_alpha;
  Step step;
  step.index = index;
  if (opt.deterministic) {
    if (refs.good.size() < 2 || refs.bad.size() < 2 || !(opt.resolution > 0))
      throw std::invalid_argument("bisection::test_commit: deterministic steps need two samples of each end "
                                  "and the score's resolution");
    step.good = refs.good;
    step.bad = refs.bad;
  }
  const std::pair<std::size_t, std::vector<double>*> three[] = {
      {refs.good_index, &step.good}, {index, &step.samples}, {refs.bad_index, &step.bad}};
  // Which of `three` this step boots: all (paired in time), or the commit alone.
  const std::span<const std::pair<std::size_t, std::vector<double>*>> booted =
      opt.deterministic ? std::span(three).subspan(1, 1) : std::span(three);
  const std::size_t first = opt.deterministic ? 1 : 0;
  const char* names[] = {"the good end", "the commit", "the bad end"};
  std::vector<std::size_t> slots;
  std::size_t n = opt.plan.initial;
  while (true) {
    const auto requests = top_up(booted, n, slots);
    for (auto& k : slots) k += first;  // positions in `three`
    const auto got = ask(oracle, requests);
    const std::size_t commit_slot = static_cast<std::size_t>(
        std::find(slots.begin(), slots.end(), std::size_t{1}) - slots.begin());
    if (const std::size_t k = blamed(got, commit_slot); k < got.size()) {
      step.result = StepResult::skip;
      step.reason = slots[k] == 1 ? got[k].failure
                                  : fmt::format("{} failed alongside: {}", names[slots[k]], got[k].failure);
      return step;
    }
    for (std::size_t k = 0; k < got.size(); ++k) {
      auto& into = *three[slots[k]].second;
      into.insert(into.end(), got[k].samples.begin(), got[k].samples.end());
    }
    if (judge(step, step_opt)) return step;
    n = stats::next_sample_count(step.samples.size(), opt.plan);
    if (n == 0) {
      step.result = StepResult::skip;
      step.reason += fmt::format(" at the cap of {} runs", opt.plan.cap);
      return step;
    }
  }
}

Result bisect(std::span<const std::string> commits, const Oracle& oracle, const Options& opt) {
  ListBisecter list(std::vector<std::string>(commits.begin(), commits.end()));  // validates the list
  stats::next_sample_count(opt.plan.initial, opt.plan);  // validates the plan
  Result r;
  References refs;
  refs.bad_index = commits.size() - 1;
  Options step_opt = opt;
  if (step_opt.step_alpha <= 0) step_opt.step_alpha = default_step_alpha(commits.size(), opt.verdict.alpha);
  r.step_alpha = step_opt.step_alpha;

  EndsCheck ends = check_ends(refs, oracle, opt, commits.front(), commits.back());
  r.endpoints = std::move(ends.comparison);
  r.good_samples = refs.good;
  r.bad_samples = refs.bad;
  r.endpoint_runs = refs.runs;
  if (!ends.confirmed) {
    r.status = ends.status;
    r.message = std::move(ends.message);
    return r;
  }
  // The steps start with the boots the ends' noise and change call for, as in `rlab bisect`.
  step_opt.plan.initial = plan_steps(step_opt, refs.good, refs.bad).initial;
  const auto answer = [&](const std::string& commit) {
    Step step = test_commit(list.index(commit), refs, oracle, step_opt);
    r.step_runs += step.samples.size();
    if (!opt.deterministic) r.reference_runs += step.good.size() + step.bad.size();
    const StepAnswer a{step.result, step.references_differ};
    r.steps.push_back(std::move(step));
    return a;
  };
  const SearchEnd end = search(list, answer, commits.size());
  r.status = end.status;
  r.range_first = list.lo() + 1;
  r.range_last = list.hi();
  if (end.status == Status::inconclusive_endpoints) {
    r.message = fmt::format("the ends booted alongside commit {} did not differ in the expected "
                            "direction at the cap: the change between {} and {} did not reproduce",
                            end.last, commits.front(), commits.back());
  } else if (end.status == Status::found) {
    r.first_bad = list.hi();
    r.message = fmt::format("first bad commit: {}", end.first_bad);
  } else {
    r.message = fmt::format("the first bad commit is one of {} commits from {} to {} (skips hide it)",
                            end.candidates.size(), end.candidates.front(), end.candidates.back());
  }
  return r;
}

}  // namespace rlab::bisection
