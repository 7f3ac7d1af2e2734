#include "stats/power.hpp"

#include "stats/student_t.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlab::stats {

double minimum_detectable_effect(double rel_sd, unsigned n, double alpha, double power) {
  if (n < 2) throw std::invalid_argument("minimum_detectable_effect: needs n >= 2 boots a side");
  if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
    throw std::invalid_argument("minimum_detectable_effect: alpha and power must be in (0, 1)");
  const unsigned df = 2 * n - 2;
  return (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) * rel_sd * std::sqrt(2.0 / n);
}

unsigned rank_test_floor(double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("rank_test_floor: alpha must be in (0, 1)");
  double c = 2;  // C(2n, n) for n = 1
  unsigned n = 1;
  while (2 / c > alpha) {
    c = c * (2 * n + 1) * (2 * n + 2) / ((n + 1) * (n + 1));
    ++n;
  }
  return std::max(n, 2u);
}

std::optional<unsigned> boots_for_effect(double rel_sd, double effect, unsigned cap, double alpha,
                                         double power) {
  if (!(effect > 0) || !(rel_sd >= 0) || cap < 2)
    throw std::invalid_argument("boots_for_effect: needs effect > 0, rel_sd >= 0 and cap >= 2");
  // The MDE falls monotonically with n: binary search for the first n that reaches `effect`.
  const unsigned floor = rank_test_floor(alpha);
  if (floor > cap || minimum_detectable_effect(rel_sd, cap, alpha, power) > effect) return std::nullopt;
  unsigned lo = floor, hi = cap;
  while (lo < hi) {
    const unsigned mid = lo + (hi - lo) / 2;
    if (minimum_detectable_effect(rel_sd, mid, alpha, power) <= effect) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

}  // namespace rlab::stats
