// The random source of the permutation tests: the same stream everywhere, unbiased bounded integers.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/random.hpp"

namespace rlab::stats {
namespace {

TEST(StatsRandom, EngineStreamIsTheStandardOne) {
  // [rand.predef]: the 10000th output of a default-constructed mt19937_64 (seed 5489).
  Rng rng(5489);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = rng.bits();
  EXPECT_EQ(x, 9981545732273789042ULL);
}

TEST(StatsRandom, IndexIsUniformAndInRange) {
  Rng rng(1);
  std::vector<int> counts(7, 0);
  const int draws = 70000;
  for (int i = 0; i < draws; ++i) counts[rng.index(7)]++;
  for (int c : counts) EXPECT_NEAR(c, draws / 7, 5 * std::sqrt(draws / 7.0));  // 5 sigma
  EXPECT_THROW(rng.index(0), std::invalid_argument);
  Rng a(3), b(3);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.index(1000), b.index(1000));
}

TEST(StatsRandom, NormalHasUnitMoments) {
  Rng rng(2);
  double sum = 0, sq = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double z = rng.normal();
    sum += z;
    sq += z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);      // standard error 0.0022
  EXPECT_NEAR(sq / n, 1.0, 0.015);      // standard error 0.0032
}

}  // namespace
}  // namespace rlab::stats
