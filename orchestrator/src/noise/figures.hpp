#pragma once
// The noise figures of one cell from its boots (pure computation, docs/noise.md): boot-to-boot
// and pass-to-pass relative stddev, the warm-up pass's offset, drift over time (least-squares
// slope with its 95% interval), correlation with host load, vCPU share and host steal, and the
// minimum detectable effect.
#include <optional>
#include <vector>

namespace rlab::noise {

/// One boot of a cell as the figures need it.
struct BootPoint {
  double t_s = 0;                 ///< start, seconds on any fixed clock (e.g. Unix time)
  double score = 0;               ///< lpm over the counted passes
  std::vector<double> counted_lpm;  ///< lpm of each counted pass
  std::optional<double> warmup_lpm; ///< lpm of the first warm-up pass, if the cell has one
  std::optional<double> busy;     ///< host busy fraction over the boot, [0, 1]
  std::optional<double> load1;    ///< host 1-minute load average before the boot
  /// Per counted pass (same order as counted_lpm): the share of its vCPUs' time the host ran
  /// the guest (store::BootTiming::pass_vcpu_share); nullopt where no sample had one.
  std::vector<std::optional<double>> counted_vcpu_share;
  /// Per counted pass (same order as counted_lpm): the host's steal, the stolen share of all
  /// host CPUs' time in [0, 1] (store::BootTiming::pass_host_steal); nullopt where no sample
  /// had one.
  std::vector<std::optional<double>> counted_host_steal;
};

/// A least-squares line y = a + b x with the slope's two-sided 95% interval (Student's t
/// with n - 2 degrees of freedom).
struct Slope {
  double slope = 0;
  double ci_low = 0;
  double ci_high = 0;
  unsigned n = 0;
};

/// Least-squares slope of y on x with its 95% interval. nullopt for fewer than 3 points or
/// when all x are equal.
std::optional<Slope> fit_slope(const std::vector<double>& x, const std::vector<double>& y);

/// Pearson's r of x and y; nullopt for fewer than 3 pairs or a constant side.
std::optional<double> pearson(const std::vector<double>& x, const std::vector<double>& y);

/// Two-sided p-value of r = 0 for n pairs (t = r sqrt((n-2)/(1-r^2)), n - 2 df).
double pearson_p(double r, unsigned n);

/// The figures of one cell. Relative figures are fractions (0.05 = 5%).
struct CellFigures {
  unsigned boots = 0;                       ///< boots with a score
  double mean = 0;                          ///< lpm
  double median = 0;                        ///< lpm
  std::optional<double> boot_rel_stddev;    ///< stddev / mean of the boots' scores (>= 2 boots)
  /// Pooled within-boot stddev of the counted passes' lpm over their mean: sqrt(mean of each
  /// boot's pass variance) / mean lpm (boots with >= 2 counted passes).
  std::optional<double> pass_rel_stddev;
  std::optional<double> warmup_offset;      ///< mean of warm-up lpm / the boot's counted mean - 1
  std::optional<Slope> drift;               ///< relative score change per hour (score / mean)
  std::optional<double> load_correlation;   ///< Pearson r of score and host busy fraction
  std::optional<double> load_correlation_p; ///< its two-sided p-value
  std::optional<double> load1_correlation;  ///< Pearson r of score and the load average before the boot
  std::optional<double> mean_busy;          ///< mean host busy fraction
  std::optional<double> mean_load1;         ///< mean load average before the boots
  std::optional<double> mde_4, mde_8, mde_16;  ///< minimum detectable effect at 4/8/16 boots a side
  /// Mean vCPU share over the counted passes that have one: the CPU the host gave the guest.
  std::optional<double> mean_vcpu_share;
  /// Pearson r of counted passes' lpm and their vCPU share (does the noise follow what the
  /// host gave the guest?), with its two-sided p-value; 3+ passes with a share.
  std::optional<double> vcpu_share_correlation;
  std::optional<double> vcpu_share_correlation_p;
  /// Mean host steal over the counted passes that have one: the share of the host's own CPU
  /// time its hypervisor gave to others (the neighbours), [0, 1].
  std::optional<double> mean_host_steal;
  /// Pearson r of counted passes' lpm and their host steal (does the noise follow the
  /// neighbours?), with its two-sided p-value; 3+ passes with a steal that varies.
  std::optional<double> host_steal_correlation;
  std::optional<double> host_steal_correlation_p;
  /// Diagnostic, not the score a verdict uses: boot-to-boot relative stddev of each boot's
  /// score divided by its mean vCPU share over the counted passes (2+ boots, every boot with
  /// a share).
  std::optional<double> normalised_boot_rel_stddev;
};

/// The figures of `boots` (any order) at `alpha` and `power`. Boots without a score must not
/// be passed. Figures that need more boots than given are nullopt.
CellFigures cell_figures(const std::vector<BootPoint>& boots, double alpha = 0.01, double power = 0.9);

}  // namespace rlab::noise
