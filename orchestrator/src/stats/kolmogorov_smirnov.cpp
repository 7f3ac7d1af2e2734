#include "stats/kolmogorov_smirnov.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/distributions.hpp"

namespace rlab::stats {
namespace {

constexpr std::size_t kExactLimitKs = 1000000;  // n_a * n_b

// max over x of |i(x) * nb - j(x) * na|, i/j = #values <= x in a/b: D * na * nb, exactly.
std::int64_t scaled_statistic(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const auto na = static_cast<std::int64_t>(a.size()), nb = static_cast<std::int64_t>(b.size());
  std::size_t i = 0, j = 0;
  std::int64_t best = 0;
  while (i < a.size() || j < b.size()) {
    double x;
    if (j == b.size() || (i < a.size() && a[i] <= b[j])) {
      x = a[i];
    } else {
      x = b[j];
    }
    while (i < a.size() && a[i] == x) ++i;  // step past the whole tie group in both
    while (j < b.size() && b[j] == x) ++j;
    const std::int64_t diff = static_cast<std::int64_t>(i) * nb - static_cast<std::int64_t>(j) * na;
    best = std::max(best, std::abs(diff));
  }
  return best;
}

// P(some lattice point on a random path has |i nb - j na| >= h).
double exact_p(std::int64_t na, std::int64_t nb, std::int64_t h) {
  if (h <= 0) return 1.0;
  // v[j] = probability a random path to (i, j) stayed inside; row by row over i.
  std::vector<double> v(static_cast<std::size_t>(nb) + 1, 0.0);
  auto inside = [&](std::int64_t i, std::int64_t j) { return std::abs(i * nb - j * na) < h; };
  v[0] = 1;
  for (std::int64_t j = 1; j <= nb; ++j) v[j] = inside(0, j) ? v[j - 1] : 0.0;
  for (std::int64_t i = 1; i <= na; ++i) {
    v[0] = inside(i, 0) ? v[0] : 0.0;
    for (std::int64_t j = 1; j <= nb; ++j) {
      if (!inside(i, j)) {
        v[j] = 0;
        continue;
      }
      const double s = static_cast<double>(i + j);
      v[j] = (static_cast<double>(i) * v[j] + static_cast<double>(j) * v[j - 1]) / s;
    }
  }
  return std::clamp(1.0 - v[nb], 0.0, 1.0);
}

}  // namespace

KolmogorovSmirnovResult kolmogorov_smirnov(std::span<const double> a, std::span<const double> b,
                                           PValueMethod method) {
  require_finite(a, "stats::kolmogorov_smirnov (a)");
  require_finite(b, "stats::kolmogorov_smirnov (b)");
  const auto na = static_cast<std::int64_t>(a.size()), nb = static_cast<std::int64_t>(b.size());
  const std::int64_t h = scaled_statistic({a.begin(), a.end()}, {b.begin(), b.end()});
  KolmogorovSmirnovResult r;
  r.d = static_cast<double>(h) / (static_cast<double>(na) * static_cast<double>(nb));
  const bool feasible = a.size() * b.size() <= kExactLimitKs;
  if (method == PValueMethod::exact && !feasible) {
    throw std::invalid_argument(
        "stats::kolmogorov_smirnov: the exact p-value needs n_a * n_b <= 1000000");
  }
  r.exact = method == PValueMethod::exact || (method == PValueMethod::automatic && feasible);
  if (r.exact) {
    r.p = exact_p(na, nb, h);
  } else {
    const double e = static_cast<double>(na) * static_cast<double>(nb) / static_cast<double>(na + nb);
    const double se = std::sqrt(e);
    r.p = kolmogorov_sf((se + 0.12 + 0.11 / se) * r.d);
  }
  return r;
}

}  // namespace rlab::stats
