#include "stats/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace rlab::stats {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::same: return "same";
    case Verdict::different: return "different";
    case Verdict::unknown: return "unknown";
  }
  return "unknown";
}

namespace {

void check_options(const VerdictOptions& opt) {
  if (!(opt.alpha > 0 && opt.alpha < 0.5)) {
    throw std::invalid_argument("stats::VerdictOptions: alpha must be in (0, 0.5)");
  }
  if (!(opt.min_effect >= 0 && opt.min_effect < 1)) {
    throw std::invalid_argument("stats::VerdictOptions: min_effect must be in [0, 1)");
  }
}

}  // namespace

Difference test_difference(std::span<const double> a, std::span<const double> b,
                           const VerdictOptions& opt) {
  check_options(opt);
  Difference d;
  d.median_a = median(a);
  d.median_b = median(b);
  if (d.median_a == 0) throw std::invalid_argument("stats::test_difference: median of a is 0");
  d.relative_change = (d.median_b - d.median_a) / std::abs(d.median_a);
  d.mann_whitney = mann_whitney_u(a, b, opt.method);
  d.kolmogorov_smirnov = kolmogorov_smirnov(a, b, opt.method);
  d.p_min = std::min(d.mann_whitney.p, d.kolmogorov_smirnov.p);
  d.significant = d.p_min <= opt.alpha;
  d.large_enough = std::abs(d.relative_change) >= opt.min_effect;
  d.different = d.significant && d.large_enough;
  return d;
}

Comparison compare(std::span<const double> a, std::span<const double> b, const VerdictOptions& opt) {
  Comparison c;
  c.a = summarize(a);
  c.b = summarize(b);
  c.boots_floor = shift_interval_floor(1 - 2 * opt.alpha);
  if (c.a.median == 0) {  // no change relative to 0: nothing to judge (the boots completed no loop)
    check_options(opt);
    c.difference.median_b = c.b.median;
    c.ratio.confidence = 1 - 2 * opt.alpha;
    c.reason = "the base's median is 0 (its boots completed no loop in their passes): no relative change, so the verdict is unknown";
    return c;
  }
  c.difference = test_difference(a, b, opt);
  // A ratio needs scores > 0: a boot that completed no loop in its passes (0 lpm, a guest
  // too slow for its pass) leaves the interval out, and with it any "same".
  const auto positive = [](std::span<const double> x) {
    return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v) && v > 0; });
  };
  const bool ratio_defined = positive(a) && positive(b);
  if (ratio_defined) c.ratio = ratio_shift_interval(a, b, 1 - 2 * opt.alpha);
  else c.ratio.confidence = 1 - 2 * opt.alpha;
  const Difference& d = c.difference;
  const double lo = 1 - opt.min_effect, hi = 1 + opt.min_effect;
  if (a.size() < c.boots_floor || b.size() < c.boots_floor) {
    c.verdict = Verdict::unknown;
    c.reason = fmt::format("{} and {} boots: at alpha {:g} a verdict needs at least {} boots a side (change {:+.1f}%: unknown)",
                           a.size(), b.size(), opt.alpha, c.boots_floor, 100 * d.relative_change);
  } else if (d.different) {
    c.verdict = Verdict::different;
    c.reason = fmt::format("min p {:.3g} <= {:g} and |{:+.1f}%| >= {:g}%", d.p_min, opt.alpha,
                           100 * d.relative_change, 100 * opt.min_effect);
  } else if (c.ratio.exists && c.ratio.low >= lo && c.ratio.high <= hi) {
    c.verdict = Verdict::same;
    c.reason = fmt::format("{:.1f}% interval of the ratio [{:.4f}, {:.4f}] inside [{:g}, {:g}]",
                           100 * c.ratio.confidence, c.ratio.low, c.ratio.high, lo, hi);
  } else if (!ratio_defined) {
    c.verdict = Verdict::unknown;
    c.reason = fmt::format("min p {:.3g}, change {:+.1f}%; a boot scored 0 lpm (no loop in its passes), so the "
                           "ratio has no interval: measure with longer passes",
                           d.p_min, 100 * d.relative_change);
  } else {
    c.verdict = Verdict::unknown;
    c.reason = fmt::format(
        "min p {:.3g}, change {:+.1f}%, {:.1f}% interval of the ratio [{:.4f}, {:.4f}] "
        "not inside [{:g}, {:g}]: measure more",
        d.p_min, 100 * d.relative_change, 100 * c.ratio.confidence, c.ratio.low, c.ratio.high, lo, hi);
  }
  return c;
}

std::size_t next_sample_count(std::size_t current, const SamplingPlan& plan) {
  if (plan.initial < 2 || plan.cap < plan.initial) {
    throw std::invalid_argument("stats::SamplingPlan: need 2 <= initial <= cap");
  }
  if (current >= plan.cap) return 0;
  return std::clamp(2 * current, plan.initial, plan.cap);
}

}  // namespace rlab::stats
