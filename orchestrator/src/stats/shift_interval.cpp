#include "stats/shift_interval.hpp"

#include "stats/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace rlab::stats {
namespace {

/// P(U <= u) under the null for sizes (m, n): by symmetry P(U >= m n - u).
double lower_tail(std::size_t m, std::size_t n, double u) {
  const double mn = static_cast<double>(m * n);
  if (m * n <= 10000) return mann_whitney_exact_sf(m, n, mn - u);
  const double sd = std::sqrt(mn * static_cast<double>(m + n + 1) / 12.0);
  const double z = (u + 0.5 - mn / 2) / sd;
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

}  // namespace

ShiftInterval ratio_shift_interval(std::span<const double> a, std::span<const double> b, double confidence) {
  if (a.empty() || b.empty()) throw std::invalid_argument("ratio_shift_interval: a sample is empty");
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("ratio_shift_interval: confidence must be in (0, 1)");
  for (const auto* s : {&a, &b})
    for (const double x : *s)
      if (!std::isfinite(x) || x <= 0) throw std::invalid_argument("ratio_shift_interval: scores must be finite and > 0");
  std::vector<double> d;
  d.reserve(a.size() * b.size());
  for (const double y : b)
    for (const double x : a) d.push_back(std::log(y) - std::log(x));
  std::sort(d.begin(), d.end());
  ShiftInterval r;
  const std::size_t n = d.size();
  r.estimate = std::exp(n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2);
  const double tail = (1 - confidence) / 2 * (1 + 1e-9);  // 1 - 0.9 is 0.0999...98 in binary
  // The largest k with P(U <= k - 1) <= tail; P grows with k.
  std::size_t lo = 0, hi = n / 2 + 1;  // invariant: k = lo qualifies (or lo = 0), k = hi does not
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (lower_tail(a.size(), b.size(), static_cast<double>(mid - 1)) <= tail) lo = mid;
    else hi = mid;
  }
  if (lo == 0) return r;
  r.exists = true;
  r.k = lo;
  r.low = std::exp(d[lo - 1]);
  r.high = std::exp(d[n - lo]);
  r.confidence = 1 - 2 * lower_tail(a.size(), b.size(), static_cast<double>(lo - 1));
  return r;
}

std::size_t shift_interval_floor(double confidence) {
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("shift_interval_floor: confidence must be in (0, 1)");
  double c = 2;  // C(2n, n) for n = 1
  std::size_t n = 1;
  while (2 / c > (1 - confidence) * (1 + 1e-9)) {
    c = c * static_cast<double>(2 * n + 1) * static_cast<double>(2 * n + 2) / static_cast<double>((n + 1) * (n + 1));
    ++n;
  }
  return n;
}

}  // namespace rlab::stats
