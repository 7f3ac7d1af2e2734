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
    EXPECT_NEAR(c.ratio.confidence, 1 - 2 * r.alpha, 1e-12);
    EXPECT_LE(c.ratio.low, c.ratio.high);
    EXPECT_FALSE(c.reason.empty());
  }
}

TEST(StatsVerdict, ReproducibleWithSeed) {
  const auto a = normal_sample(15, 100, 5, 11), b = normal_sample(15, 97, 5, 12);
  const Comparison x = compare(a, b), y = compare(a, b);
  EXPECT_EQ(x.ratio.low, y.ratio.low);
  EXPECT_EQ(x.ratio.high, y.ratio.high);
  VerdictOptions other;
  other.seed = 99;
  const Comparison z = compare(a, b, other);
  EXPECT_TRUE(z.ratio.low != x.ratio.low || z.ratio.high != x.ratio.high);
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
  EXPECT_THROW(compare(zero, ok), std::invalid_argument);  // ratio needs a > 0
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
