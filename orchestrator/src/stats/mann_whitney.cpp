#include "stats/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/distributions.hpp"

namespace rlab::stats {
namespace {

constexpr std::size_t kExactLimitMw = 2500;     // n_a * n_b
constexpr std::size_t kExactHardLimit = 10000;    // memory/time bound of the recurrence

// Upper-tail probabilities sf[u] = P(U >= u), u = 0..m*n. The layers run over i = 1..m and
// each holds j = 0..n, so pass the larger size as m to keep memory at (n + 1)(mn + 1).
std::vector<double> exact_upper_tail(std::size_t m, std::size_t n) {
  const std::size_t umax = m * n;
  // layer[j][u] = c(i, j, u) for the current i; j = 0..n.
  const std::size_t width = umax + 1;
  std::vector<double> prev((n + 1) * width, 0.0), cur((n + 1) * width, 0.0);
  for (std::size_t j = 0; j <= n; ++j) prev[j * width] = 1;  // i = 0: one arrangement, U = 0
  for (std::size_t i = 1; i <= m; ++i) {
    std::fill(cur.begin(), cur.end(), 0.0);
    cur[0] = 1;  // j = 0
    for (std::size_t j = 1; j <= n; ++j) {
      double* c = &cur[j * width];
      const double* left = &cur[(j - 1) * width];
      const double* down = &prev[j * width];
      const std::size_t top = i * j;
      for (std::size_t u = 0; u <= top; ++u) {
        c[u] = left[u] + (u >= j ? down[u - j] : 0.0);
      }
    }
    std::swap(prev, cur);
  }
  const double* counts = &prev[n * width];
  const double total = std::accumulate(counts, counts + width, 0.0);
  std::vector<double> sf(width + 1, 0.0);
  for (std::size_t u = width; u-- > 0;) sf[u] = sf[u + 1] + counts[u] / total;
  sf.pop_back();
  return sf;
}

const std::vector<double>& cached_upper_tail(std::size_t m, std::size_t n) {
  static std::mutex mu;
  static std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cache;
  const auto key = std::minmax(m, n);
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, exact_upper_tail(key.second, key.first)).first;
  return it->second;  // std::map nodes are stable; entries are never erased
}

}  // namespace

double mann_whitney_exact_sf(std::size_t m, std::size_t n, double u) {
  if (m == 0 || n == 0) throw std::invalid_argument("stats::mann_whitney_exact_sf: empty sample");
  if (m * n > kExactHardLimit) {
    throw std::invalid_argument("stats::mann_whitney_exact_sf: n_a * n_b above 10000");
  }
  const auto& sf = cached_upper_tail(m, n);
  if (u <= 0) return 1.0;
  const auto k = static_cast<std::size_t>(std::ceil(u - 1e-9));
  return k < sf.size() ? sf[k] : 0.0;
}

MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b,
                                 PValueMethod method) {
  require_finite(a, "stats::mann_whitney_u (a)");
  require_finite(b, "stats::mann_whitney_u (b)");
  const std::size_t na = a.size(), nb = b.size(), n = na + nb;

  // Pooled sample, tagged by origin, sorted; midranks for ties.
  std::vector<std::pair<double, bool>> pooled;  // (value, from a)
  pooled.reserve(n);
  for (double v : a) pooled.emplace_back(v, true);
  for (double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end());
  double rank_sum_a = 0;
  double tie_term = 0;  // sum over tie groups of t^3 - t
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_a += midrank;
    }
    tie_term += t * t * t - t;
    i = j;
  }

  MannWhitneyResult r;
  const double dna = static_cast<double>(na), dnb = static_cast<double>(nb);
  r.u_a = rank_sum_a - dna * (dna + 1) / 2;
  r.u_b = dna * dnb - r.u_a;
  r.ties = tie_term > 0;
  const double u = std::max(r.u_a, r.u_b);

  bool exact = false;
  switch (method) {
    case PValueMethod::exact:
      if (r.ties) {
        throw std::invalid_argument(
            "stats::mann_whitney_u: the exact p-value needs samples without ties");
      }
      if (na * nb > kExactHardLimit) {
        throw std::invalid_argument("stats::mann_whitney_u: the exact p-value needs n_a * n_b <= 10000");
      }
      exact = true;
      break;
    case PValueMethod::automatic:
      exact = !r.ties && na * nb <= kExactLimitMw;
      break;
    case PValueMethod::asymptotic:
      exact = false;
      break;
  }

  r.exact = exact;
  if (exact) {
    r.p = std::min(1.0, 2 * mann_whitney_exact_sf(na, nb, u));
    return r;
  }
  const double dn = static_cast<double>(n);
  const double var = dna * dnb / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (!(var > 0)) {
    r.p = 1;
    return r;
  }
  r.z = (u - dna * dnb / 2 - 0.5) / std::sqrt(var);
  r.p = std::clamp(2 * normal_sf(r.z), 0.0, 1.0);
  return r;
}

}  // namespace rlab::stats
