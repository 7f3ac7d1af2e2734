#pragma once
// Drift correction against a control cell (docs/compare.md "Drift correction"): a fixed
// kernel's cell booted in every repeat of a run measures the host's speed at that time; every
// other boot's score is divided by the control's score of the same run and repeat (scaled back
// to lpm by the control's mean), so drift shared by the cell and the control drops out.
#include "compare/boots.hpp"

#include <string>
#include <vector>

namespace rlab::compare {

/// What the correction did.
struct DriftCorrection {
  std::string control;           ///< the control's cell id
  double reference = 0;          ///< mean score of every control boot used, lpm
  double base_control_mean = 0;  ///< mean control score on the base side's run, lpm
  double new_control_mean = 0;   ///< mean control score on the new side's run, lpm
  std::size_t dropped = 0;       ///< boots left out: no control boot in their run and repeat
};

/// The control's cell id for `selector`: a cell id of `boots`, or a part of exactly one.
/// Throws UsageError naming the selector and listing the cells when none or
/// several match.
std::string resolve_control(const std::vector<BootData>& boots, const std::string& selector);

/// Corrects the scores of `side` (boots of one run) against `control_boots` (the control
/// cell's boots of the same run): score x reference / control score of the same repeat
/// (the control's median when a repeat has several). Removes the control's own boots and the
/// boots whose repeat has no control boot; returns how many were removed for that reason.
std::size_t correct_side(std::vector<BootData>& side, const std::vector<BootData>& control_boots,
                         const std::string& control, double reference);

/// The control cell's boots among `boots`.
std::vector<BootData> control_boots(const std::vector<BootData>& boots, const std::string& control);

}  // namespace rlab::compare
