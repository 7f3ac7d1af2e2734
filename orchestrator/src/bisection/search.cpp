#include "bisection/search.hpp"

#include "stats/descriptive.hpp"
#include "stats/pooled_t.hpp"
#include "stats/power.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlab::bisection {

ListBisecter::ListBisecter(std::vector<std::string> commits) : commits_(std::move(commits)) {
  if (commits_.size() < 2) throw std::invalid_argument("bisect: need at least the good and the bad commit");
  auto sorted = commits_;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw std::invalid_argument("bisect: a commit appears twice in the list");
  hi_ = commits_.size() - 1;
}

std::size_t ListBisecter::index(const std::string& commit) const {
  const auto it = std::find(commits_.begin(), commits_.end(), commit);
  if (it == commits_.end()) throw std::invalid_argument("bisect: '" + commit + "' is not in the list");
  return static_cast<std::size_t>(it - commits_.begin());
}

SearchState ListBisecter::state() {
  SearchState s;
  // The not-skipped commit strictly inside (lo, hi) nearest the middle.
  const std::size_t mid = lo_ + (hi_ - lo_) / 2;
  for (std::size_t d = 0; hi_ - lo_ >= 2 && d < hi_ - lo_; ++d) {
    if (mid >= lo_ + 1 + d && !skipped_.count(mid - d)) {
      s.next = commits_[mid - d];
      return s;
    }
    if (mid + d + 1 <= hi_ - 1 && !skipped_.count(mid + d + 1)) {
      s.next = commits_[mid + d + 1];
      return s;
    }
  }
  s.done = true;
  if (hi_ - lo_ == 1) s.first_bad = commits_[hi_];
  else s.candidates.assign(commits_.begin() + static_cast<std::ptrdiff_t>(lo_ + 1),
                           commits_.begin() + static_cast<std::ptrdiff_t>(hi_ + 1));
  return s;
}

void ListBisecter::mark(const std::string& commit, StepResult result) {
  const std::size_t i = index(commit);
  if (i <= lo_ || i >= hi_)
    throw std::invalid_argument(fmt::format("bisect: '{}' is outside the range left to search", commit));
  if (result == StepResult::good) lo_ = i;
  if (result == StepResult::bad) hi_ = i;
  if (result == StepResult::skip) skipped_.insert(i);
}

SearchEnd search(Bisecter& bisecter, const std::function<StepAnswer(const std::string&)>& answer,
                 std::size_t max_answers, const std::function<bool(const std::string&)>& stop) {
  SearchEnd end;
  for (auto s = bisecter.state();; s = bisecter.state()) {
    if (s.done) {
      end.status = s.first_bad.empty() ? Status::hidden_by_skips : Status::found;
      end.first_bad = std::move(s.first_bad);
      end.candidates = std::move(s.candidates);
      return end;
    }
    end.last = s.next;
    if (stop && stop(s.next)) {
      end.stopped = true;
      return end;
    }
    if (end.answered == max_answers)
      throw std::runtime_error(fmt::format("bisect: more than {} commits asked for (next {}): the search "
                                           "does not converge", max_answers, s.next));
    const StepAnswer a = answer(s.next);
    ++end.answered;
    if (!a.ends_differ) {
      end.status = Status::inconclusive_endpoints;
      return end;
    }
    bisecter.mark(s.next, a.result);
  }
}

StepPlan plan_steps(const Options& opt, std::span<const double> good, std::span<const double> bad) {
  if (!(opt.step_alpha > 0)) throw std::invalid_argument("bisection::plan_steps: step_alpha must be > 0");
  StepPlan p;
  p.initial = opt.plan.initial;
  if (good.size() < 2 || bad.size() < 2) return p;
  const double mg = stats::median(good);
  if (!(mg > 0)) return p;
  p.change = (stats::median(bad) - mg) / mg;
  const double sg = stats::stddev(good) / stats::mean(good), sb = stats::stddev(bad) / stats::mean(bad);
  p.noise = std::sqrt((sg * sg + sb * sb) / 2);
  if (p.change == 0) return p;
  const auto cap = static_cast<unsigned>(opt.plan.cap);
  if (opt.deterministic) {  // the pooled t test the steps run, against the fewer end's boots
    if (!(opt.resolution > 0))
      throw std::invalid_argument("bisection::plan_steps: deterministic steps need the score's resolution > 0");
    const auto spread = stats::pooled_spread({good, bad});
    const double sd = std::max(spread.sd, opt.resolution / 2);
    p.noise = sd / stats::mean(good);
    const unsigned reference = static_cast<unsigned>(std::min(good.size(), bad.size()));
    const double shift = stats::mean(bad) - stats::mean(good);
    // No plan when the means do not differ (an outlier against the medians): the cap.
    const auto need = shift == 0 ? std::nullopt
                                 : stats::boots_for_shift(sd, shift, reference, spread.df, cap, opt.step_alpha, 0.9);
    p.initial = need ? *need : opt.plan.cap;
    return p;
  }
  const auto need = stats::boots_for_effect(*p.noise, std::abs(p.change), cap, opt.step_alpha, 0.9);
  p.initial = need ? *need : opt.plan.cap;
  return p;
}

}  // namespace rlab::bisection
