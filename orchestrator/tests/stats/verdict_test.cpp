// Verdict tables: constructed samples whose verdict follows from the rule's definition.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stats/random.hpp"
#include "stats/verdict.hpp"

namespace rlab::stats {
namespace {

std::vector<double> normal_sample(std::size_t n, double mean, double sd, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> x(n);
  for (double& v : x) v = mean + sd * rng.normal();
  return x;
}

struct Row {
  const char* name;
  double mean_a, sd_a;
  std::size_t n_a;
  double mean_b, sd_b;
  std::size_t n_b;
  double alpha, min_effect;
  Verdict want;
};

TEST(StatsVerdict, Table) {
  const Row rows[] = {
      {"10% slower, tight noise", 100, 1, 20, 90, 1, 20, 0.01, 0.02, Verdict::different},
      {"10% faster, tight noise", 100, 1, 20, 110, 1, 20, 0.01, 0.02, Verdict::different},
      {"equal, very tight noise", 100, 0.2, 20, 100, 0.2, 20, 0.01, 0.02, Verdict::same},
      {"1% change: significant, below min effect, ruled out", 100, 0.1, 30, 101, 0.1, 30, 0.01,
       0.02, Verdict::same},
      {"5% change, 11% noise, 5 runs: measure more", 100, 11, 5, 95, 11, 5, 0.01, 0.02,
       Verdict::unknown},
      {"20% change, 2 runs: cannot be significant", 100, 1, 2, 80, 1, 2, 0.01, 0.02,
       Verdict::unknown},
      {"equal, 11% noise, 10 runs: cannot rule 2% out", 100, 11, 10, 100, 11, 10, 0.01, 0.02,
       Verdict::unknown},
      {"5% change with min effect 10%: ruled out", 100, 0.5, 20, 95, 0.5, 20, 0.01, 0.10,
       Verdict::same},
      {"5% change, loose alpha", 100, 3, 12, 95, 3, 12, 0.05, 0.02, Verdict::different},
      {"3% change, significant, interval straddles 2%", 100, 1.5, 15, 97, 1.5, 15, 0.01, 0.02,
       Verdict::different},
  };
  std::uint64_t seed = 1;
  for (const Row& r : rows) {
    const auto a = normal_sample(r.n_a, r.mean_a, r.sd_a, seed++);
    const auto b = normal_sample(r.n_b, r.mean_b, r.sd_b, seed++);
    VerdictOptions opt;
    opt.alpha = r.alpha;
    opt.min_effect = r.min_effect;
    const Comparison c = compare(a, b, opt);
    EXPECT_EQ(verdict_name(c.verdict), verdict_name(r.want)) << r.name << ": " << c.reason;
    // The parts agree with the rule as stated.
    const Difference& d = c.difference;
    EXPECT_EQ(d.different, d.p_min <= r.alpha && std::abs(d.relative_change) >= r.min_effect);
    EXPECT_DOUBLE_EQ(d.p_min, std::min(d.mann_whitney.p, d.kolmogorov_smirnov.p));
    EXPECT_EQ(c.boots_floor, shift_interval_floor(1 - 2 * r.alpha));
    EXPECT_EQ(c.ratio.exists, r.n_a >= c.boots_floor && r.n_b >= c.boots_floor) << r.name;
    if (c.ratio.exists) {
      EXPECT_GE(c.ratio.confidence, 1 - 2 * r.alpha - 1e-12) << r.name;
      EXPECT_LE(c.ratio.low, c.ratio.estimate);
      EXPECT_LE(c.ratio.estimate, c.ratio.high);
    }
    EXPECT_FALSE(c.reason.empty());
  }
}

// With fewer boots a side than the floor, nothing is claimed: the bootstrap this replaced said
// "same" from one boot a side whenever the one ratio was within the minimum effect.
TEST(StatsVerdict, BelowTheFloorNothingIsClaimedAndTheReasonSaysHowManyBoots) {
  for (std::size_t n : {1u, 2u, 4u}) {
    const std::vector<double> a(n, 100.0), b(n, 100.5);
    const Comparison c = compare(a, b);
    EXPECT_EQ(c.verdict, Verdict::unknown) << n;
    EXPECT_EQ(c.boots_floor, 5u);
    EXPECT_FALSE(c.ratio.exists);
    EXPECT_NE(c.reason.find("needs at least 5 boots a side"), std::string::npos) << c.reason;
    EXPECT_NE(c.reason.find("+0.5%"), std::string::npos) << c.reason;
  }
  // Five identical boots a side (a deterministic clock): the interval is the one ratio.
  const std::vector<double> a(5, 210.0), b(5, 210.0), c5(5, 190.0);
  const Comparison same = compare(a, b);
  EXPECT_EQ(same.verdict, Verdict::same) << same.reason;
  EXPECT_DOUBLE_EQ(same.ratio.low, 1.0);
  EXPECT_DOUBLE_EQ(same.ratio.high, 1.0);
  EXPECT_EQ(compare(a, c5).verdict, Verdict::different);
  VerdictOptions loose;
  loose.alpha = 0.05;  // a 90% interval: 2 / C(6, 3) = 0.1, so 3 boots a side
  EXPECT_EQ(compare(std::vector<double>(3, 210.0), std::vector<double>(3, 210.0), loose).verdict, Verdict::same);
  EXPECT_EQ(compare(std::vector<double>(2, 210.0), std::vector<double>(2, 210.0), loose).verdict, Verdict::unknown);
}

TEST(StatsVerdict, PinpointDoublingUpToCap) {
  const SamplingPlan plan{10, 80};
  EXPECT_EQ(next_sample_count(10, plan), 20u);
  EXPECT_EQ(next_sample_count(20, plan), 40u);
  EXPECT_EQ(next_sample_count(40, plan), 80u);
  EXPECT_EQ(next_sample_count(80, plan), 0u);
  EXPECT_EQ(next_sample_count(50, plan), 80u);
  EXPECT_EQ(next_sample_count(3, plan), 10u);
  EXPECT_THROW(next_sample_count(10, SamplingPlan{20, 10}), std::invalid_argument);
}

TEST(StatsVerdict, BadInputNamesThePlace) {
  const std::vector<double> ok{1, 2, 3}, empty{}, nan{1, std::nan(""), 3}, zero{0, 1, 2};
  try {
    compare(ok, nan);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("value #1 is not finite"), std::string::npos) << e.what();
  }
  EXPECT_THROW(compare(empty, ok), std::invalid_argument);
  // A 0 lpm boot is a measurement (no loop completed), not bad input: no ratio, no verdict.
  EXPECT_EQ(compare(zero, ok).verdict, Verdict::unknown);
  VerdictOptions bad;
  bad.alpha = 0.7;
  EXPECT_THROW(test_difference(ok, ok, bad), std::invalid_argument);
  EXPECT_THROW(mann_whitney_u(std::vector<double>{1, 1}, std::vector<double>{1, 2},
                              PValueMethod::exact),
               std::invalid_argument);
}

TEST(StatsVerdict, AutomaticMethodChoice) {
  const auto a = normal_sample(8, 100, 5, 21), b = normal_sample(9, 104, 5, 22);
  EXPECT_TRUE(mann_whitney_u(a, b).exact);
  EXPECT_TRUE(kolmogorov_smirnov(a, b).exact);
  const auto big_a = normal_sample(60, 100, 5, 23), big_b = normal_sample(60, 104, 5, 24);
  EXPECT_FALSE(mann_whitney_u(big_a, big_b).exact);  // 3600 pairs > 2500
  const std::vector<double> tied_a{1, 2, 2, 3}, tied_b{2, 3, 4, 5};
  const auto t = mann_whitney_u(tied_a, tied_b);
  EXPECT_TRUE(t.ties);
  EXPECT_FALSE(t.exact);
  // Every value tied: no evidence, p = 1.
  EXPECT_EQ(mann_whitney_u(std::vector<double>{5, 5}, std::vector<double>{5, 5, 5}).p, 1.0);
}

}  // namespace
}  // namespace rlab::stats

namespace rlab::stats {

// A boot that completed no loop in its passes scores 0 lpm (a guest too slow for its pass, as
// in nested emulation): the comparison has no ratio interval, says why, and does not throw.
TEST(StatsVerdict, AZeroScoreLeavesTheRatioOutAndSaysWhy) {
  const std::vector<double> a{80.1, 0.0, 79.5, 81.0, 80.2, 79.9};
  const std::vector<double> b{80.0, 80.3, 79.8, 80.1, 80.4, 79.7};
  Comparison c;
  ASSERT_NO_THROW(c = compare(a, b, VerdictOptions{}));
  EXPECT_FALSE(c.ratio.exists);
  EXPECT_EQ(c.verdict, Verdict::unknown);
  EXPECT_NE(c.reason.find("scored 0 lpm"), std::string::npos) << c.reason;
}

TEST(StatsVerdict, ABaseWhoseMedianIsZeroIsNotJudgedInsteadOfThrowing) {
  // Two cells of 16 copies on a slow guest: the base's boots mostly completed no loop.
  const std::vector<double> a{0.0, 0.0, 28.9};
  const std::vector<double> b{29.0, 31.5, 30.2};
  Comparison c;
  ASSERT_NO_THROW(c = compare(a, b, VerdictOptions{.alpha = 0.05}));
  EXPECT_EQ(c.verdict, Verdict::unknown);
  EXPECT_FALSE(c.ratio.exists);
  EXPECT_DOUBLE_EQ(c.a.median, 0.0);
  EXPECT_DOUBLE_EQ(c.difference.median_b, 30.2);
  EXPECT_NE(c.reason.find("median is 0"), std::string::npos) << c.reason;
  EXPECT_THROW(test_difference(a, b), std::invalid_argument) << "the cheap test still refuses: its callers check first";
}

}  // namespace rlab::stats
