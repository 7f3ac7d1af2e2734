#include "stats/student_t.hpp"

#include "stats/distributions.hpp"

#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <string>

namespace rlab::stats {
namespace {

/// A(t|df) = P(|T| <= |t|), A&S 26.7.3 (odd df) and 26.7.4 (even df).
double central(double t, unsigned df) {
  const double theta = std::atan(std::abs(t) / std::sqrt(static_cast<double>(df)));
  const double s = std::sin(theta), c = std::cos(theta), c2 = c * c;
  if (df % 2 == 1) {
    double sum = 0, term = c;  // c, (2/3) c^3, (2*4)/(3*5) c^5, ...
    if (df > 1) {
      sum = term;
      for (unsigned k = 3; k + 2 <= df; k += 2) {
        term *= c2 * (k - 1) / k;
        sum += term;
      }
    }
    return 2 / std::numbers::pi * (theta + s * sum);
  }
  double sum = 1, term = 1;  // 1, (1/2) c^2, (1*3)/(2*4) c^4, ...
  for (unsigned k = 2; k + 2 <= df; k += 2) {
    term *= c2 * (k - 1) / k;
    sum += term;
  }
  return s * sum;
}

double bisect(double p, const std::function<double(double)>& cdf) {
  double lo = -1e3, hi = 1e3;
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    const double mid = (lo + hi) / 2;
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

void require_p(double p, const char* where) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument(std::string(where) + ": p must be in (0, 1)");
}

}  // namespace

double t_cdf(double t, unsigned df) {
  if (df < 1) throw std::invalid_argument("t_cdf: degrees of freedom must be >= 1");
  const double a = central(t, df);
  return t >= 0 ? 0.5 + a / 2 : 0.5 - a / 2;
}

double t_quantile(double p, unsigned df) {
  require_p(p, "t_quantile");
  if (df < 1) throw std::invalid_argument("t_quantile: degrees of freedom must be >= 1");
  return bisect(p, [df](double t) { return t_cdf(t, df); });
}

double normal_quantile(double p) {
  require_p(p, "normal_quantile");
  return bisect(p, [](double z) { return 1 - stats::normal_sf(z); });
}

}  // namespace rlab::stats
