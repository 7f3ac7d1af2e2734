#pragma once
// Mann-Whitney U test (Wilcoxon rank-sum), two-sided. Mann & Whitney, Ann. Math. Statist.
// 18 (1947) 50-60; tie correction and continuity correction as in Lehmann, "Nonparametrics"
// (1975) ch. 1, and as scipy.stats.mannwhitneyu computes them.
#include <cstddef>
#include <span>

namespace rlab::stats {

/// Which null distribution gives the p-value.
enum class PValueMethod {
  automatic,   ///< exact where it is feasible and valid (see each test), asymptotic otherwise
  exact,       ///< exact null distribution; throws std::invalid_argument where not applicable
  asymptotic,  ///< large-sample approximation
};

/// Result of mann_whitney_u(a, b).
struct MannWhitneyResult {
  double u_a = 0;      ///< U of a: #pairs (a_i > b_j) + 0.5 * #pairs (a_i == b_j)
  double u_b = 0;      ///< U of b = n_a * n_b - u_a
  double p = 1;        ///< two-sided p-value in [0, 1]
  double z = 0;        ///< standardised statistic (asymptotic only; 0 when exact)
  bool exact = false;  ///< p from the exact distribution
  bool ties = false;   ///< the pooled sample has tied values
};

/// Two-sided Mann-Whitney U test of a against b.
///
/// Exact: without ties, P(U >= max(u_a, u_b)) doubled (capped at 1), from the permutation
/// distribution of U counted by the recurrence c(i, j, u) = c(i-1, j, u-j) + c(i, j-1, u)
/// (Mann & Whitney 1947, eq. 2). `automatic` uses it when there are no ties and
/// n_a * n_b <= 2500.
///
/// Asymptotic: z = (max(u_a, u_b) - n_a n_b / 2 - 0.5) / sigma with
/// sigma^2 = n_a n_b / 12 * ((n + 1) - sum(t^3 - t) / (n (n - 1))), t the sizes of the tie
/// groups, n = n_a + n_b; p = 2 P(Z > z), capped at 1. When every value is tied (sigma = 0)
/// there is no evidence of a difference and p = 1.
///
/// Both samples must be non-empty and finite; `exact` with ties or with n_a * n_b > 10000
/// throws std::invalid_argument.
MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b,
                                 PValueMethod method = PValueMethod::automatic);

/// P(U >= u) under the null hypothesis for sample sizes (m, n) without ties, from the exact
/// distribution (cached per size pair). u may be fractional (it is rounded up). Exposed for
/// tests; needs m * n <= 10000.
double mann_whitney_exact_sf(std::size_t m, std::size_t n, double u);

}  // namespace rlab::stats
