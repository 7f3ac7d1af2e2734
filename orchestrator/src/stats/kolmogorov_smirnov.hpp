#pragma once
// Two-sample Kolmogorov-Smirnov test, two-sided: are a and b drawn from one distribution?
// Sensitive to any difference in shape, not only in location (e.g. a bimodal kernel).
#include <cstddef>
#include <span>

#include "stats/mann_whitney.hpp"  // PValueMethod

namespace rlab::stats {

/// Result of kolmogorov_smirnov(a, b).
struct KolmogorovSmirnovResult {
  double d = 0;        ///< sup_x |F_a(x) - F_b(x)| of the empirical CDFs, in [0, 1]
  double p = 1;        ///< two-sided p-value P(D >= d) under the null, in [0, 1]
  bool exact = false;  ///< p from the exact distribution
};

/// Two-sided two-sample KS test.
///
/// Exact: P(D >= d) is one minus the probability that a random monotone lattice path from
/// (0, 0) to (n_a, n_b) keeps |i n_b - j n_a| < d n_a n_b at every point, counted with the
/// recurrence of Hodges (Ark. Mat. 3 (1958) 469-486) in normalised form, so it neither
/// overflows nor needs big integers. It assumes continuous data; with ties it is
/// conservative (scipy.stats.ks_2samp does the same). `automatic` uses it when
/// n_a * n_b <= 1,000,000.
///
/// Asymptotic: p = Q((sqrt(e) + 0.12 + 0.11 / sqrt(e)) d) with e = n_a n_b / (n_a + n_b) and
/// Q the Kolmogorov upper tail (kolmogorov_sf): Stephens' small-sample correction
/// (J. R. Statist. Soc. B 32 (1970) 115-122), as in Numerical Recipes 3rd ed. section 14.3.
///
/// Both samples must be non-empty and finite (std::invalid_argument otherwise).
KolmogorovSmirnovResult kolmogorov_smirnov(std::span<const double> a, std::span<const double> b,
                                           PValueMethod method = PValueMethod::automatic);

}  // namespace rlab::stats
