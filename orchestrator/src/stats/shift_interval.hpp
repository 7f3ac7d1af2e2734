#pragma once
// A distribution-free confidence interval for how much B's scores are scaled against A's: the
// Hodges-Lehmann shift of the logs with Moses' interval (Moses, in Walsh, Handbook of
// Nonparametric Statistics III, 1965; Hollander, Wolfe & Chicken, Nonparametric Statistical
// Methods, 3rd ed., 2014, section 4.3). With D the m n differences log b_j - log a_i sorted
// ascending, the estimate is exp(median D) and the interval [exp D_(k), exp D_(mn + 1 - k)],
// k the largest integer with P(U <= k - 1) <= (1 - confidence) / 2 under the null (the exact
// Mann-Whitney distribution; its normal approximation, with continuity correction, for
// m n > 10000). Its coverage is at least `confidence` for continuous scores whose
// distributions differ by a scale factor, at every sample size -- unlike a percentile
// bootstrap, which at n = 1 collapses to the one ratio and is too narrow at small n. The
// interval exists only when some k >= 1 qualifies: 2 / C(m + n, m) <= 1 - confidence.
// Cost O(m n log(m n)).
#include <cstddef>
#include <span>

namespace rlab::stats {

/// Moses' interval of the ratio of B's location to A's.
struct ShiftInterval {
  bool exists = false;     ///< false: too few scores for `confidence` (the bounds are then 0)
  double estimate = 0;     ///< exp(median of D): the Hodges-Lehmann ratio, b / a
  double low = 0, high = 0;  ///< the interval of the ratio; exists only
  double confidence = 0;   ///< the coverage achieved, 1 - 2 P(U <= k - 1) >= the one asked for
  std::size_t k = 0;       ///< the order statistic used (1-based); 0 when none exists
};

/// The interval at `confidence` in (0, 1). Every score must be finite and > 0; throws
/// std::invalid_argument otherwise, or for an empty sample.
ShiftInterval ratio_shift_interval(std::span<const double> a, std::span<const double> b, double confidence);

/// The fewest scores a side (m = n) for which ratio_shift_interval() exists at `confidence`.
std::size_t shift_interval_floor(double confidence);

}  // namespace rlab::stats
