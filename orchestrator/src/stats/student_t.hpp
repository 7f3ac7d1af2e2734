#pragma once
// Student's t distribution for integer degrees of freedom and the normal quantile: what the
// noise report's confidence intervals and the minimum detectable effect (stats/power.hpp)
// need (docs/statistics.md "Minimum detectable effect"). Computed by Boost.Math
// (students_t_distribution, normal_distribution); these wrappers only check the arguments.
namespace rlab::stats {

/// P(T <= t) for Student's t with `df` >= 1 degrees of freedom. Throws std::invalid_argument
/// for df < 1.
double t_cdf(double t, unsigned df);

/// The p-quantile of Student's t with `df` >= 1 degrees of freedom, p in (0, 1). Throws
/// std::invalid_argument outside those ranges.
double t_quantile(double p, unsigned df);

/// The p-quantile of the standard normal distribution, p in (0, 1). Throws
/// std::invalid_argument outside (0, 1).
double normal_quantile(double p);

}  // namespace rlab::stats
