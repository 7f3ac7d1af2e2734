#pragma once
// Differential flame graphs of a stack family (lock waits, off-CPU, on-CPU, AG header waits): two sets of
// boots merged into one call tree and drawn as an SVG, the way the field draws them (Brendan
// Gregg's flame graphs: one box per frame, callers below callees, siblings in name order;
// differential: colour = change).
//
// Per boot and stack key: 1000 * value / loops (nanoseconds per 1,000 loops, as the ranking of
// attribution/rank.hpp reads them); per side the mean over its boots (means add up along the
// tree, medians do not). A frame's time is inclusive: every stack passing through it. Box width
// is max(base, new), so a path that vanished stays visible; colour runs from blue (all time
// gone) through white (unchanged) to red (new time), by log2(new / base) capped at ±2.
// Cost O(S F) for S stacks of F frames.
#include "attribution/profile.hpp"

#include <string>
#include <vector>

namespace rlab::attribution {

/// One frame of the merged tree, its inclusive time on either side.
struct FlameNode {
  std::string frame;             ///< function, "[task]", a state ("D", "S"), or "all" at the root
  double base = 0, next = 0;     ///< ns per 1,000 loops, mean over each side's boots
  std::vector<FlameNode> children;  ///< sorted by frame
};

/// Whether `f` is drawn as a flame graph: the stack families lock, offcpu, oncpu, and agheader
/// (its wait stacks: who waited for which AG header).
bool has_flame_graph(Family f);

/// The merged call tree of `family` (has_flame_graph(); any other family gives an empty
/// root), outermost frame first: an off-CPU stack's state ("D", "S") is its outermost frame, an
/// on-CPU stack's task comes next to the root. A family's "[… other stacks]" key (stacks the
/// guest did not keep) is a frame of its own under the root; totals ("[all]", "[AGI buffer]",
/// …) are left out. Boots without loops are ignored.
FlameNode flame_tree(const std::vector<BootProfile>& base, const std::vector<BootProfile>& next, Family family);

/// What flame_svg() draws.
struct FlameSvgOptions {
  std::string title;                   ///< e.g. "off-CPU: 6.12 -> 6.12+inline-inactivation, xfs 1 vCPU"
  std::string base_label = "base", new_label = "new";
  double width_px = 1200;
  double frame_px = 16;                ///< height of one frame
  double min_px = 0.5;                 ///< boxes narrower than this are left out
};

/// A standalone SVG document (also valid inline in HTML) of `root`: one <g class="frame"> per
/// box with a <title> naming the frame, both sides' time and the change, a legend line, and
/// "no stacks" when the root is empty.
std::string flame_svg(const FlameNode& root, const FlameSvgOptions& options = {});

}  // namespace rlab::attribution
