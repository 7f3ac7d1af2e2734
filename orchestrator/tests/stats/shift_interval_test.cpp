// Moses' distribution-free interval of the ratio of B's scale to A's (stats/shift_interval.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/random.hpp"
#include "stats/shift_interval.hpp"

namespace rlab::stats {
namespace {

TEST(StatsShiftInterval, HandWorkedThreeAgainstThree) {
  // Ratios b/a sorted: 2/3 1 4/3 2 2 2 3 4 6. m = n = 3: P(U <= 0) = 1/C(6,3) = 0.05, so at
  // 90% k = 1 (the whole range) and P(U <= 1) = 0.1 rules out k = 2.
  const std::vector<double> a{1, 2, 3}, b{2, 4, 6};
  const auto r = ratio_shift_interval(a, b, 0.90);
  ASSERT_TRUE(r.exists);
  EXPECT_EQ(r.k, 1u);
  EXPECT_NEAR(r.estimate, 2.0, 1e-12);
  EXPECT_NEAR(r.low, 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(r.high, 6.0, 1e-12);
  EXPECT_NEAR(r.confidence, 0.90, 1e-12);
  EXPECT_FALSE(ratio_shift_interval(a, b, 0.95).exists) << "1 - 2/20 = 0.9 < 0.95";
}

TEST(StatsShiftInterval, FloorsAreTheSmallestSizesWithAnInterval) {
  EXPECT_EQ(shift_interval_floor(0.98), 5u);  // 2/C(10,5) = 0.0079 <= 0.02; 2/C(8,4) = 0.029
  EXPECT_EQ(shift_interval_floor(0.90), 3u);  // 2/C(6,3) = 0.1 <= 0.1; 2/C(4,2) = 0.33
  for (const double c : {0.8, 0.9, 0.95, 0.98, 0.99}) {
    const std::size_t n = shift_interval_floor(c);
    const std::vector<double> a(n, 1.0), b(n, 1.0);
    EXPECT_TRUE(ratio_shift_interval(a, b, c).exists) << c;
    if (n > 1) EXPECT_FALSE(ratio_shift_interval(std::vector<double>(n - 1, 1.0), std::vector<double>(n - 1, 1.0), c).exists) << c;
  }
}

// Coverage by simulation: lognormal scores (8% noise) of B scaled by 0.95 against A; the 98%
// interval must hold the true ratio in at least 98% of 2,000 trials, give or take 3 standard
// errors of the Monte Carlo estimate, at the smallest size and at a larger one.
TEST(StatsShiftInterval, CoversTheTrueRatioAtLeastAsOftenAsPromised) {
  Rng rng(2026);
  for (const std::size_t n : {5u, 12u}) {
    int covered = 0, trials = 2000;
    double achieved = 0;
    for (int t = 0; t < trials; ++t) {
      std::vector<double> a(n), b(n);
      for (auto& x : a) x = 200 * std::exp(0.08 * rng.normal());
      for (auto& x : b) x = 0.95 * 200 * std::exp(0.08 * rng.normal());
      const auto r = ratio_shift_interval(a, b, 0.98);
      ASSERT_TRUE(r.exists);
      achieved = r.confidence;
      covered += r.low <= 0.95 && 0.95 <= r.high;
    }
    const double rate = double(covered) / trials, se = std::sqrt(achieved * (1 - achieved) / trials);
    EXPECT_GE(rate, achieved - 3 * se) << "n = " << n << ", achieved level " << achieved;
    EXPECT_GE(achieved, 0.98);
  }
}

TEST(StatsShiftInterval, BadInputIsRefused) {
  const std::vector<double> ok{1, 2}, zero{0, 1}, empty{};
  EXPECT_THROW(ratio_shift_interval(ok, zero, 0.9), std::invalid_argument);
  EXPECT_THROW(ratio_shift_interval(empty, ok, 0.9), std::invalid_argument);
  EXPECT_THROW(ratio_shift_interval(ok, ok, 1.0), std::invalid_argument);
  EXPECT_THROW(shift_interval_floor(0), std::invalid_argument);
}

}  // namespace
}  // namespace rlab::stats
