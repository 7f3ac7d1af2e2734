// The noise figures: least-squares slope and its interval, Pearson's r, and a cell's figures
// from constructed boots.
#include "noise/figures.hpp"
#include "stats/power.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace rlab::noise;
using namespace rlab::stats;

TEST(Slope, ExactLineAndHandWorkedInterval) {
  auto s = fit_slope({0, 1, 2, 3}, {2, 5, 8, 11});
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->slope, 3, 1e-12);
  EXPECT_NEAR(s->ci_low, 3, 1e-9);
  EXPECT_NEAR(s->ci_high, 3, 1e-9);
  // x = 0..3, y = 0 1 1 2: b = 0.6, residual SS 0.2, se = sqrt(0.2/2/5), t(0.975; 2) = 4.302653.
  s = fit_slope({0, 1, 2, 3}, {0, 1, 1, 2});
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->slope, 0.6, 1e-12);
  EXPECT_NEAR(s->ci_low, 0.6 - 4.302653 * std::sqrt(0.02), 1e-5);
  EXPECT_NEAR(s->ci_high, 0.6 + 4.302653 * std::sqrt(0.02), 1e-5);
  EXPECT_FALSE(fit_slope({1, 2}, {1, 2}));        // too few points
  EXPECT_FALSE(fit_slope({1, 1, 1}, {1, 2, 3}));  // no spread in x
}

TEST(Pearson, KnownValueAndDegenerateCases) {
  auto r = pearson({1, 2, 3, 4, 5}, {2, 4, 5, 4, 5});
  ASSERT_TRUE(r);
  EXPECT_NEAR(*r, 6 / std::sqrt(60.0), 1e-12);
  EXPECT_NEAR(*pearson({1, 2, 3}, {3, 2, 1}), -1, 1e-12);
  EXPECT_FALSE(pearson({1, 2, 3}, {5, 5, 5}));
  EXPECT_FALSE(pearson({1, 2}, {1, 2}));
  // p of r = 0.774597 with n = 5: t = 2.1213, 3 df -> 0.1240 (scipy.stats.pearsonr).
  EXPECT_NEAR(pearson_p(6 / std::sqrt(60.0), 5), 0.124, 1e-3);
  EXPECT_EQ(pearson_p(1, 5), 0);
}

TEST(CellFigures, FromConstructedBoots) {
  // Two passes per boot, warm-up 20% low, score rising 10% of the mean per hour.
  std::vector<BootPoint> boots;
  const double scores[] = {95, 100, 105};
  for (int i = 0; i < 3; ++i) {
    BootPoint b;
    b.t_s = 1000 + i * 1800.0;
    b.score = scores[i];
    b.counted_lpm = {scores[i] - 5, scores[i] + 5};
    b.warmup_lpm = 0.8 * scores[i];
    b.busy = 0.5 + 0.1 * i;
    b.load1 = 1.0 - 0.2 * i;
    boots.push_back(b);
  }
  auto f = cell_figures(boots);
  EXPECT_EQ(f.boots, 3u);
  EXPECT_NEAR(f.mean, 100, 1e-12);
  EXPECT_NEAR(*f.boot_rel_stddev, 0.05, 1e-12);
  EXPECT_NEAR(*f.pass_rel_stddev, std::sqrt(50.0) / 100, 1e-12);
  EXPECT_NEAR(*f.warmup_offset, -0.2, 1e-12);
  ASSERT_TRUE(f.drift);
  EXPECT_NEAR(f.drift->slope, 0.1, 1e-12);  // 5 lpm per half hour on a mean of 100
  EXPECT_NEAR(*f.load_correlation, 1, 1e-12);
  EXPECT_NEAR(*f.load1_correlation, -1, 1e-12);
  EXPECT_NEAR(*f.mean_busy, 0.6, 1e-12);
  EXPECT_NEAR(*f.mde_8, minimum_detectable_effect(0.05, 8), 1e-12);
  EXPECT_LT(*f.mde_16, *f.mde_8);
  EXPECT_LT(*f.mde_8, *f.mde_4);
}

TEST(CellFigures, OneBootHasNoSpreadFigures) {
  BootPoint b;
  b.score = 100;
  b.counted_lpm = {100};
  auto f = cell_figures({b});
  EXPECT_EQ(f.boots, 1u);
  EXPECT_FALSE(f.boot_rel_stddev);
  EXPECT_FALSE(f.pass_rel_stddev);
  EXPECT_FALSE(f.drift);
  EXPECT_FALSE(f.mde_8);
  EXPECT_EQ(cell_figures({}).boots, 0u);
}

TEST(CellFigures, VcpuShareMeanCorrelationAndNormalisedSpread) {
  // Three boots whose passes got 60%, 80% and 100% of their vCPUs' time and scored in
  // proportion (lpm = 200 x share), plus one pass per boot without a share.
  std::vector<BootPoint> boots;
  const double share[] = {0.6, 0.8, 1.0};
  for (int i = 0; i < 3; ++i) {
    BootPoint b;
    b.t_s = i * 60.0;
    b.counted_lpm = {200 * share[i], 200 * share[i], 50};
    b.counted_vcpu_share = {share[i], share[i], std::nullopt};
    b.score = 200 * share[i];
    boots.push_back(b);
  }
  auto f = cell_figures(boots);
  ASSERT_TRUE(f.mean_vcpu_share);
  EXPECT_NEAR(*f.mean_vcpu_share, 0.8, 1e-12);
  ASSERT_TRUE(f.vcpu_share_correlation);
  EXPECT_NEAR(*f.vcpu_share_correlation, 1.0, 1e-12) << "the pass without a share is left out";
  ASSERT_TRUE(f.vcpu_share_correlation_p);
  EXPECT_LT(*f.vcpu_share_correlation_p, 1e-6);
  ASSERT_TRUE(f.boot_rel_stddev);
  EXPECT_NEAR(*f.boot_rel_stddev, 0.25, 1e-12);  // 120, 160, 200: sd 40, mean 160
  // Score / share is 200 for every boot: all the spread followed the CPU the host gave.
  ASSERT_TRUE(f.normalised_boot_rel_stddev);
  EXPECT_NEAR(*f.normalised_boot_rel_stddev, 0, 1e-12);

  // A boot without any share: no normalised figure, the others stay.
  boots[1].counted_vcpu_share = {std::nullopt, std::nullopt, std::nullopt};
  f = cell_figures(boots);
  EXPECT_FALSE(f.normalised_boot_rel_stddev);
  ASSERT_TRUE(f.mean_vcpu_share);
  EXPECT_NEAR(*f.mean_vcpu_share, 0.8, 1e-12);
  EXPECT_TRUE(f.vcpu_share_correlation);

  // No shares at all (a store from before per-sample host facts): all n/a.
  for (auto& b : boots) b.counted_vcpu_share.clear();
  f = cell_figures(boots);
  EXPECT_FALSE(f.mean_vcpu_share || f.vcpu_share_correlation || f.normalised_boot_rel_stddev);
}

TEST(CellFigures, HostStealMeanAndCorrelationHandWorked) {
  // Two boots, two counted passes each with a steal, one more without (left out):
  //   steal x = 0, 0.01, 0.02, 0.03   lpm y = 100, 96, 98, 90.
  // By hand: dx = -1.5 -0.5 0.5 1.5 (x 0.01), Sxx = 5; dy = 4 0 2 -6, Syy = 56; Sxy = -14,
  // so r = -14 / sqrt(5 x 56) = -sqrt(0.7). With n - 2 = 2 degrees of freedom the t CDF is
  // 1/2 + t / (2 sqrt(2 + t^2)) and t^2 = 2 r^2 / (1 - r^2), which makes p = 1 - |r|.
  std::vector<BootPoint> boots(2);
  boots[0].t_s = 0;
  boots[0].counted_lpm = {100, 96, 10};
  boots[0].counted_host_steal = {0.0, 0.01, std::nullopt};
  boots[0].score = 98;
  boots[1].t_s = 60;
  boots[1].counted_lpm = {98, 90};
  boots[1].counted_host_steal = {0.02, 0.03};
  boots[1].score = 94;
  auto f = cell_figures(boots);
  ASSERT_TRUE(f.mean_host_steal);
  EXPECT_NEAR(*f.mean_host_steal, 0.015, 1e-12);
  ASSERT_TRUE(f.host_steal_correlation);
  EXPECT_NEAR(*f.host_steal_correlation, -std::sqrt(0.7), 1e-12);
  ASSERT_TRUE(f.host_steal_correlation_p);
  EXPECT_NEAR(*f.host_steal_correlation_p, 1 - std::sqrt(0.7), 1e-6);
  EXPECT_FALSE(f.mean_vcpu_share) << "steal and vCPU share are separate figures";

  // The same steal in every pass says nothing about the noise: no r, the mean stays.
  boots[0].counted_host_steal = {0.05, 0.05};
  boots[1].counted_host_steal = {0.05, 0.05};
  f = cell_figures(boots);
  ASSERT_TRUE(f.mean_host_steal);
  EXPECT_NEAR(*f.mean_host_steal, 0.05, 1e-12);
  EXPECT_FALSE(f.host_steal_correlation || f.host_steal_correlation_p);

  // No sample carried a steal (a remote host, or a store from before per-sample host facts): n/a.
  for (auto& b : boots) b.counted_host_steal.clear();
  f = cell_figures(boots);
  EXPECT_FALSE(f.mean_host_steal || f.host_steal_correlation);
}
