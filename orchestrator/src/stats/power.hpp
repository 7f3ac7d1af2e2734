#pragma once
// Power of a two-sample comparison of boots' scores: the smallest relative change a number of
// boots can show, and the number of boots a change needs (docs/statistics.md "Minimum
// detectable effect"). Normal-theory (two-sample t) figures: rlab's verdicts use rank tests,
// whose efficiency relative to the t test is at least 0.864 and 0.955 for normal data, so these
// are slightly optimistic planning figures, not guarantees.
#include <optional>

namespace rlab::stats {

/// Minimum detectable relative effect of a two-sided two-sample comparison with `n` boots a
/// side, relative stddev `rel_sd` per boot (a fraction), significance `alpha` and `power`:
/// (t(1 - alpha/2; 2n-2) + t(power; 2n-2)) * rel_sd * sqrt(2/n), a fraction.
/// Throws std::invalid_argument for n < 2 or alpha/power outside (0, 1).
double minimum_detectable_effect(double rel_sd, unsigned n, double alpha = 0.01, double power = 0.9);

/// The fewest boots a side with which rlab's rank tests can reach `alpha` at all: the smallest
/// n with 2 / C(2n, n) <= alpha, the exact two-sided p of two completely separated samples of
/// n (Mann-Whitney and Kolmogorov-Smirnov alike). 0.01 -> 5, 0.03 -> 4, 0.1 -> 3.
/// Throws std::invalid_argument for alpha outside (0, 1).
unsigned rank_test_floor(double alpha);

/// The boots a side a comparison needs: the smallest n in [floor, cap] whose minimum
/// detectable effect is at most `effect` (a fraction > 0), or nullopt when even `cap` boots are
/// not enough; never fewer than rank_test_floor(alpha). Throws
/// std::invalid_argument for effect <= 0, rel_sd < 0, cap < 2 or alpha/power outside (0, 1).
std::optional<unsigned> boots_for_effect(double rel_sd, double effect, unsigned cap,
                                         double alpha = 0.01, double power = 0.9);

}  // namespace rlab::stats
