#include "stats/pooled_t.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "stats/descriptive.hpp"
#include "stats/student_t.hpp"

namespace rlab::stats {

PooledSpread pooled_spread(std::initializer_list<std::span<const double>> samples) {
  double squares = 0;
  std::size_t values = 0, groups = 0;
  for (const auto s : samples) {
    if (s.empty()) continue;
    double sum = 0;
    for (const double x : s) {
      if (!std::isfinite(x)) throw std::invalid_argument("stats::pooled_spread: a value is not finite");
      sum += x;
    }
    const double m = sum / static_cast<double>(s.size());
    for (const double x : s) squares += (x - m) * (x - m);
    values += s.size();
    ++groups;
  }
  if (values <= groups)
    throw std::invalid_argument("stats::pooled_spread: the samples leave no degree of freedom");
  PooledSpread p;
  p.df = static_cast<unsigned>(values - groups);
  p.sd = std::sqrt(squares / p.df);
  return p;
}

double pooled_t_p(std::span<const double> a, std::span<const double> b, const PooledSpread& spread,
                  double floor_sd) {
  if (a.empty() || b.empty()) throw std::invalid_argument("stats::pooled_t_p: a sample is empty");
  if (spread.df < 1 || !(floor_sd >= 0))
    throw std::invalid_argument("stats::pooled_t_p: needs spread.df >= 1 and floor_sd >= 0");
  const double diff = mean(b) - mean(a);
  const double sd = std::max(spread.sd, floor_sd);
  if (sd == 0) return diff == 0 ? 1.0 : 0.0;
  const double se = sd * std::sqrt(1.0 / static_cast<double>(a.size()) + 1.0 / static_cast<double>(b.size()));
  return std::min(1.0, 2 * t_cdf(-std::abs(diff) / se, spread.df));
}

Difference pooled_t_difference(std::span<const double> a, std::span<const double> b,
                               const PooledSpread& spread, double floor_sd, const VerdictOptions& opt) {
  if (!(opt.alpha > 0 && opt.alpha < 0.5) || !(opt.min_effect >= 0))
    throw std::invalid_argument("stats::pooled_t_difference: alpha must be in (0, 0.5) and min_effect >= 0");
  Difference d;
  d.median_a = median(a);
  d.median_b = median(b);
  if (d.median_a == 0) throw std::invalid_argument("stats::pooled_t_difference: median of a is 0");
  d.relative_change = (d.median_b - d.median_a) / std::abs(d.median_a);
  d.p_min = pooled_t_p(a, b, spread, floor_sd);
  d.significant = d.p_min <= opt.alpha;
  d.large_enough = std::abs(d.relative_change) >= opt.min_effect;
  d.different = d.significant && d.large_enough;
  return d;
}

std::optional<unsigned> boots_for_shift(double sd, double shift, unsigned reference, unsigned df_without,
                                        unsigned cap, double alpha, double power) {
  if (shift == 0 || !(sd > 0) || reference == 0 || cap < 2 || !(alpha > 0 && alpha < 1) ||
      !(power > 0 && power < 1))
    throw std::invalid_argument("stats::boots_for_shift: needs shift != 0, sd > 0, reference >= 1, cap >= 2 "
                                "and alpha, power in (0, 1)");
  for (unsigned n = 2; n <= cap; ++n) {
    const unsigned df = df_without + n - 1;
    const double reach = (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) * sd *
                         std::sqrt(1.0 / n + 1.0 / reference);
    if (reach <= std::abs(shift)) return n;
  }
  return std::nullopt;
}

}  // namespace rlab::stats
