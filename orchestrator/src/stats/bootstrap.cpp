#include "stats/bootstrap.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/random.hpp"

namespace rlab::stats {
namespace {

// Median of a resample of `x` drawn into `buf` (reused to avoid allocations).
double resampled_median(std::span<const double> x, std::vector<double>& buf, Rng& rng) {
  buf.resize(x.size());
  for (double& v : buf) v = x[rng.index(x.size())];
  const std::size_t mid = buf.size() / 2;
  std::nth_element(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(mid), buf.end());
  const double upper = buf[mid];
  if (buf.size() % 2 == 1) return upper;
  const double lower = *std::max_element(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

}  // namespace

RatioInterval bootstrap_median_ratio(std::span<const double> a, std::span<const double> b,
                                     const BootstrapOptions& opt) {
  require_finite(a, "stats::bootstrap_median_ratio (a)");
  require_finite(b, "stats::bootstrap_median_ratio (b)");
  if (std::any_of(a.begin(), a.end(), [](double v) { return v <= 0; })) {
    throw std::invalid_argument("stats::bootstrap_median_ratio: base sample a has a value <= 0");
  }
  if (opt.resamples < 100) {
    throw std::invalid_argument("stats::bootstrap_median_ratio: resamples must be >= 100");
  }
  if (!(opt.confidence > 0 && opt.confidence < 1)) {
    throw std::invalid_argument("stats::bootstrap_median_ratio: confidence must be in (0, 1)");
  }
  Rng rng(opt.seed);
  std::vector<double> ratios(opt.resamples);
  std::vector<double> buf_a, buf_b;
  for (double& r : ratios) {
    const double ma = resampled_median(a, buf_a, rng);
    const double mb = resampled_median(b, buf_b, rng);
    r = mb / ma;
  }
  std::sort(ratios.begin(), ratios.end());
  RatioInterval out;
  out.ratio = median(b) / median(a);
  out.low = quantile_sorted(ratios, (1 - opt.confidence) / 2);
  out.high = quantile_sorted(ratios, (1 + opt.confidence) / 2);
  out.confidence = opt.confidence;
  out.resamples = opt.resamples;
  return out;
}

}  // namespace rlab::stats
