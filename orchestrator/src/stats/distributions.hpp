#pragma once
// Tail probabilities of the reference distributions behind the tests' asymptotic p-values.

namespace rlab::stats {

/// Upper tail of the standard normal distribution, P(Z > z) = erfc(z / sqrt 2) / 2.
double normal_sf(double z);

/// Upper tail of the Kolmogorov distribution, Q(lambda) = P(K > lambda) =
/// 2 * sum_{k>=1} (-1)^(k-1) exp(-2 k^2 lambda^2); 1 for lambda <= 0. For lambda < 1.18 the
/// equivalent theta-function series 1 - sqrt(2 pi)/lambda * sum_{k>=1}
/// exp(-(2k-1)^2 pi^2 / (8 lambda^2)) is used, which converges fast there (Kolmogorov
/// 1933; Marsaglia, Tsang & Wang 2003). Equals scipy.special.kolmogorov. Written here because
/// Boost 1.74 (Debian 12) has no Kolmogorov distribution (kolmogorov_smirnov_distribution
/// came with Boost 1.75).
double kolmogorov_sf(double lambda);

}  // namespace rlab::stats
