#pragma once
// Is a commit's sample like the good end's or like the bad end's? The per-step decision of
// performance bisection: the measured samples of the two ends are the references.
#include <span>
#include <string>

#include "stats/verdict.hpp"

namespace rlab::bisection {

/// Which way the metric moved from good to bad.
enum class Direction {
  regression,   ///< bad is worse than good (for lpm: lower)
  improvement,  ///< bad is better than good: bisects a speed-up
};

/// Options shared by the step decision and the whole bisection.
struct Options {
  stats::VerdictOptions verdict;  ///< alpha and minimum effect of every comparison
  stats::SamplingPlan plan;       ///< runs per commit: initial, doubled while unknown, cap
  bool higher_is_better = true;   ///< the metric's polarity (lpm, score: true)
  Direction direction = Direction::regression;
  /// Significance level of each step's two comparisons. 0 (default): verdict.alpha divided by
  /// the number of steps a bisection of the list needs without skips, ceil(log2(N - 1))
  /// (Bonferroni), so that the chance of any wrong step stays near verdict.alpha.
  double step_alpha = 0;
  /// Deterministic measurement (guest time counts instructions: `clock: icount`): every boot
  /// of one kernel scores the same loops give or take one. With no drift to pair against, a
  /// step classifies against the ends' own samples (References::good/bad, from check_ends) and
  /// boots the commit alone, instead of booting both ends again beside it; and its two
  /// comparisons are pooled t tests (stats/pooled_t.hpp: the spread pooled over the ends' and
  /// the commit's boots, floored at half of `resolution`) instead of rank tests, which need
  /// many boots to reach a small alpha however far apart the scores are (docs/statistics.md
  /// "Deterministic steps").
  bool deterministic = false;
  /// With `deterministic`: the score's resolution, what one loop of one pass adds to a boot's
  /// score (lpm: 60 / pass seconds), > 0. A score that only moves between two adjacent loop
  /// counts has a standard deviation of at most half of it: the floor of the t test's spread.
  double resolution = 0;
};

/// Sign of median(bad) - median(good) the options expect: -1 or +1.
int expected_sign(const Options& opt);

/// Decision for one sample set.
enum class Call { good, bad, unknown };

/// "good", "bad" or "unknown".
std::string_view call_name(Call c);

/// Decision with its evidence.
struct Classification {
  Call call = Call::unknown;
  stats::Difference vs_good;  ///< good end (base) against the commit
  stats::Difference vs_bad;   ///< bad end (base) against the commit
  std::string reason;
};

/// The rule, with s = sign(median(bad) - median(good)):
///  - bad: different from good (stats::test_difference) in direction s, and not different
///    from bad;
///  - good: different from bad in direction -s, and not different from good;
///  - unknown otherwise (like neither end: measure more; like both ends: measure more; at the
///    cap the commit is skipped).
/// Each comparison is stats::test_difference (rank tests), or with opt.deterministic
/// stats::pooled_t_difference over the spread pooled from all three samples, floored at
/// opt.resolution / 2. All three samples must be non-empty and finite (deterministic: 4 values
/// at least, opt.resolution > 0); the ends' medians must be non-zero and differ
/// (std::invalid_argument otherwise).
Classification classify(std::span<const double> good, std::span<const double> bad,
                        std::span<const double> samples, const Options& opt);

}  // namespace rlab::bisection
