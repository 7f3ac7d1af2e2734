#pragma once
// A night re-measures what it could not decide (docs/nightly.md "Re-measuring"). After the
// run, each cell whose comparison with the previous night or with the baseline is `unknown`,
// and which more boots tonight can decide, gets more boots in the same run: doubling tonight's
// boots, or as many as the measured noise asks for when that is more, interleaved with the
// control cell's boots (so every added boot has its drift pair), as long as the estimated time
// fits the matrix's `nightly.remeasure_minutes`. The comparisons are then made again. A pure
// planner; night.cpp boots the plan (store::Store::add_repeats, run --resume's path).
#include "nightly/analysis.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rlab::nightly {

/// What one re-measuring round boots.
struct RemeasurePlan {
  /// (cell id, boots to add), cells in the night's cell order; the control last.
  std::vector<std::pair<std::string, unsigned>> boots;
  /// Cells left unknown that more boots tonight cannot decide, "cell: why" (the other side has
  /// fewer boots than a verdict needs, or the noise asks for more than the cap).
  std::vector<std::string> cannot;
  double estimate_s = 0;  ///< expected wall seconds of `boots`
};

/// Seconds the given boots are expected to take (cell id, boots) -> s; run::boots_estimate_s.
using BootsEstimate = std::function<double(const std::vector<std::pair<std::string, unsigned>>&)>;

/// Plans one round for `a` within `budget_s` seconds: candidates are the compared cells whose
/// vs_previous or vs_baseline verdict is unknown, whose base side has at least the verdict's
/// boots floor, and whose next boot count is within the comparison's cap. Each gets
/// max(its boots tonight, the comparison's `more_new`) more boots; the control (a.control)
/// as many as the most any cell gets. Candidates are taken in order of the clearest effect
/// (|change| / noise) while the estimate fits; an empty `boots` means nothing to do or nothing
/// fits. Never throws.
RemeasurePlan plan_remeasure(const NightAnalysis& a, double budget_s, const BootsEstimate& estimate);

}  // namespace rlab::nightly
