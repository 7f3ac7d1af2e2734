// Bisection logic against deterministic fake oracles (seeded noise, fixed levels).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bisection/bisect.hpp"
#include "bisection/search.hpp"
#include "stats/random.hpp"

namespace rlab::bisection {
namespace {

std::vector<std::string> names(std::size_t n) {
  std::vector<std::string> c;
  for (std::size_t i = 0; i < n; ++i) c.push_back("commit" + std::to_string(i));
  return c;
}

// Oracle: normal samples around level(i) with stddev `sd`, seeded; `broken` commits fail.
// `drift` adds drift * (runs so far) to every level: a host that gets slower or faster. It
// boots interleaved, as the contract says (round-robin, rotated each round).
struct FakeOracle {
  explicit FakeOracle(std::function<double(std::size_t)> l, double s = 1) : level(std::move(l)), sd(s) {}
  std::function<double(std::size_t)> level;
  double sd = 1;
  std::set<std::size_t> broken;
  stats::Rng rng{42};
  double drift = 0;
  std::size_t clock = 0;
  std::map<std::size_t, std::vector<std::size_t>> requests;  // index -> runs asked, in order
  std::vector<std::size_t> order;                            // indices in the order measured

  std::vector<Measurement> operator()(std::span<const Request> rq) {
    std::vector<Measurement> out(rq.size());
    std::size_t rounds = 0;
    for (std::size_t k = 0; k < rq.size(); ++k) {
      requests[rq[k].index].push_back(rq[k].runs);
      if (broken.count(rq[k].index)) out[k].failure = "build failed";
      else rounds = std::max(rounds, rq[k].runs);
    }
    for (std::size_t r = 0; r < rounds; ++r)
      for (std::size_t j = 0; j < rq.size(); ++j) {
        const std::size_t k = (j + r) % rq.size();
        if (!out[k].failure.empty() || out[k].samples.size() >= rq[k].runs) continue;
        order.push_back(rq[k].index);
        out[k].samples.push_back(level(rq[k].index) + drift * static_cast<double>(clock++) + sd * rng.normal());
      }
    return out;
  }
};

Oracle ref(FakeOracle& f) {
  return [&f](std::span<const Request> rq) { return f(rq); };
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
      // Steps start with the boots the ends' noise and change call for: a 10-sigma change
      // needs no more than the rank test's floor at the step alpha, fewer than the ends' 10.
      Options planned;
      planned.step_alpha = r.step_alpha;
      const std::size_t boots = plan_steps(planned, r.good_samples, r.bad_samples).initial;
      EXPECT_LT(boots, 10u);
      for (const Step& s : r.steps) {
        EXPECT_EQ(step_result_name(s.result), s.index >= culprit ? "bad" : "good") << s.reason;
        EXPECT_EQ(s.samples.size(), boots) << "clear with the planned boots";
      }
      EXPECT_EQ(r.endpoint_runs, 20u);
      EXPECT_EQ(r.step_runs, boots * r.steps.size());
      EXPECT_EQ(r.reference_runs, 2 * boots * r.steps.size());  // both ends alongside every step
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
  // 6 planned (the least n against n whose exact rank test reaches 0.01 / 2), then doubled:
  // 6 -> 12 -> 24 -> 48 -> 80 (the cap).
  EXPECT_EQ(f.requests[2], (std::vector<std::size_t>{6, 6, 12, 24, 32}));
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(r.steps.front().index, 2u);
  EXPECT_EQ(r.steps.front().result, StepResult::skip);
  EXPECT_NE(r.steps.front().reason.find("at the cap of 80 runs"), std::string::npos);
  // The ends were measured alongside, as many times as the commit.
  EXPECT_EQ(r.steps.front().good.size(), 80u);
  EXPECT_EQ(r.steps.front().bad.size(), 80u);
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
  Oracle short_oracle = [](std::span<const Request> rq) {
    return std::vector<Measurement>(rq.size(), Measurement{{1.0}, ""});
  };
  EXPECT_THROW(bisect(names(4), short_oracle), std::runtime_error);
  Oracle lost_oracle = [](std::span<const Request>) { return std::vector<Measurement>{}; };
  EXPECT_THROW(bisect(names(4), lost_oracle), std::runtime_error);
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
  // Each step measured the ends again, interleaved with the commit: G X B, X B G, B G X, ...
  const std::vector<std::size_t> first_rounds(f.order.end() - 60, f.order.end() - 54);
  EXPECT_EQ(first_rounds, (std::vector<std::size_t>{0, 5, 9, 5, 9, 0}));
}

// Deterministic measurement: steps boot the commit alone and classify against the ends' own
// samples with the pooled t test; the bisection still names the culprit, at a third of the
// boots per step and with as few boots as the t test needs.
TEST(Bisect, DeterministicStepsBootOnlyTheCommit) {
  FakeOracle f{[](std::size_t i) { return i >= 11 ? 90.0 : 100.0; }, 0.2};
  Options opt;
  opt.deterministic = true;
  opt.resolution = 1;  // spread floored at 0.5, above the oracle's 0.2
  opt.plan.initial = 5;
  const auto commits = names(17);
  const Result r = bisect(commits, ref(f), opt);
  ASSERT_EQ(status_name(r.status), "found") << r.message;
  EXPECT_EQ(r.first_bad, 11u);
  EXPECT_EQ(r.reference_runs, 0u) << "no end is booted beside a step";
  for (const Step& s : r.steps) {
    // 10 apart at a spread of 0.5 against 5 boots: 2 boots reach 0.01 / 4 with power 0.9.
    EXPECT_EQ(s.samples.size(), 2u) << s.reason;
    EXPECT_EQ(f.requests[s.index], (std::vector<std::size_t>{2})) << "one request, the commit's";
    EXPECT_EQ(s.good, r.good_samples) << "classified against the ends' own samples";
    EXPECT_NE(s.reason.find("pooled t test"), std::string::npos) << s.reason;
  }
  EXPECT_EQ(f.requests[0].size(), 1u) << "the good end is measured once, by check_ends";
  EXPECT_EQ(f.requests[16].size(), 1u);
  References none;
  none.bad_index = 16;
  opt.step_alpha = 0.01;
  EXPECT_THROW(test_commit(5, none, ref(f), opt), std::invalid_argument) << "no ends' samples to reuse";
  References ends;
  ends.bad_index = 16;
  ends.good = r.good_samples;
  ends.bad = r.bad_samples;
  opt.resolution = 0;
  EXPECT_THROW(test_commit(5, ends, ref(f), opt), std::invalid_argument) << "no resolution to floor the spread";
}

// Under icount every boot of a kernel scores the same: a rank test needs 8 boots against the
// ends' 5 to reach 0.0025 however far apart they are (2 / C(13, 5)); the t test with its
// spread floored at half a loop decides with 2, and a commit one loop off an end is still
// like it.
TEST(Bisect, DeterministicStepOfIdenticalScores) {
  const std::vector<double> good(5, 210.0), bad(5, 201.0);  // 70 and 67 loops in 20 s
  FakeOracle f{[](std::size_t i) { return i >= 8 ? 201.0 : (i == 4 ? 207.0 : 210.0); }, 0};
  References refs;
  refs.bad_index = 15;
  refs.good = good;
  refs.bad = bad;
  Options opt;
  opt.deterministic = true;
  opt.resolution = 3;  // 60 / 20 s: one loop
  opt.step_alpha = 0.0025;
  opt.plan.initial = 2;
  opt.plan.cap = 8;
  const Step b = test_commit(9, refs, ref(f), opt);
  EXPECT_EQ(b.result, StepResult::bad) << b.reason;
  EXPECT_EQ(b.samples.size(), 2u);
  EXPECT_LT(b.p_vs_good, 0.0025);
  const Step g = test_commit(2, refs, ref(f), opt);
  EXPECT_EQ(g.result, StepResult::good) << g.reason;
  EXPECT_EQ(g.samples.size(), 2u);
  // One loop below the good end (209 lpm would be 1/3 loop; 207 is one loop): still good.
  FakeOracle off{[](std::size_t) { return 207.0; }, 0};
  EXPECT_EQ(test_commit(3, refs, ref(off), opt).result, StepResult::good);
  // Between the ends (a second change): like neither, measured to the cap and skipped.
  FakeOracle mid{[](std::size_t) { return 205.5; }, 0};
  const Step m = test_commit(4, refs, ref(mid), opt);
  EXPECT_EQ(m.result, StepResult::skip) << m.reason;
  EXPECT_EQ(m.samples.size(), 8u);
}

TEST(Bisect, InterleavedStepsStayRightWhileTheHostDrifts) {
  // The host slows down by 0.5 per run: over the ~100 runs of a bisection that is 5 times the
  // 10-point effect. Samples taken one batch after another would call every commit "bad";
  // each step compares the commit with the ends measured in the same rounds instead.
  FakeOracle f{[](std::size_t i) { return i >= 13 ? 90.0 : 100.0; }, 0.3};
  f.drift = -0.5;
  const auto commits = names(20);
  const Result r = bisect(commits, ref(f));
  ASSERT_EQ(r.status, Status::found) << r.message;
  EXPECT_EQ(r.first_bad, 13u);
  for (const Step& s : r.steps)
    EXPECT_EQ(step_result_name(s.result), s.index >= 13 ? "bad" : "good") << s.index << ": " << s.reason;
  EXPECT_GT(f.clock, 100u);  // the drift really exceeded the effect
}

TEST(Bisect, AStepWhoseEndsDoNotDifferIsUnknown) {
  // The ends differ as expected when checked, but the other way round in a step's rounds:
  // unknown, measured up to the cap, then skipped; the reason says so, and the bisection
  // stops instead of skipping every commit of the range.
  std::size_t calls = 0;
  FakeOracle f{[](std::size_t i) { return i == 7 ? 110.0 : 100.0; }, 1};
  Oracle o = [&](std::span<const Request> rq) {
    auto out = f(rq);
    if (calls++ == 0)  // the ends check: bad clearly lower
      for (std::size_t k = 0; k < rq.size(); ++k)
        if (rq[k].index == 7) for (double& v : out[k].samples) v -= 30;
    return out;
  };
  Options opt;
  opt.plan = {5, 10};
  const auto commits = names(8);
  const Result r = bisect(commits, o, opt);
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(r.steps.front().result, StepResult::skip);
  EXPECT_NE(r.steps.front().reason.find("do not differ in the expected direction"), std::string::npos)
      << r.steps.front().reason;
  EXPECT_FALSE(r.steps.front().references_differ);
  EXPECT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.status, Status::inconclusive_endpoints);
  EXPECT_NE(r.message.find("did not reproduce"), std::string::npos) << r.message;
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
}  // namespace rlab::bisection

namespace rlab::bisection {
namespace {

/// A Bisecter that records what the loop asks and tells (over a ListBisecter).
struct Recording : ListBisecter {
  using ListBisecter::ListBisecter;
  std::vector<std::pair<std::string, StepResult>> marks;
  void mark(const std::string& c, StepResult r) override {
    marks.emplace_back(c, r);
    ListBisecter::mark(c, r);
  }
};

TEST(Search, ListBisecterNamesTheFirstBadCommitOrTheCandidates) {
  Recording b(names(9));
  const auto answer = [](const std::string& c) {
    if (c == "commit4") return StepAnswer{StepResult::skip};
    return StepAnswer{std::stoi(c.substr(6)) >= 5 ? StepResult::bad : StepResult::good};
  };
  const SearchEnd end = search(b, answer, 9);
  EXPECT_EQ(end.status, Status::hidden_by_skips);
  EXPECT_EQ(end.candidates, (std::vector<std::string>{"commit4", "commit5"}));
  EXPECT_EQ(b.marks.front().first, "commit4") << "the middle first";
  EXPECT_EQ(b.marks.front().second, StepResult::skip);
  EXPECT_EQ(end.answered, b.marks.size());

  ListBisecter clean(names(9));
  const SearchEnd found = search(clean, [](const std::string& c) {
    return StepAnswer{std::stoi(c.substr(6)) >= 3 ? StepResult::bad : StepResult::good};
  }, 9);
  EXPECT_EQ(found.status, Status::found);
  EXPECT_EQ(found.first_bad, "commit3");
  EXPECT_EQ(found.answered, 3u);  // ceil(log2 8)
  EXPECT_EQ(clean.lo(), 2u);
  EXPECT_EQ(clean.hi(), 3u);
}

TEST(Search, StopsWhenAskedWhenTheEndsVanishAndWhenItDoesNotConverge) {
  ListBisecter b(names(9));
  std::size_t answered = 0;
  const auto good = [&](const std::string&) {
    ++answered;
    return StepAnswer{StepResult::good};
  };
  const SearchEnd stopped = search(b, good, 9, [&](const std::string&) { return answered == 1; });
  EXPECT_TRUE(stopped.stopped);
  EXPECT_EQ(stopped.answered, 1u);
  EXPECT_EQ(stopped.last, "commit6") << "the next commit, not answered";
  // Resumed with the same bisecter, it goes on where it stopped.
  EXPECT_EQ(search(b, good, 9).first_bad, "commit8");

  ListBisecter v(names(9));
  const SearchEnd vanished = search(v, [](const std::string&) { return StepAnswer{StepResult::skip, false}; }, 9);
  EXPECT_EQ(vanished.status, Status::inconclusive_endpoints);
  EXPECT_EQ(vanished.last, "commit4");
  EXPECT_EQ(v.state().next, "commit4") << "not marked";

  ListBisecter w(names(9));
  EXPECT_THROW(search(w, good, 2), std::runtime_error);
  EXPECT_THROW(ListBisecter({"a"}), std::invalid_argument);
  EXPECT_THROW(ListBisecter({"a", "b", "a"}), std::invalid_argument);
  ListBisecter x(names(4));
  EXPECT_THROW(x.mark("commit0", StepResult::good), std::invalid_argument) << "an end";
  EXPECT_THROW(x.mark("nope", StepResult::good), std::invalid_argument);
}

TEST(Search, StepPlanFollowsTheEndsNoiseAndChange) {
  Options opt;
  opt.plan.initial = 5;
  opt.plan.cap = 20;
  opt.step_alpha = 0.005;
  // Fewer than two samples of an end: the session's initial.
  EXPECT_EQ(plan_steps(opt, std::vector<double>{100}, std::vector<double>{90, 91}).initial, 5u);
  // A 10% change at 0.5% noise: the rank test's floor, 6 against 6 (2 / C(12, 6) < 0.005).
  const std::vector<double> good{100, 100.5, 99.5, 100.2, 99.8}, bad{90, 90.5, 89.5, 90.2, 89.8};
  const StepPlan clear = plan_steps(opt, good, bad);
  EXPECT_EQ(clear.initial, 6u);
  EXPECT_NEAR(clear.change, -0.1, 1e-9);
  ASSERT_TRUE(clear.noise);
  EXPECT_LT(*clear.noise, 0.01);
  // Deterministic: the pooled t test against the ends' own 5 boots needs 2 for 10% at a
  // spread of 0.4; identical scores take the floor, half a loop.
  opt.deterministic = true;
  opt.resolution = 1;
  EXPECT_EQ(plan_steps(opt, good, bad).initial, 2u);
  const std::vector<double> g70(5, 210.0), b67(5, 201.0), b69(5, 207.0);
  opt.resolution = 3;
  const StepPlan floored = plan_steps(opt, g70, b67);
  EXPECT_EQ(floored.initial, 2u);
  ASSERT_TRUE(floored.noise);
  EXPECT_NEAR(*floored.noise, 1.5 / 210, 1e-12);
  // One loop apart is beyond any number of boots against 5: the cap.
  EXPECT_EQ(plan_steps(opt, g70, b69).initial, 20u);
  opt.resolution = 0;
  EXPECT_THROW(plan_steps(opt, g70, b67), std::invalid_argument) << "no floor for identical scores";
  opt.resolution = 3;
  // A 1% change in 5% noise needs more than the cap: the cap.
  const std::vector<double> g2{100, 105, 95, 102, 98}, b2{99, 104, 94, 101, 97};
  EXPECT_EQ(plan_steps(opt, g2, b2).initial, 20u);
  opt.step_alpha = 0;
  EXPECT_THROW(plan_steps(opt, good, bad), std::invalid_argument);
}

}  // namespace
}  // namespace rlab::bisection
