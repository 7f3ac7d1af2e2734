// Bisection logic against deterministic fake oracles (seeded noise, fixed levels).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bisect/bisect.hpp"
#include "stats/random.hpp"

namespace rlab::bisect {
namespace {

std::vector<std::string> names(std::size_t n) {
  std::vector<std::string> c;
  for (std::size_t i = 0; i < n; ++i) c.push_back("commit" + std::to_string(i));
  return c;
}

// Oracle: normal samples around level(i) with stddev `sd`, seeded; `broken` commits fail.
struct FakeOracle {
  explicit FakeOracle(std::function<double(std::size_t)> l, double s = 1) : level(std::move(l)), sd(s) {}
  std::function<double(std::size_t)> level;
  double sd = 1;
  std::set<std::size_t> broken;
  stats::Rng rng{42};
  std::map<std::size_t, std::vector<std::size_t>> requests;  // index -> runs asked, in order

  Measurement operator()(std::size_t i, std::size_t runs) {
    requests[i].push_back(runs);
    Measurement m;
    if (broken.count(i)) {
      m.failure = "build failed";
      return m;
    }
    for (std::size_t k = 0; k < runs; ++k) m.samples.push_back(level(i) + sd * rng.normal());
    return m;
  }
};

Oracle ref(FakeOracle& f) {
  return [&f](std::size_t i, std::size_t runs) { return f(i, runs); };
}

TEST(Bisect, FindsTheCulpritWithinTheStepBound) {
  for (std::size_t n : {2u, 3u, 5u, 17u, 64u, 100u}) {
    for (std::size_t culprit : {std::size_t{1}, n / 2, n - 1}) {
      if (culprit == 0) continue;
      FakeOracle f{[&](std::size_t i) { return i >= culprit ? 90.0 : 100.0; }};
      const auto commits = names(n);
      const Result r = bisect(commits, ref(f));
      ASSERT_EQ(status_name(r.status), "found") << n << " " << culprit << ": " << r.message;
      EXPECT_EQ(r.first_bad, culprit) << "n " << n;
      EXPECT_EQ(r.message, "first bad commit: commit" + std::to_string(culprit));
      const double bound = n > 2 ? std::ceil(std::log2(static_cast<double>(n - 1))) : 0;
      EXPECT_LE(static_cast<double>(r.steps.size()), bound) << "n " << n;
      for (const Step& s : r.steps) {
        EXPECT_EQ(step_result_name(s.result), s.index >= culprit ? "bad" : "good") << s.reason;
        EXPECT_EQ(s.samples.size(), 10u);  // a 10-sigma step is clear with the first runs
      }
      EXPECT_EQ(r.endpoint_runs, 20u);
      EXPECT_EQ(r.step_runs, 10 * r.steps.size());
    }
  }
}

TEST(Bisect, SkipsBrokenCommitsAndStillFindsTheCulprit) {
  FakeOracle f{[](std::size_t i) { return i >= 11 ? 90.0 : 100.0; }};
  f.broken = {8, 9, 16};  // 16 is the first midpoint
  const auto commits = names(33);
  const Result r = bisect(commits, ref(f));
  ASSERT_EQ(r.status, Status::found) << r.message;
  EXPECT_EQ(r.first_bad, 11u);
  std::size_t skips = 0;
  for (const Step& s : r.steps) {
    if (s.result == StepResult::skip) {
      ++skips;
      EXPECT_EQ(s.reason, "build failed");
      EXPECT_EQ(f.requests[s.index].size(), 1u);  // never asked again
    }
  }
  EXPECT_GE(skips, 1u);
  EXPECT_DOUBLE_EQ(r.step_alpha, 0.01 / 5);  // Bonferroni over ceil(log2 32) = 5 steps
}

TEST(Bisect, StepAlphaCanBeSet) {
  FakeOracle f{[](std::size_t i) { return i >= 3 ? 90.0 : 100.0; }};
  Options opt;
  opt.step_alpha = 0.05;
  const auto commits = names(8);
  EXPECT_EQ(bisect(commits, ref(f), opt).step_alpha, 0.05);
}

TEST(Bisect, ReportsTheRangeHiddenBySkips) {
  FakeOracle f{[](std::size_t i) { return i >= 5 ? 90.0 : 100.0; }};
  f.broken = {4, 5};
  const auto commits = names(10);
  const Result r = bisect(commits, ref(f));
  ASSERT_EQ(r.status, Status::hidden_by_skips) << r.message;
  EXPECT_EQ(r.range_first, 4u);
  EXPECT_EQ(r.range_last, 6u);
  EXPECT_NE(r.message.find("from commit4 to commit6"), std::string::npos) << r.message;
}

TEST(Bisect, AmbiguousCommitDoublesRunsThenIsSkipped) {
  // Commit 2 sits halfway between the ends: unlike both, so unknown at every size.
  FakeOracle f{[](std::size_t i) { return i == 2 ? 95.0 : (i >= 3 ? 90.0 : 100.0); }, 0.5};
  const auto commits = names(5);
  const Result r = bisect(commits, ref(f));
  EXPECT_EQ(f.requests[2], (std::vector<std::size_t>{10, 10, 20, 40}));  // 10 -> 20 -> 40 -> 80
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(r.steps.front().index, 2u);
  EXPECT_EQ(r.steps.front().result, StepResult::skip);
  EXPECT_NE(r.steps.front().reason.find("at the cap of 80 runs"), std::string::npos);
  // The ends were topped up to the commit's size so that they never limit the comparison.
  EXPECT_EQ(r.good_samples.size(), 80u);
  EXPECT_EQ(r.bad_samples.size(), 80u);
  // 3 is bad, 1 is good, 2 is skipped: the first bad commit is 2 or 3.
  EXPECT_EQ(r.status, Status::hidden_by_skips);
  EXPECT_EQ(r.range_first, 2u);
  EXPECT_EQ(r.range_last, 3u);
}

TEST(Bisect, StopsWhenTheEndsAreTheSame) {
  FakeOracle f{[](std::size_t) { return 100.0; }, 0.1};
  const auto commits = names(20);
  const Result r = bisect(commits, ref(f));
  EXPECT_EQ(r.status, Status::no_regression) << r.message;
  EXPECT_TRUE(r.steps.empty());
  EXPECT_EQ(r.endpoints.verdict, stats::Verdict::same);
}

TEST(Bisect, StopsWhenTheEndsStayUnknownAtTheCap) {
  // 1% apart in 10% noise: neither significant nor ruled out, even at 80 runs.
  FakeOracle f{[](std::size_t i) { return i == 19 ? 99.0 : 100.0; }, 10};
  const auto commits = names(20);
  const Result r = bisect(commits, ref(f));
  EXPECT_EQ(r.status, Status::inconclusive_endpoints) << r.message;
  EXPECT_EQ(r.endpoint_runs, 160u);
  EXPECT_EQ(f.requests[0], (std::vector<std::size_t>{10, 10, 20, 40}));
}

TEST(Bisect, DirectionAndPolarity) {
  const auto commits = names(40);
  {  // bad is faster: not a regression
    FakeOracle f{[](std::size_t i) { return i >= 30 ? 110.0 : 100.0; }};
    const Result r = bisect(commits, ref(f));
    EXPECT_EQ(r.status, Status::wrong_direction) << r.message;
  }
  {  // ... but bisecting the improvement finds it
    FakeOracle f{[](std::size_t i) { return i >= 30 ? 110.0 : 100.0; }};
    Options opt;
    opt.direction = Direction::improvement;
    const Result r = bisect(commits, ref(f), opt);
    ASSERT_EQ(r.status, Status::found) << r.message;
    EXPECT_EQ(r.first_bad, 30u);
  }
  {  // latency: higher is worse
    FakeOracle f{[](std::size_t i) { return i >= 7 ? 120.0 : 100.0; }};
    Options opt;
    opt.higher_is_better = false;
    const Result r = bisect(commits, ref(f), opt);
    ASSERT_EQ(r.status, Status::found) << r.message;
    EXPECT_EQ(r.first_bad, 7u);
  }
}

TEST(Bisect, EndpointFailureAndBadInput) {
  FakeOracle f{[](std::size_t i) { return i >= 3 ? 90.0 : 100.0; }};
  f.broken = {0};
  const auto commits = names(8);
  const Result r = bisect(commits, ref(f));
  EXPECT_EQ(r.status, Status::endpoint_failed);
  EXPECT_NE(r.message.find("build failed"), std::string::npos);
  EXPECT_THROW(bisect(names(1), ref(f)), std::invalid_argument);
  Oracle short_oracle = [](std::size_t, std::size_t) { return Measurement{{1.0}, ""}; };
  EXPECT_THROW(bisect(names(4), short_oracle), std::runtime_error);
}

TEST(Bisect, OneStepOnItsOwn) {
  // As a step driven from outside (git bisect run): ends measured earlier, one commit tested.
  FakeOracle f{[](std::size_t i) { return i >= 4 ? 90.0 : 100.0; }};
  References refs;
  refs.good_index = 0;
  refs.bad_index = 9;
  Options opt;
  const EndsCheck ends = check_ends(refs, ref(f), opt, "v1", "v2");
  ASSERT_TRUE(ends.confirmed) << ends.message;
  EXPECT_EQ(ends.message.rfind("v2 is -", 0), 0u) << ends.message;
  EXPECT_NE(ends.message.find("against v1"), std::string::npos) << ends.message;
  EXPECT_EQ(refs.runs, 20u);
  EXPECT_THROW(test_commit(5, refs, ref(f), opt), std::invalid_argument);  // step_alpha unset
  opt.step_alpha = default_step_alpha(10, opt.verdict.alpha);
  EXPECT_DOUBLE_EQ(opt.step_alpha, 0.01 / 4);
  EXPECT_EQ(test_commit(5, refs, ref(f), opt).result, StepResult::bad);
  EXPECT_EQ(test_commit(3, refs, ref(f), opt).result, StepResult::good);
  EXPECT_EQ(f.requests[5], (std::vector<std::size_t>{10}));
}

TEST(Bisect, ClassifyRule) {
  stats::Rng rng(7);
  auto sample = [&](double level) {
    std::vector<double> x(12);
    for (double& v : x) v = level + rng.normal();
    return x;
  };
  const auto good = sample(100), bad = sample(90);
  const Options opt;
  EXPECT_EQ(classify(good, bad, sample(100), opt).call, Call::good);
  EXPECT_EQ(classify(good, bad, sample(90), opt).call, Call::bad);
  EXPECT_EQ(classify(good, bad, sample(95), opt).call, Call::unknown);   // like neither
  EXPECT_EQ(classify(good, bad, sample(110), opt).call, Call::unknown);  // beyond good: not bad
  const auto c = classify(good, bad, sample(90), opt);
  EXPECT_LT(c.vs_good.p_min, 0.01);
  EXPECT_NEAR(c.vs_good.relative_change, -0.10, 0.02);
  EXPECT_NE(c.reason.find("-> bad"), std::string::npos) << c.reason;
  EXPECT_THROW(classify(good, good, sample(90), opt), std::invalid_argument);
}

}  // namespace
}  // namespace rlab::bisect
