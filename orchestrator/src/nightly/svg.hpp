#pragma once
// rlab's own small plotting: line charts drawn as inline SVG (no scripts, no fonts or files
// fetched), for the nightly HTML report. Axes with "nice" ticks (1, 2, 2.5, 5 x 10^k), one
// polyline with point markers per series (filled, or hollow for a point without enough boots
// to judge it; an interval as a vertical bar), optional vertical markers (change points) and a
// horizontal reference line (e.g. ratio 1.0).
#include <optional>
#include <string>
#include <vector>

namespace rlab::nightly {

/// One (x, y) point of a series, with the interval it stands for when there is one.
struct XY {
  double x = 0;
  double y = 0;
  /// The point's confidence interval, drawn as a vertical bar with caps; nullopt: none.
  std::optional<double> low = std::nullopt, high = std::nullopt;
  /// false: too few boots to judge the point (drawn hollow, with its tooltip saying so).
  bool judged = true;
  std::string note = {};    ///< the point's tooltip, e.g. "0.64 from 1 boot a side: not judged"
};

/// One line of a chart.
struct Series {
  std::string name;          ///< legend text
  std::vector<XY> points;    ///< drawn in the given order; non-finite points are dropped
};

/// A vertical marker at x (e.g. a change point between two nights).
struct VMarker {
  double x = 0;
  std::string label;         ///< short text drawn at the top, e.g. "-12.0%"
  bool alarm = false;        ///< drawn red (a regression) instead of grey
};

/// A chart's content and labels.
struct Chart {
  std::string title;
  std::string x_label;       ///< e.g. "vCPUs", "run"
  std::string y_label;       ///< e.g. "score (lpm)"
  std::vector<Series> series;
  std::vector<VMarker> markers;
  std::optional<double> reference_y;  ///< dashed horizontal line (e.g. 1.0 for a ratio)
  bool integer_x = false;    ///< x ticks only at integers (vCPUs, run numbers)
  bool y_from_zero = true;   ///< include 0 in the y range
  int width = 560;           ///< px
  int height = 300;          ///< px
};

/// Tick values covering [lo, hi] with about `target` steps of 1, 2, 2.5 or 5 x 10^k; the
/// first tick <= lo and the last >= hi. lo == hi gives a range around the value.
std::vector<double> nice_ticks(double lo, double hi, int target = 5);

/// The chart as an `<svg>` element (width/height in px, a viewBox, a <title> for screen
/// readers). A chart without finite points draws its frame and "no data". Text is escaped.
std::string render_svg(const Chart& chart);

}  // namespace rlab::nightly
