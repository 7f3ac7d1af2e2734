// The pooled t test of deterministic bisection steps: hand-worked spreads and p-values (df 2
// has the closed form p = 1 - |t| / sqrt(2 + t^2)), its size under the null by simulation, and
// the boots a shift needs.
#include "stats/pooled_t.hpp"
#include "stats/random.hpp"
#include "stats/student_t.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace rlab::stats;

TEST(PooledT, SpreadPoolsEachSampleAroundItsOwnMean) {
  const std::vector<double> a{1, 2, 3}, b{5}, c{7, 9};
  const auto s = pooled_spread({a, b, c});  // squares 2 + 0 + 2 over 6 - 3
  EXPECT_EQ(s.df, 3u);
  EXPECT_NEAR(s.sd, std::sqrt(4.0 / 3), 1e-12);
  const std::vector<double> empty;
  EXPECT_EQ(pooled_spread({a, empty}).df, 2u);  // an empty sample counts for nothing
  EXPECT_THROW(pooled_spread({b, b}), std::invalid_argument);  // 2 values in 2 samples: no df
  const std::vector<double> inf{1, INFINITY};
  EXPECT_THROW(pooled_spread({a, inf}), std::invalid_argument);
}

TEST(PooledT, HandWorkedPValues) {
  const std::vector<double> a{10, 12}, b{14, 16};
  const auto s = pooled_spread({a, b});  // sd sqrt(2), df 2
  // t = 4 / (sqrt(2) * 1) = 2.828: p = 1 - t / sqrt(2 + t^2) = 1 - 2.828 / sqrt(10)
  EXPECT_NEAR(pooled_t_p(a, b, s, 0), 1 - std::sqrt(8.0) / std::sqrt(10.0), 1e-9);
  EXPECT_NEAR(pooled_t_p(b, a, s, 0), pooled_t_p(a, b, s, 0), 1e-15);
  // A floor above the measured spread takes its place: t = 4 / 2 = 2, p = 1 - 2 / sqrt(6).
  EXPECT_NEAR(pooled_t_p(a, b, s, 2), 1 - 2 / std::sqrt(6.0), 1e-9);
  // A floor below it changes nothing.
  EXPECT_EQ(pooled_t_p(a, b, s, 1), pooled_t_p(a, b, s, 0));
}

TEST(PooledT, IdenticalScoresNeedTheFloor) {
  const std::vector<double> a{210, 210, 210}, same{210, 210}, lower{201, 201};
  const auto s = pooled_spread({a, lower});
  EXPECT_EQ(s.sd, 0);
  EXPECT_EQ(pooled_t_p(a, same, s, 0), 1.0);
  EXPECT_EQ(pooled_t_p(a, lower, s, 0), 0.0);  // any difference is "certain" without a floor
  // Half a loop of a 20 s pass (3 lpm a loop): 9 lpm is 6 floors, t = 6 / sqrt(1/3 + 1/2).
  const double t = 9 / (1.5 * std::sqrt(1.0 / 3 + 1.0 / 2));
  EXPECT_NEAR(pooled_t_p(a, lower, s, 1.5), 2 * t_cdf(-t, 3), 1e-12);
  EXPECT_GT(pooled_t_p(a, lower, s, 1.5), 0);
}

TEST(PooledT, DifferenceFollowsTheVerdictRule) {
  const std::vector<double> good{210, 210, 210, 210, 210}, bad{201, 201, 201, 201, 201}, commit{201, 201};
  const auto s = pooled_spread({good, bad, commit});
  VerdictOptions opt;
  opt.alpha = 0.0025;
  const auto vs_good = pooled_t_difference(good, commit, s, 1.5, opt);
  EXPECT_TRUE(vs_good.different);
  EXPECT_NEAR(vs_good.relative_change, -9.0 / 210, 1e-12);
  EXPECT_LT(vs_good.p_min, 0.0025);
  const auto vs_bad = pooled_t_difference(bad, commit, s, 1.5, opt);
  EXPECT_FALSE(vs_bad.significant);
  EXPECT_EQ(vs_bad.p_min, 1.0);
  opt.min_effect = 0.05;  // a 4.3 % change is significant but below this minimum effect
  const auto small = pooled_t_difference(good, commit, s, 1.5, opt);
  EXPECT_TRUE(small.significant);
  EXPECT_FALSE(small.different);
  EXPECT_THROW(pooled_t_difference(good, commit, s, -1, opt), std::invalid_argument);
}

TEST(PooledT, SizeUnderTheNullIsAlpha) {
  // Normal samples of one level: the test rejects at alpha about alpha of the time (exact for
  // normal data); with the floor above the true spread, less often.
  Rng rng(7);
  const int trials = 20000;
  int rejected = 0, rejected_floored = 0;
  for (int k = 0; k < trials; ++k) {
    std::vector<double> a(5), b(3);
    for (auto& x : a) x = 100 + rng.normal();
    for (auto& x : b) x = 100 + rng.normal();
    const auto s = pooled_spread({a, b});
    rejected += pooled_t_p(a, b, s, 0) <= 0.05;
    rejected_floored += pooled_t_p(a, b, s, 1.0) <= 0.05;
  }
  // 0.05 of 20,000 = 1,000, binomial sd 31: within 4 sd.
  EXPECT_NEAR(rejected, 1000, 124);
  EXPECT_LT(rejected_floored, rejected);
}

TEST(PooledT, BootsForShift) {
  // The bisection of a -4 % change at 70 loops a 20 s pass (3 lpm a loop): ends 5 + 5 boots
  // (df 8), the floor half a loop (1.5 lpm), step alpha 0.01 / 4.
  const auto n = boots_for_shift(1.5, -8.9, 5, 8, 20, 0.0025, 0.9);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 2u);
  // Each answer reaches the shift and one boot fewer does not.
  for (const double shift : {4.0, 5.0, 6.0}) {
    const auto m = boots_for_shift(1.5, shift, 5, 8, 40, 0.0025, 0.9);
    ASSERT_TRUE(m) << shift;
    const auto reach = [](unsigned k) {
      const unsigned df = 8 + k - 1;
      return (t_quantile(1 - 0.00125, df) + t_quantile(0.9, df)) * 1.5 * std::sqrt(1.0 / k + 1.0 / 5);
    };
    EXPECT_LE(reach(*m), shift);
    if (*m > 2) EXPECT_GT(reach(*m - 1), shift);
  }
  // One loop against 5 reference boots: sqrt(1/n + 1/5) hardly falls, beyond 20 boots.
  EXPECT_FALSE(boots_for_shift(1.5, 3, 5, 8, 20, 0.0025, 0.9));
  EXPECT_THROW(boots_for_shift(1.5, 0, 5, 8, 20), std::invalid_argument);
  EXPECT_THROW(boots_for_shift(0, 1, 5, 8, 20), std::invalid_argument);
  EXPECT_THROW(boots_for_shift(1, 1, 0, 8, 20), std::invalid_argument);
}
