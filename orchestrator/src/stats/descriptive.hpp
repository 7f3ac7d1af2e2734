#pragma once
// Descriptive statistics of one sample (e.g. loops per minute of repeated fresh-boot runs).
// Every function takes the values in any order; none modifies its input. Values must be
// finite; an empty sample or a non-finite value throws std::invalid_argument naming the
// function and the position.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace rlab::stats {

/// Throws std::invalid_argument("<where>: ...") when `x` is empty or holds NaN/inf.
void require_finite(std::span<const double> x, std::string_view where);

/// Median: the middle value, or the mean of the two middle values for an even count.
/// Same unit as the input.
double median(std::span<const double> x);

/// Arithmetic mean. Same unit as the input.
double mean(std::span<const double> x);

/// Sample standard deviation with Bessel's correction (divisor n - 1). Same unit as the
/// input. Needs at least two values (throws std::invalid_argument otherwise).
double stddev(std::span<const double> x);

/// Relative standard deviation (coefficient of variation): stddev / |mean|, as a fraction
/// (0.05 = 5%, printed as "± 5%" in LKP-style tables). Needs two values and mean != 0.
double relative_stddev(std::span<const double> x);

/// Quantile by linear interpolation between order statistics (Hyndman & Fan 1996, type 7;
/// numpy's default): q in [0, 1]. `sorted` must be sorted ascending and non-empty.
double quantile_sorted(std::span<const double> sorted, double q);

/// All of the above for one sample. `stddev` and `relative_stddev` are NaN when n < 2
/// (and relative_stddev also when mean == 0).
struct Summary {
  std::size_t n = 0;
  double mean = 0;
  double median = 0;
  double stddev = 0;
  double relative_stddev = 0;
  double min = 0;
  double max = 0;
};
Summary summarize(std::span<const double> x);

}  // namespace rlab::stats
