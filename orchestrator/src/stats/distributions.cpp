#include "stats/distributions.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rlab::stats {

double normal_sf(double z) { return 0.5 * std::erfc(z / std::numbers::sqrt2); }

double kolmogorov_sf(double lambda) {
  if (!(lambda > 0)) return 1.0;
  const double pi = std::numbers::pi;
  if (lambda < 1.18) {
    const double w = std::sqrt(2 * pi) / lambda;
    const double f = -pi * pi / (8 * lambda * lambda);
    double cdf = 0;
    for (int k = 1; k <= 50; ++k) {
      const double term = std::exp(f * (2 * k - 1) * (2 * k - 1));
      cdf += term;
      if (term < 1e-300) break;
    }
    return std::clamp(1.0 - w * cdf, 0.0, 1.0);
  }
  double sum = 0;
  double sign = 1;
  for (int k = 1; k <= 100; ++k) {
    const double term = std::exp(-2.0 * k * k * lambda * lambda);
    sum += sign * term;
    sign = -sign;
    if (term < 1e-300) break;
  }
  return std::clamp(2 * sum, 0.0, 1.0);
}

}  // namespace rlab::stats
