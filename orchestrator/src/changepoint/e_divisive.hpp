#pragma once
// Change points in a series (e.g. a cell's nightly loops per minute) by E-Divisive means:
// hierarchical divisive segmentation on the energy statistic with exponent 1 (Matteson &
// James, "A Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data",
// JASA 109 (2014) 334-345), each new change point accepted only when a permutation test says
// it is significant -- the method behind MongoDB's signal-processing and Apache Otava.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rlab::changepoint {

/// Parameters of e_divisive().
struct EDivisiveOptions {
  /// Significance level of each permutation test, in [1/(permutations + 1), 1): p cannot be
  /// smaller than 1/(permutations + 1), so a smaller alpha could never accept a change point.
  double alpha = 0.01;
  std::size_t permutations = 199; ///< permutations per test (>= 19); p has resolution 1/(perms+1)
  std::size_t min_segment = 3;    ///< fewest points on either side of a change point (>= 2)
  std::size_t max_change_points = 0;  ///< stop after this many (0: no limit)
  std::uint64_t seed = 0x6564697675;  ///< permutation stream seed (reproducible p-values)
};

/// One accepted change point.
struct ChangePoint {
  std::size_t index = 0;    ///< first point of the new segment: the change is between index-1 and index
  double q = 0;             ///< energy statistic Q of the split (unit of the series)
  double p = 1;             ///< permutation p-value (#{perm Q >= q} + 1) / (perms + 1)
  std::size_t order = 0;    ///< 0 for the first change point found, 1 for the second, ...
  double mean_before = 0;   ///< mean of the final segment that ends at index - 1
  double mean_after = 0;    ///< mean of the final segment that starts at index
  /// (mean_after - mean_before) / |mean_before|; 0 when mean_before is 0. -0.1: 10% lower.
  double relative_change = 0;
};

/// Result of e_divisive(): change points sorted by index, and the p-value of the first
/// candidate that was rejected (1 when the segmentation ran out of splittable segments).
struct Segmentation {
  std::vector<ChangePoint> change_points;
  double rejected_p = 1;
};

/// Best split of one segment: Q(tau) = m k / (m + k) * (2/(m k) sum|x_i - y_j|
/// - sum_{i<i'}|x_i - x_i'| / C(m,2) - sum_{j<j'}|y_j - y_j'| / C(k,2)), x = seg[0, tau),
/// y = seg[tau, n), m = tau, k = n - tau, maximised over min_segment <= tau <= n - min_segment.
/// O(n^2) time. Returns {tau, Q}; tau = 0 when the segment is too short to split.
struct Split {
  std::size_t tau = 0;
  double q = 0;
};
Split best_split(std::span<const double> seg, std::size_t min_segment);

/// Segments `x` (values finite; throws std::invalid_argument naming the position otherwise,
/// or on options out of range, alpha below 1/(permutations + 1) among them). Each round finds the best split of every current segment,
/// takes the one with the largest Q, and tests it: the values inside every segment are
/// permuted independently, the largest best-split Q over all segments is recomputed, and
/// p = (#{permuted >= observed} + 1) / (permutations + 1). p <= alpha accepts the change point
/// and starts the next round; otherwise the procedure stops. Time O(rounds * perms * n^2).
Segmentation e_divisive(std::span<const double> x, const EDivisiveOptions& opt = {});

}  // namespace rlab::changepoint
