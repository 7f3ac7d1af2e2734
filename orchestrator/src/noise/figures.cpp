#include "noise/figures.hpp"

#include "stats/power.hpp"
#include "stats/student_t.hpp"
#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlab::noise {

std::optional<Slope> fit_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n < 3 || y.size() != n) return std::nullopt;
  const double mx = stats::mean(x), my = stats::mean(y);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx <= 0) return std::nullopt;
  const double b = sxy / sxx, a = my - b * mx;
  double ssr = 0;
  for (std::size_t i = 0; i < n; ++i) ssr += std::pow(y[i] - a - b * x[i], 2);
  const double se = std::sqrt(ssr / static_cast<double>(n - 2) / sxx);
  const double t = stats::t_quantile(0.975, static_cast<unsigned>(n - 2));
  return Slope{b, b - t * se, b + t * se, static_cast<unsigned>(n)};
}

std::optional<double> pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n < 3 || y.size() != n) return std::nullopt;
  const double mx = stats::mean(x), my = stats::mean(y);
  double sxx = 0, syy = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx <= 0 || syy <= 0) return std::nullopt;
  return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

double pearson_p(double r, unsigned n) {
  if (n < 3) return 1;
  if (std::abs(r) >= 1) return 0;
  const double t = std::abs(r) * std::sqrt((n - 2) / (1 - r * r));
  return 2 * (1 - stats::t_cdf(t, n - 2));
}

namespace {
/// The figures of what the host gave the guest: mean vCPU share, its correlation with the
/// passes' lpm, and the boots' scores divided by it.
void vcpu_share_figures(const std::vector<BootPoint>& boots, CellFigures& f) {
  std::vector<double> share, lpm, normalised;
  bool every_boot = true;
  for (const auto& b : boots) {
    std::vector<double> mine;
    for (std::size_t i = 0; i < b.counted_lpm.size() && i < b.counted_vcpu_share.size(); ++i)
      if (const auto& s = b.counted_vcpu_share[i]) {
        share.push_back(*s);
        lpm.push_back(b.counted_lpm[i]);
        mine.push_back(*s);
      }
    if (mine.empty() || stats::mean(mine) <= 0) every_boot = false;
    else normalised.push_back(b.score / stats::mean(mine));
  }
  if (!share.empty()) f.mean_vcpu_share = stats::mean(share);
  f.vcpu_share_correlation = pearson(share, lpm);
  if (f.vcpu_share_correlation)
    f.vcpu_share_correlation_p = pearson_p(*f.vcpu_share_correlation, static_cast<unsigned>(share.size()));
  if (every_boot && normalised.size() >= 2) f.normalised_boot_rel_stddev = stats::relative_stddev(normalised);
}

/// The figures of what the host's hypervisor took from the host: mean steal over the counted
/// passes and its correlation with their lpm.
void host_steal_figures(const std::vector<BootPoint>& boots, CellFigures& f) {
  std::vector<double> steal, lpm;
  for (const auto& b : boots)
    for (std::size_t i = 0; i < b.counted_lpm.size() && i < b.counted_host_steal.size(); ++i)
      if (const auto& s = b.counted_host_steal[i]) {
        steal.push_back(*s);
        lpm.push_back(b.counted_lpm[i]);
      }
  if (!steal.empty()) f.mean_host_steal = stats::mean(steal);
  f.host_steal_correlation = pearson(steal, lpm);
  if (f.host_steal_correlation)
    f.host_steal_correlation_p = pearson_p(*f.host_steal_correlation, static_cast<unsigned>(steal.size()));
}
}  // namespace

CellFigures cell_figures(const std::vector<BootPoint>& boots, double alpha, double power) {
  CellFigures f;
  f.boots = static_cast<unsigned>(boots.size());
  if (boots.empty()) return f;
  std::vector<double> scores, t_h, rel, busy_x, busy_y, load_x, load_y;
  for (const auto& b : boots) scores.push_back(b.score);
  f.mean = stats::mean(scores);
  f.median = stats::median(scores);
  if (boots.size() >= 2 && f.mean != 0) f.boot_rel_stddev = stats::relative_stddev(scores);

  double var_sum = 0, lpm_sum = 0, warm_sum = 0;
  unsigned var_n = 0, lpm_n = 0, warm_n = 0;
  const double t0 = std::min_element(boots.begin(), boots.end(), [](auto& a, auto& b) {
                      return a.t_s < b.t_s;
                    })->t_s;
  for (const auto& b : boots) {
    if (b.counted_lpm.size() >= 2) {
      var_sum += std::pow(stats::stddev(b.counted_lpm), 2);
      ++var_n;
    }
    for (double l : b.counted_lpm) lpm_sum += l, ++lpm_n;
    if (b.warmup_lpm && !b.counted_lpm.empty()) {
      warm_sum += *b.warmup_lpm / stats::mean(b.counted_lpm) - 1;
      ++warm_n;
    }
    t_h.push_back((b.t_s - t0) / 3600);
    if (f.mean != 0) rel.push_back(b.score / f.mean);
    if (b.busy) busy_x.push_back(*b.busy), busy_y.push_back(b.score);
    if (b.load1) load_x.push_back(*b.load1), load_y.push_back(b.score);
  }
  if (var_n && lpm_sum > 0) f.pass_rel_stddev = std::sqrt(var_sum / var_n) / (lpm_sum / lpm_n);
  if (warm_n) f.warmup_offset = warm_sum / warm_n;
  if (rel.size() == boots.size()) f.drift = fit_slope(t_h, rel);
  f.load_correlation = pearson(busy_x, busy_y);
  if (f.load_correlation)
    f.load_correlation_p = pearson_p(*f.load_correlation, static_cast<unsigned>(busy_x.size()));
  f.load1_correlation = pearson(load_x, load_y);
  if (!busy_x.empty()) f.mean_busy = stats::mean(busy_x);
  if (!load_x.empty()) f.mean_load1 = stats::mean(load_x);
  vcpu_share_figures(boots, f);
  host_steal_figures(boots, f);
  if (f.boot_rel_stddev) {
    f.mde_4 = stats::minimum_detectable_effect(*f.boot_rel_stddev, 4, alpha, power);
    f.mde_8 = stats::minimum_detectable_effect(*f.boot_rel_stddev, 8, alpha, power);
    f.mde_16 = stats::minimum_detectable_effect(*f.boot_rel_stddev, 16, alpha, power);
  }
  return f;
}

}  // namespace rlab::noise
