#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace rlab::stats {

void require_finite(std::span<const double> x, std::string_view where) {
  if (x.empty()) throw std::invalid_argument(std::string(where) + ": empty sample");
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) {
      throw std::invalid_argument(std::string(where) + ": value #" + std::to_string(i) +
                                  " is not finite");
    }
  }
}

double median(std::span<const double> x) {
  require_finite(x, "stats::median");
  std::vector<double> v(x.begin(), x.end());
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

double mean(std::span<const double> x) {
  require_finite(x, "stats::mean");
  // Two passes: the correction term removes most rounding error of the naive sum.
  double sum = 0;
  for (double v : x) sum += v;
  const double m = sum / static_cast<double>(x.size());
  double corr = 0;
  for (double v : x) corr += v - m;
  return m + corr / static_cast<double>(x.size());
}

double stddev(std::span<const double> x) {
  require_finite(x, "stats::stddev");
  if (x.size() < 2) throw std::invalid_argument("stats::stddev: needs at least 2 values");
  const double m = mean(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(x.size() - 1));
}

double relative_stddev(std::span<const double> x) {
  const double m = mean(x);
  if (m == 0) throw std::invalid_argument("stats::relative_stddev: mean is 0");
  return stddev(x) / std::abs(m);
}

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("stats::quantile_sorted: empty sample");
  if (!(q >= 0 && q <= 1)) throw std::invalid_argument("stats::quantile_sorted: q outside [0, 1]");
  const double h = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Summary summarize(std::span<const double> x) {
  require_finite(x, "stats::summarize");
  Summary s;
  s.n = x.size();
  s.mean = mean(x);
  s.median = median(x);
  const auto [mn, mx] = std::minmax_element(x.begin(), x.end());
  s.min = *mn;
  s.max = *mx;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.stddev = x.size() >= 2 ? stddev(x) : nan;
  s.relative_stddev = (x.size() >= 2 && s.mean != 0) ? s.stddev / std::abs(s.mean) : nan;
  return s;
}

}  // namespace rlab::stats
