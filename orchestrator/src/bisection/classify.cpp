#include "bisection/classify.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "stats/pooled_t.hpp"

namespace rlab::bisection {

int expected_sign(const Options& opt) {
  const bool worse = opt.direction == Direction::regression;
  return worse == opt.higher_is_better ? -1 : +1;
}

std::string_view call_name(Call c) {
  switch (c) {
    case Call::good: return "good";
    case Call::bad: return "bad";
    case Call::unknown: return "unknown";
  }
  return "unknown";
}

namespace {
int sign(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }
}  // namespace

Classification classify(std::span<const double> good, std::span<const double> bad,
                        std::span<const double> samples, const Options& opt) {
  Classification c;
  const char* p_name = "min p";
  std::string test;  // how the deterministic comparisons' spread came about
  if (opt.deterministic) {
    if (!(opt.resolution > 0))
      throw std::invalid_argument("bisection::classify: deterministic steps need the score's resolution > 0");
    const auto spread = stats::pooled_spread({good, bad, samples});
    const double floor = opt.resolution / 2;
    c.vs_good = stats::pooled_t_difference(good, samples, spread, floor, opt.verdict);
    c.vs_bad = stats::pooled_t_difference(bad, samples, spread, floor, opt.verdict);
    p_name = "t p";
    test = fmt::format(" (pooled t test: spread {:.3g} over {} df, floor {:.3g})", spread.sd, spread.df, floor);
  } else {
    c.vs_good = stats::test_difference(good, samples, opt.verdict);
    c.vs_bad = stats::test_difference(bad, samples, opt.verdict);
  }
  const int s = sign(c.vs_bad.median_a - c.vs_good.median_a);
  if (s == 0) throw std::invalid_argument("bisection::classify: the good and bad medians are equal");
  const bool like_bad = c.vs_good.different && sign(c.vs_good.relative_change) == s;
  const bool like_good = c.vs_bad.different && sign(c.vs_bad.relative_change) == -s;
  const auto describe = [p_name](const char* end, const stats::Difference& d) {
    return fmt::format("vs {}: {:+.1f}%, {} {:.2g}{}", end, 100 * d.relative_change, p_name, d.p_min,
                       d.different ? " (different)" : "");
  };
  if (like_bad && !c.vs_bad.different) {
    c.call = Call::bad;
  } else if (like_good && !c.vs_good.different) {
    c.call = Call::good;
  }
  c.reason = fmt::format("{}; {} -> {}{}", describe("good", c.vs_good), describe("bad", c.vs_bad),
                         call_name(c.call), test);
  return c;
}

}  // namespace rlab::bisection
