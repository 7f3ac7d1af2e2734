// Student's t against table values; power figures: the minimum detectable effect and the
// boots a change needs.
#include "stats/power.hpp"
#include "stats/student_t.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

using namespace rlab::stats;

TEST(StudentT, QuantilesMatchTables) {
  // scipy.stats.t.ppf / norm.ppf values.
  EXPECT_NEAR(t_quantile(0.975, 1), 12.706205, 1e-5);
  EXPECT_NEAR(t_quantile(0.975, 2), 4.302653, 1e-5);
  EXPECT_NEAR(t_quantile(0.995, 6), 3.707428, 1e-5);
  EXPECT_NEAR(t_quantile(0.9, 6), 1.439756, 1e-5);
  EXPECT_NEAR(t_quantile(0.995, 14), 2.976843, 1e-5);
  EXPECT_NEAR(t_quantile(0.9, 14), 1.345030, 1e-5);
  EXPECT_NEAR(t_quantile(0.995, 30), 2.749996, 1e-5);
  EXPECT_NEAR(t_quantile(0.025, 5), -2.570582, 1e-5);
  EXPECT_NEAR(normal_quantile(0.995), 2.575829, 1e-5);
  EXPECT_NEAR(normal_quantile(0.9), 1.281552, 1e-5);
  EXPECT_NEAR(t_cdf(0, 7), 0.5, 1e-12);
  EXPECT_NEAR(t_cdf(2.570582, 5), 0.975, 1e-6);
  // Large df approaches the normal.
  EXPECT_NEAR(t_quantile(0.995, 2000), 2.578290, 1e-5);  // scipy t.ppf
  EXPECT_LT(t_quantile(0.995, 2000) - normal_quantile(0.995), 3e-3);
}

TEST(StudentT, RejectsBadArguments) {
  EXPECT_THROW(t_quantile(0, 5), std::invalid_argument);
  EXPECT_THROW(t_quantile(1, 5), std::invalid_argument);
  EXPECT_THROW(t_quantile(0.5, 0), std::invalid_argument);
  EXPECT_THROW(normal_quantile(1.5), std::invalid_argument);
}

TEST(MinimumDetectableEffect, FormulaAndScaling) {
  // (t(0.995; 14) + t(0.9; 14)) * 0.05 * sqrt(2/8)
  EXPECT_NEAR(minimum_detectable_effect(0.05, 8), (2.976843 + 1.345030) * 0.05 * 0.5, 1e-5);
  EXPECT_NEAR(minimum_detectable_effect(0.10, 8), 2 * minimum_detectable_effect(0.05, 8), 1e-12);
  EXPECT_GT(minimum_detectable_effect(0.05, 4), minimum_detectable_effect(0.05, 8));
  EXPECT_GT(minimum_detectable_effect(0.05, 8), minimum_detectable_effect(0.05, 16));
  // The figure: 11% noise needs about forty boots a side for 10% (MDE ~ 0.1 there).
  EXPECT_GT(minimum_detectable_effect(0.115, 30), 0.1);
  EXPECT_LT(minimum_detectable_effect(0.115, 50), 0.1);
  EXPECT_THROW(minimum_detectable_effect(0.05, 1), std::invalid_argument);
  EXPECT_THROW(minimum_detectable_effect(0.05, 8, 0, 0.9), std::invalid_argument);
}

TEST(BootsForEffect, IsTheFirstBootCountWhoseDetectableEffectReachesTheChange) {
  for (double sd : {0.01, 0.05, 0.115}) {
    for (double effect : {0.02, 0.05, 0.1, 0.3}) {
      const auto n = boots_for_effect(sd, effect, 200);
      if (!n) {
        EXPECT_GT(minimum_detectable_effect(sd, 200), effect) << sd << " " << effect;
        continue;
      }
      EXPECT_LE(minimum_detectable_effect(sd, *n), effect) << sd << " " << effect;
      if (*n > rank_test_floor(0.01)) EXPECT_GT(minimum_detectable_effect(sd, *n - 1), effect) << sd << " " << effect;
    }
  }
  // 11.5% noise and a 10% change: about forty boots a side (the figure that motivated rlab's
  // noise work); 1% noise: the fewest boots the rule allows.
  const auto forty = boots_for_effect(0.115, 0.10, 80);
  ASSERT_TRUE(forty.has_value());
  EXPECT_GE(*forty, 31u);
  EXPECT_LE(*forty, 50u);
  EXPECT_EQ(boots_for_effect(0.001, 0.10, 80), 5u);  // the rank tests' floor at 0.01
  EXPECT_FALSE(boots_for_effect(0.115, 0.02, 80).has_value());
  // A smaller alpha (a bisect step's) needs more boots.
  EXPECT_GT(*boots_for_effect(0.05, 0.05, 200, 0.001), *boots_for_effect(0.05, 0.05, 200, 0.01));
}

TEST(RankTestFloor, IsTheFewestBootsWhoseCompleteSeparationReachesAlpha) {
  // 2 / C(2n, n): n = 3 -> 0.1, 4 -> 0.0286, 5 -> 0.0079, 6 -> 0.0022, 8 -> 0.00016.
  EXPECT_EQ(rank_test_floor(0.5), 2u);
  EXPECT_EQ(rank_test_floor(0.1), 3u);
  EXPECT_EQ(rank_test_floor(0.03), 4u);
  EXPECT_EQ(rank_test_floor(0.01), 5u);
  EXPECT_EQ(rank_test_floor(0.005), 6u);
  EXPECT_EQ(rank_test_floor(0.0002), 8u);
  EXPECT_THROW(rank_test_floor(0), std::invalid_argument);
}

TEST(BootsForEffect, RejectsMeaninglessInput) {
  EXPECT_THROW(boots_for_effect(0.05, 0, 10), std::invalid_argument);
  EXPECT_THROW(boots_for_effect(-0.1, 0.05, 10), std::invalid_argument);
  EXPECT_THROW(boots_for_effect(0.05, 0.05, 1), std::invalid_argument);
  EXPECT_THROW(boots_for_effect(0.05, 0.05, 10, 1.5), std::invalid_argument);
}
