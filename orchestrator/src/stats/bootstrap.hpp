#pragma once
// Bootstrap confidence interval of the ratio of two medians (new / base), e.g. how much
// loops per minute changed between two kernels. Efron & Tibshirani, "An Introduction to the
// Bootstrap" (1993), ch. 13 (percentile interval).
#include <cstddef>
#include <cstdint>
#include <span>

namespace rlab::stats {

/// How to bootstrap. The same seed and inputs always give the same interval (Rng).
struct BootstrapOptions {
  std::size_t resamples = 10000;    ///< number of resampled pairs (>= 100)
  double confidence = 0.98;         ///< two-sided coverage of the interval, in (0, 1)
  std::uint64_t seed = 0x726c6162;  ///< "rlab"
};

/// Point estimate and percentile interval of median(b) / median(a). Dimensionless: 1.0 means
/// no change, 0.9 means b's median is 10% below a's.
struct RatioInterval {
  double ratio = 1;  ///< median(b) / median(a) of the observed samples
  double low = 1;    ///< lower bound: (1 - confidence)/2 quantile of the bootstrap ratios
  double high = 1;   ///< upper bound: (1 + confidence)/2 quantile
  double confidence = 0;
  std::size_t resamples = 0;
};

/// Resamples a and b independently with replacement (each to its own size), takes the
/// ratio of the resampled medians, and returns the percentile interval (quantiles by linear
/// interpolation, type 7). Every value of `a` must be > 0 so that every ratio is defined;
/// values must be finite. Throws std::invalid_argument naming the problem otherwise.
RatioInterval bootstrap_median_ratio(std::span<const double> a, std::span<const double> b,
                                     const BootstrapOptions& opt = {});

}  // namespace rlab::stats
