#pragma once
// The pooled two-sample t test with a floor on the spread: what decides a bisection step in
// deterministic mode (`clock: icount`), where every boot of one kernel scores the same loops
// give or take one and rank tests, made for noisy samples, waste boots on ties
// (docs/statistics.md "Deterministic steps").
//
//   s² = Σ_k Σ_i (x_ki − x̄_k)² / (N − K)     pooled over K samples of N values, df = N − K
//   t  = (x̄_b − x̄_a) / (max(s, floor) · sqrt(1/n_a + 1/n_b)),   p = 2 P(T_df ≥ |t|)
//
// Student (1908); the pooled estimate over more than two groups is the one-way analysis of
// variance's within-group mean square (Scheffé, The Analysis of Variance, 1959, §3.1). Exact
// when the values are normal with one variance; the floor only makes it more conservative
// (a larger spread than measured, never a smaller one). O(N).
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>

#include "stats/verdict.hpp"

namespace rlab::stats {

/// A spread pooled over several samples: the standard deviation (the samples' unit) and its
/// degrees of freedom.
struct PooledSpread {
  double sd = 0;
  unsigned df = 0;
};

/// Pools the samples' squared deviations from their own means (formula above). Throws
/// std::invalid_argument when a value is not finite or the samples leave no degree of
/// freedom (N − K < 1; empty samples count for nothing).
PooledSpread pooled_spread(std::initializer_list<std::span<const double>> samples);

/// Two-sided p of t (formula above) for the means of `a` (base) and `b` with `spread` floored
/// at `floor_sd` (>= 0, the samples' unit). 1 when the effective spread is 0 and the means are
/// equal; 0 when it is 0 and they differ. Throws std::invalid_argument for an empty sample,
/// spread.df < 1 or floor_sd < 0.
double pooled_t_p(std::span<const double> a, std::span<const double> b, const PooledSpread& spread,
                  double floor_sd);

/// The significance part of the verdict rule (stats::Difference) with the pooled t test in
/// place of the rank tests: p_min is pooled_t_p's p (the rank-test fields stay empty),
/// relative_change the medians' as in test_difference, `different` when p <= opt.alpha and
/// |relative_change| >= opt.min_effect. Throws std::invalid_argument as pooled_t_p, and when
/// median(a) is 0.
Difference pooled_t_difference(std::span<const double> a, std::span<const double> b,
                               const PooledSpread& spread, double floor_sd, const VerdictOptions& opt);

/// The fewest boots n in [2, cap] of a new sample whose pooled t test against `reference`
/// boots of a base sample (a bisection step against an end's boots) shows `shift` (|mean
/// difference| > 0, the samples' unit) with power `power` at two-sided `alpha`:
///   (t(1 − alpha/2; df) + t(power; df)) · sd · sqrt(1/n + 1/reference) <= |shift|,
/// df = df_without + n − 1 (the new sample adds n − 1 to the pooled spread's df_without);
/// nullopt when cap boots are not enough. Throws std::invalid_argument for shift 0, sd <= 0,
/// reference 0, cap < 2, or alpha/power outside (0, 1).
std::optional<unsigned> boots_for_shift(double sd, double shift, unsigned reference, unsigned df_without,
                                        unsigned cap, double alpha = 0.01, double power = 0.9);

}  // namespace rlab::stats
