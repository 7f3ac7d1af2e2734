#include "nightly/svg.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rlab::nightly {

namespace {

// Colour-blind-safe palette (Okabe-Ito).
constexpr std::array<const char*, 8> kColours = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                  "#E69F00", "#56B4E9", "#000000", "#F0E442"};

std::string fmt_tick(double v, double step) {
  if (std::abs(v) < step * 1e-9) v = 0;
  int decimals = 0;
  while (decimals < 6 && std::abs(step * std::pow(10.0, decimals) -
                                  std::round(step * std::pow(10.0, decimals))) > 1e-6)
    ++decimals;
  return fmt::format("{:.{}f}", v, decimals);
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0, 1};
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) {
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(target, 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> ticks;
  const double first = std::floor(lo / step + 1e-9) * step;
  for (double t = first; t < hi + step * 0.999; t += step) ticks.push_back(t);
  if (ticks.size() < 2) ticks.push_back(ticks.back() + step);
  return ticks;
}

namespace {

/// The plot area in px and the data range it maps: X()/Y() take data to px.
struct Frame {
  double left = 64, right = 16, top = 34, bottom = 46;
  double pw = 0, ph = 0;          ///< plot width and height, px
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  std::vector<double> xt, yt;     ///< tick values
  double X(double x) const { return left + (x1 == x0 ? pw / 2 : (x - x0) / (x1 - x0) * pw); }
  double Y(double y) const { return top + ph - (y1 == y0 ? ph / 2 : (y - y0) / (y1 - y0) * ph); }
};

std::string px(double v) { return fmt::format("{:.1f}", v); }

bool finite(const XY& p) { return std::isfinite(p.x) && std::isfinite(p.y); }

/// The ticks and range of `ch`; false when it has no finite point.
bool fit(const Chart& ch, Frame& f) {
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin, ymin = xmin, ymax = -xmin;
  for (const auto& s : ch.series)
    for (const auto& p : s.points)
      if (finite(p)) {
        xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
        ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
        if (p.low && std::isfinite(*p.low)) ymin = std::min(ymin, *p.low);
        if (p.high && std::isfinite(*p.high)) ymax = std::max(ymax, *p.high);
      }
  if (!std::isfinite(xmin)) return false;
  for (const auto& m : ch.markers) xmin = std::min(xmin, m.x), xmax = std::max(xmax, m.x);
  if (ch.reference_y) ymin = std::min(ymin, *ch.reference_y), ymax = std::max(ymax, *ch.reference_y);
  if (ch.y_from_zero) ymin = std::min(ymin, 0.0);
  f.yt = nice_ticks(ymin, ymax);
  if (ch.integer_x && xmax - xmin <= 12) {
    for (double x = std::floor(xmin); x <= xmax + 1e-9; x += 1) f.xt.push_back(x);
    if (f.xt.size() == 1) f.xt = {f.xt[0] - 1, f.xt[0], f.xt[0] + 1};
  } else {
    f.xt = nice_ticks(xmin, xmax);
    if (ch.integer_x) std::erase_if(f.xt, [](double v) { return std::abs(v - std::round(v)) > 1e-9; });
  }
  f.x0 = std::min(f.xt.front(), xmin), f.x1 = std::max(f.xt.back(), xmax);
  f.y0 = f.yt.front(), f.y1 = f.yt.back();
  return true;
}

void line(util::XmlWriter& x, double x1, double x2, double y1, double y2, std::string_view stroke) {
  x.open("line").attr("x1", px(x1)).attr("x2", px(x2)).attr("y1", px(y1)).attr("y2", px(y2))
      .attr("stroke", stroke);
}

void label(util::XmlWriter& x, double at_x, double at_y, std::string_view anchor, std::string_view text) {
  x.open("text").attr("x", px(at_x)).attr("y", px(at_y));
  if (!anchor.empty()) x.attr("text-anchor", anchor);
  x.text(text).close();
}

void axes(util::XmlWriter& x, const Chart& ch, const Frame& f) {
  const double ystep = f.yt.size() > 1 ? f.yt[1] - f.yt[0] : 1;
  for (double t : f.yt) {
    line(x, f.left, f.left + f.pw, f.Y(t), f.Y(t), "#ddd");
    x.close();
    label(x, f.left - 6, f.Y(t) + 4, "end", fmt_tick(t, ystep));
  }
  const double xstep = f.xt.size() > 1 ? f.xt[1] - f.xt[0] : 1;
  const double base = f.top + f.ph;
  for (double t : f.xt) {
    line(x, f.X(t), f.X(t), base, base + 4, "#888");
    x.close();
    label(x, f.X(t), base + 16, "middle", fmt_tick(t, xstep));
  }
  label(x, f.left + f.pw / 2, base + 32, "middle", ch.x_label);
  x.open("text").attr("transform", fmt::format("translate(14 {}) rotate(-90)", px(f.top + f.ph / 2)))
      .attr("text-anchor", "middle").text(ch.y_label).close();
}

void markers(util::XmlWriter& x, const Chart& ch, const Frame& f) {
  if (ch.reference_y) {
    line(x, f.left, f.left + f.pw, f.Y(*ch.reference_y), f.Y(*ch.reference_y), "#444");
    x.attr("stroke-dasharray", "6 4").close();
  }
  for (const auto& m : ch.markers) {
    const char* colour = m.alarm ? "#C00000" : "#777";
    x.open("line").attr("class", "change-point").attr("x1", px(f.X(m.x))).attr("x2", px(f.X(m.x)))
        .attr("y1", px(f.top)).attr("y2", px(f.top + f.ph)).attr("stroke", colour)
        .attr("stroke-width", 2).attr("stroke-dasharray", "4 3").close();
    x.open("text").attr("x", px(f.X(m.x) + 3)).attr("y", px(f.top + 11)).attr("fill", colour)
        .text(m.label).close();
  }
}

void point(util::XmlWriter& x, const XY& p, const Frame& f, const char* colour) {
  if (p.low && p.high && std::isfinite(*p.low) && std::isfinite(*p.high)) {
    const double cx = f.X(p.x), lo = f.Y(*p.low), hi = f.Y(*p.high);
    x.open("path").attr("d", fmt::format("M{0:.1f} {1:.1f}V{2:.1f}M{3:.1f} {1:.1f}H{4:.1f}M{3:.1f} {2:.1f}H{4:.1f}",
                                         cx, lo, hi, cx - 4, cx + 4))
        .attr("stroke", colour).attr("stroke-width", 1.5).attr("fill", "none").close();
  }
  x.open("circle").attr("cx", px(f.X(p.x))).attr("cy", px(f.Y(p.y)));
  if (p.judged) x.attr("r", 3).attr("fill", colour);
  else x.attr("r", 4).attr("fill", "white").attr("stroke", colour).attr("stroke-width", 1.5);
  if (!p.note.empty()) x.leaf("title", p.note);
  x.close();
}

void series(util::XmlWriter& x, const Chart& ch, const Frame& f) {
  for (std::size_t i = 0; i < ch.series.size(); ++i) {
    const auto& s = ch.series[i];
    const char* colour = kColours[i % kColours.size()];
    std::string pts;
    for (const auto& p : s.points)
      if (finite(p)) pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", f.X(p.x), f.Y(p.y));
    x.open("g").attr("class", "series").leaf("title", s.name);
    x.open("polyline").attr("fill", "none").attr("stroke", colour).attr("stroke-width", 2)
        .attr("points", pts).close();
    for (const auto& p : s.points)
      if (finite(p)) point(x, p, f, colour);
    x.close();
    const double ly = ch.height + 16.0 * static_cast<double>(i) - 4;
    x.open("rect").attr("x", px(f.left)).attr("y", px(ly - 4)).attr("width", 12).attr("height", 3)
        .attr("fill", colour).close();
    label(x, f.left + 18, ly, "", s.name);
  }
}

}  // namespace

std::string render_svg(const Chart& ch) {
  Frame f;
  const double w = ch.width, h = ch.height + 16.0 * static_cast<double>(ch.series.size());
  f.pw = w - f.left - f.right, f.ph = ch.height - f.top - f.bottom;
  util::XmlWriter x({.quote = '"'});
  x.open("svg").attr("xmlns", "http://www.w3.org/2000/svg").attr("width", w).attr("height", h)
      .attr("viewBox", fmt::format("0 0 {} {}", w, h)).attr("role", "img")
      .attr("font-family", "sans-serif").attr("font-size", 11);
  x.leaf("title", ch.title);
  x.open("text").attr("x", f.left).attr("y", 18).attr("font-size", 13).attr("font-weight", "bold")
      .text(ch.title).close();
  x.open("rect").attr("x", f.left).attr("y", f.top).attr("width", f.pw).attr("height", f.ph)
      .attr("fill", "none").attr("stroke", "#888").close();
  if (!fit(ch, f)) {
    x.open("text").attr("x", f.left + f.pw / 2).attr("y", f.top + f.ph / 2).attr("text-anchor", "middle")
        .attr("fill", "#888").text("no data").close();
    return x.finish();
  }
  axes(x, ch, f);
  markers(x, ch, f);
  series(x, ch, f);
  return x.finish();
}

}  // namespace rlab::nightly
