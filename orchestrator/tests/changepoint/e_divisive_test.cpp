// E-Divisive means: the statistic against a direct computation, known change points found,
// none under no change, and p-values calibrated (false positives near alpha).
#include "changepoint/e_divisive.hpp"
#include "stats/random.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace {

using namespace rlab;
using changepoint::e_divisive;
using changepoint::EDivisiveOptions;

std::vector<double> noise(std::uint64_t seed, std::size_t n, double mu, double sd) {
  stats::Rng rng(seed);
  std::vector<double> x(n);
  for (auto& v : x) v = mu + sd * rng.normal();
  return x;
}

/// Q(tau) by the definition, O(n^2) per tau: the reference for best_split.
double q_direct(const std::vector<double>& x, std::size_t tau) {
  const std::size_t n = x.size();
  double between = 0, left = 0, right = 0;
  for (std::size_t i = 0; i < tau; ++i)
    for (std::size_t j = tau; j < n; ++j) between += std::fabs(x[i] - x[j]);
  for (std::size_t i = 0; i < tau; ++i)
    for (std::size_t k = i + 1; k < tau; ++k) left += std::fabs(x[i] - x[k]);
  for (std::size_t j = tau; j < n; ++j)
    for (std::size_t k = j + 1; k < n; ++k) right += std::fabs(x[j] - x[k]);
  const double m = tau, kk = n - tau;
  const double e = 2 * between / (m * kk) - left / (m * (m - 1) / 2) - right / (kk * (kk - 1) / 2);
  return m * kk / (m + kk) * e;
}

TEST(EDivisive, BestSplitMatchesTheDefinition) {
  auto x = noise(11, 40, 100, 5);
  for (std::size_t i = 25; i < 40; ++i) x[i] += 12;
  double best = -1e300;
  std::size_t best_tau = 0;
  for (std::size_t tau = 3; tau <= 37; ++tau) {
    const double q = q_direct(x, tau);
    if (q > best) best = q, best_tau = tau;
  }
  const auto s = changepoint::best_split(x, 3);
  EXPECT_EQ(s.tau, best_tau);
  EXPECT_NEAR(s.q, best, 1e-9 * std::fabs(best));
  EXPECT_EQ(s.tau, 25u);
  EXPECT_EQ(changepoint::best_split(std::vector<double>{1, 2, 3, 4, 5}, 3).tau, 0u);  // too short
}

TEST(EDivisive, FindsOneKnownChange) {
  auto x = noise(21, 100, 270, 10);  // nightly lpm, 3.7% noise
  for (std::size_t i = 60; i < 100; ++i) x[i] -= 30;  // -11% from night 60 on
  const auto seg = e_divisive(x);
  ASSERT_EQ(seg.change_points.size(), 1u);
  const auto& c = seg.change_points[0];
  EXPECT_NEAR(static_cast<double>(c.index), 60.0, 2.0);
  EXPECT_LE(c.p, 0.01);
  EXPECT_NEAR(c.relative_change, -30.0 / 270.0, 0.03);
  EXPECT_NEAR(c.mean_before, 270, 4);
  EXPECT_GT(seg.rejected_p, 0.01);
}

TEST(EDivisive, FindsTwoKnownChanges) {
  auto x = noise(31, 150, 270, 8);
  for (std::size_t i = 50; i < 100; ++i) x[i] -= 27;   // regression at 50
  for (std::size_t i = 100; i < 150; ++i) x[i] += 5;   // fixed (and a bit better) at 100
  const auto seg = e_divisive(x);
  ASSERT_EQ(seg.change_points.size(), 2u);
  EXPECT_NEAR(static_cast<double>(seg.change_points[0].index), 50.0, 2.0);
  EXPECT_NEAR(static_cast<double>(seg.change_points[1].index), 100.0, 2.0);
  EXPECT_LT(seg.change_points[0].relative_change, -0.05);
  EXPECT_GT(seg.change_points[1].relative_change, 0.05);
  EXPECT_LT(seg.change_points[1].mean_before, seg.change_points[1].mean_after);
}

TEST(EDivisive, NoChangeInFlatSeries) {
  const auto seg = e_divisive(noise(41, 120, 270, 10));
  EXPECT_TRUE(seg.change_points.empty());
  EXPECT_GT(seg.rejected_p, 0.01);
  const auto constant = e_divisive(std::vector<double>(30, 270.0));
  EXPECT_TRUE(constant.change_points.empty());
}

// Under no change the permutation p-value is (super-)uniform: over many independent series the
// share with p <= alpha is close to alpha, and half the p-values lie below 0.5.
TEST(EDivisive, FalsePositiveRateNearAlphaUnderNoChange) {
  const std::size_t series = 400;
  EDivisiveOptions opt;
  opt.alpha = 0.05;
  opt.permutations = 99;
  opt.max_change_points = 1;  // only the first test decides "some change"
  std::size_t flagged = 0, below_half = 0;
  for (std::size_t s = 0; s < series; ++s) {
    opt.seed = 1000 + s;
    const auto seg = e_divisive(noise(5000 + s, 50, 270, 10), opt);
    const double p = seg.change_points.empty() ? seg.rejected_p : seg.change_points[0].p;
    flagged += !seg.change_points.empty();
    below_half += p <= 0.5;
  }
  // Binomial(400, 0.05): mean 20, sd 4.4; the bounds are about 3 sd either side.
  EXPECT_GE(flagged, 7u);
  EXPECT_LE(flagged, 33u);
  // Binomial(400, 0.5): mean 200, sd 10.
  EXPECT_GE(below_half, 170u);
  EXPECT_LE(below_half, 230u);
  std::printf("false positives: %zu of %zu at alpha 0.05; p <= 0.5: %zu\n", flagged, series,
              below_half);
}

// The same series with a 1.5 sd shift is flagged far more often: the test has power.
TEST(EDivisive, PowerAgainstAModestShift) {
  EDivisiveOptions opt;
  opt.alpha = 0.05;
  opt.permutations = 99;
  opt.max_change_points = 1;
  std::size_t flagged = 0;
  for (std::size_t s = 0; s < 100; ++s) {
    opt.seed = 1000 + s;
    auto x = noise(9000 + s, 50, 270, 10);
    for (std::size_t i = 25; i < 50; ++i) x[i] -= 15;
    flagged += !e_divisive(x, opt).change_points.empty();
  }
  EXPECT_GE(flagged, 90u);
}

TEST(EDivisive, ReproducibleForASeed) {
  auto x = noise(51, 80, 100, 5);
  for (std::size_t i = 40; i < 80; ++i) x[i] += 4;
  const auto a = e_divisive(x), b = e_divisive(x);
  ASSERT_EQ(a.change_points.size(), b.change_points.size());
  for (std::size_t i = 0; i < a.change_points.size(); ++i)
    EXPECT_EQ(a.change_points[i].p, b.change_points[i].p);
  EXPECT_EQ(a.rejected_p, b.rejected_p);
}

TEST(EDivisive, BadInputNamesTheProblem) {
  std::vector<double> x(20, 1.0);
  x[7] = std::nan("");
  try {
    e_divisive(x);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("value 7"), std::string::npos) << e.what();
  }
  EDivisiveOptions o;
  o.permutations = 5;
  EXPECT_THROW(e_divisive(std::vector<double>(20, 1.0), o), std::invalid_argument);
  o = {};
  o.alpha = 1.5;
  EXPECT_THROW(e_divisive(std::vector<double>(20, 1.0), o), std::invalid_argument);
  EDivisiveOptions unreachable;
  unreachable.alpha = 0.001;  // p >= 1/200 with the default 199 permutations
  EXPECT_THROW(e_divisive(std::vector<double>(20, 1.0), unreachable), std::invalid_argument);
}

// docs/benchmarks.md "Change-point detection": a year of nightly points with defaults.
TEST(EDivisive, YearOfNightsRuntime) {
  auto x = noise(61, 365, 270, 10);
  for (std::size_t i = 120; i < 365; ++i) x[i] -= 25;
  for (std::size_t i = 250; i < 365; ++i) x[i] += 15;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const auto seg = e_divisive(x);
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(seg.change_points.size(), 2u);
  EXPECT_NEAR(static_cast<double>(seg.change_points[0].index), 120.0, 3.0);
  EXPECT_NEAR(static_cast<double>(seg.change_points[1].index), 250.0, 5.0);
  std::printf("365 points, 199 permutations, alpha 0.01: %.3f s wall, %.3f s CPU, %zu change "
              "points\n", s, cpu, seg.change_points.size());
  EXPECT_LT(s, 30.0);  // generous: shared CI machines
}

}  // namespace
