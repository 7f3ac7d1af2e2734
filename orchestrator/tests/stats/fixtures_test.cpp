// The statistics against reference values computed independently with SciPy 1.10
// (data/make_fixtures.py -> data/fixtures.json).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/distributions.hpp"
#include "stats/kolmogorov_smirnov.hpp"
#include "stats/mann_whitney.hpp"

namespace rlab::stats {
namespace {

const nlohmann::json& fixtures() {
  static const nlohmann::json j = [] {
    std::ifstream in(std::string(RLAB_TEST_DATA) + "/fixtures.json");
    if (!in) throw std::runtime_error("cannot open " RLAB_TEST_DATA "/fixtures.json");
    return nlohmann::json::parse(in);
  }();
  return j;
}

std::vector<double> vec(const nlohmann::json& j) { return j.get<std::vector<double>>(); }

// |got - want| within a relative tolerance, or an absolute one for values near 0.
void expect_close(double got, double want, double rel, double abs, const std::string& what) {
  EXPECT_LE(std::abs(got - want), std::max(abs, rel * std::abs(want)))
      << what << ": got " << got << ", want " << want;
}

TEST(StatsFixtures, DescriptiveMatchesNumpy) {
  const auto& cases = fixtures().at("descriptive");
  ASSERT_GE(cases.size(), 6u);
  for (const auto& c : cases) {
    const auto x = vec(c.at("x"));
    expect_close(median(x), c.at("median"), 1e-15, 0, "median");
    expect_close(mean(x), c.at("mean"), 1e-14, 0, "mean");
    if (c.contains("stddev")) {
      expect_close(stddev(x), c.at("stddev"), 1e-10, 0, "stddev");
      expect_close(relative_stddev(x), c.at("relative_stddev"), 1e-10, 0, "relative_stddev");
    } else {
      EXPECT_THROW(stddev(x), std::invalid_argument);
      EXPECT_TRUE(std::isnan(summarize(x).stddev));
    }
  }
}

TEST(StatsFixtures, NormalAndKolmogorovTails) {
  for (const auto& c : fixtures().at("normal_sf")) {
    expect_close(normal_sf(c.at("z")), c.at("sf"), 1e-12, 1e-300, "normal_sf");
  }
  for (const auto& c : fixtures().at("kolmogorov_sf")) {
    expect_close(kolmogorov_sf(c.at("lambda")), c.at("sf"), 1e-10, 1e-15,
                 "kolmogorov_sf(" + c.at("lambda").dump() + ")");
  }
}

TEST(StatsFixtures, MannWhitneyExactDistributionMatchesEnumeration) {
  const auto& cases = fixtures().at("mann_whitney_exact_sf");
  ASSERT_GE(cases.size(), 50u);
  for (const auto& c : cases) {
    const std::size_t m = c.at("m"), n = c.at("n");
    const double u = c.at("u");
    expect_close(mann_whitney_exact_sf(m, n, u), c.at("sf"), 1e-12, 1e-15,
                 "sf(" + std::to_string(m) + "," + std::to_string(n) + "," + std::to_string(u) + ")");
    // The distribution is symmetric in the sample sizes.
    expect_close(mann_whitney_exact_sf(n, m, u), c.at("sf"), 1e-12, 1e-15, "swapped sizes");
  }
}

TEST(StatsFixtures, MannWhitneyMatchesScipy) {
  const auto& cases = fixtures().at("mann_whitney");
  std::size_t exact = 0, asymptotic = 0, tied = 0;
  for (const auto& c : cases) {
    const auto a = vec(c.at("a")), b = vec(c.at("b"));
    const bool want_exact = c.at("method") == "exact";
    const auto r = mann_whitney_u(a, b, want_exact ? PValueMethod::exact : PValueMethod::asymptotic);
    const std::string what = "MWU " + std::to_string(a.size()) + "x" + std::to_string(b.size()) +
                             " " + c.at("method").get<std::string>();
    EXPECT_EQ(r.exact, want_exact) << what;
    expect_close(r.u_a, c.at("u_a"), 1e-12, 1e-12, what + " U");
    expect_close(r.u_a + r.u_b, static_cast<double>(a.size() * b.size()), 1e-15, 0, what + " U sum");
    expect_close(r.p, c.at("p"), 1e-9, 1e-15, what + " p");
    (want_exact ? exact : asymptotic)++;
    tied += r.ties;
  }
  EXPECT_GE(exact, 10u);
  EXPECT_GE(asymptotic, 15u);
  EXPECT_GE(tied, 4u);
}

TEST(StatsFixtures, KolmogorovSmirnovMatchesScipy) {
  std::size_t exact = 0;
  for (const auto& c : fixtures().at("kolmogorov_smirnov")) {
    const auto a = vec(c.at("a")), b = vec(c.at("b"));
    const std::string what = "KS " + std::to_string(a.size()) + "x" + std::to_string(b.size());
    const auto asym = kolmogorov_smirnov(a, b, PValueMethod::asymptotic);
    expect_close(asym.d, c.at("d"), 1e-12, 1e-15, what + " D");
    EXPECT_FALSE(asym.exact);
    expect_close(asym.p, c.at("p_asymptotic"), 1e-9, 1e-15, what + " asymptotic p");
    if (!c.at("p_exact").is_null()) {
      const auto ex = kolmogorov_smirnov(a, b, PValueMethod::exact);
      EXPECT_TRUE(ex.exact);
      expect_close(ex.p, c.at("p_exact"), 1e-9, 1e-13, what + " exact p");
      ++exact;
    }
  }
  EXPECT_GE(exact, 15u);
}

}  // namespace
}  // namespace rlab::stats
