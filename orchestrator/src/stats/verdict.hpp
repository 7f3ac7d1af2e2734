#pragma once
// Is kernel B's metric different from kernel A's? The verdict rule rlab uses everywhere
// (compare tables, bisect steps, nightly checks). Modelled on Chromium Pinpoint's comparison
// (min of the Mann-Whitney and Kolmogorov-Smirnov p-values; "unknown" means: measure more),
// plus a minimum effect size and an equivalence test so that "same" is a claim the data
// support, not merely the absence of a significant difference (Schuirmann, J. Pharmacokinet.
// Biopharm. 15 (1987) 657-680: two one-sided tests at level alpha = a (1 - 2 alpha) interval
// inside the equivalence margin). The interval is distribution-free and valid at every
// sample size (stats/shift_interval.hpp), so it does not exist below a floor of boots: at
// alpha 0.01 neither "same" nor "different" can be reached with fewer than 5 boots a side.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "stats/descriptive.hpp"
#include "stats/kolmogorov_smirnov.hpp"
#include "stats/mann_whitney.hpp"
#include "stats/shift_interval.hpp"

namespace rlab::stats {

/// Outcome of a comparison.
enum class Verdict {
  same,       ///< the data rule out a change as large as the minimum effect
  different,  ///< significant (min p <= alpha) and at least the minimum effect
  unknown,    ///< neither: measure more (next_sample_count)
};

/// "same", "different" or "unknown".
std::string_view verdict_name(Verdict v);

/// Thresholds of the verdict rule.
struct VerdictOptions {
  double alpha = 0.01;                 ///< significance level for min(p_MWU, p_KS), in (0, 0.5)
  double min_effect = 0.02;            ///< smallest relevant |median change| as a fraction of A's median
  PValueMethod method = PValueMethod::automatic;
};

/// The significance part of the rule, without the bootstrap (cheap; bisect steps use it).
struct Difference {
  double median_a = 0;
  double median_b = 0;
  double relative_change = 0;  ///< (median_b - median_a) / median_a; -0.1 = B's median 10% lower
  MannWhitneyResult mann_whitney;
  KolmogorovSmirnovResult kolmogorov_smirnov;
  double p_min = 1;            ///< min(mann_whitney.p, kolmogorov_smirnov.p)
  bool significant = false;    ///< p_min <= alpha
  bool large_enough = false;   ///< |relative_change| >= min_effect
  bool different = false;      ///< significant && large_enough
};

/// Full comparison of base sample `a` against new sample `b` (same metric and unit).
struct Comparison {
  Summary a;
  Summary b;
  Difference difference;
  ShiftInterval ratio;  ///< distribution-free (1 - 2 alpha) interval of B's scale against A's
  Verdict verdict = Verdict::unknown;
  /// The fewest boots a side with which a verdict is possible at all at this alpha (the rank
  /// tests' and the interval's floor, shift_interval_floor(1 - 2 alpha)); a side with fewer
  /// makes the verdict "unknown" whatever the data.
  std::size_t boots_floor = 0;
  std::string reason;   ///< one line in words, e.g. "min p 0.0003 <= 0.01 and |-12.1%| >= 2%"
};

/// Computes the significance part of the rule. Throws std::invalid_argument when a sample is
/// empty or not finite, when median(a) is 0, or when an option is out of range.
Difference test_difference(std::span<const double> a, std::span<const double> b,
                           const VerdictOptions& opt = {});

/// The verdict rule:
///  - different: min(p_MWU, p_KS) <= alpha and |median change| >= min_effect;
///  - same: otherwise, if the distribution-free (1 - 2 alpha) interval of B's scale against A's
///    (ratio_shift_interval) exists and lies inside [1 - min_effect, 1 + min_effect];
///  - unknown: otherwise; with fewer than boots_floor boots a side always, and the reason
///    says how many boots a side a verdict needs; when median(a) is 0 (no relative change
///    exists; `difference` then holds only the medians).
/// A value of 0 (a boot that completed no loop) leaves the ratio interval out. Throws
/// std::invalid_argument when a sample is empty or not finite, or an option is out of range.
Comparison compare(std::span<const double> a, std::span<const double> b,
                   const VerdictOptions& opt = {});

/// Adaptive sampling as Pinpoint does: start with `initial` runs per side, double after every
/// "unknown", stop at `cap`.
struct SamplingPlan {
  std::size_t initial = 10;  ///< runs per side before the first verdict (>= 2)
  std::size_t cap = 80;      ///< most runs per side (>= initial)
};

/// Total runs per side to have after an "unknown" with `current` runs: min(2 current, cap),
/// at least plan.initial; 0 when `current` already reached the cap (give up: still unknown).
std::size_t next_sample_count(std::size_t current, const SamplingPlan& plan);

}  // namespace rlab::stats
