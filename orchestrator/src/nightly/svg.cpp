#include "nightly/svg.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rlab::nightly {

using util::xml_escape;

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

std::string render_svg(const Chart& ch) {
  const double left = 64, right = 16, top = 34, bottom = 46;
  const double legend_h = 16.0 * static_cast<double>(ch.series.size());
  const double w = ch.width, h = ch.height + legend_h;
  const double pw = w - left - right, ph = ch.height - top - bottom;
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin, ymin = xmin, ymax = -xmin;
  for (const auto& s : ch.series)
    for (const auto& p : s.points)
      if (std::isfinite(p.x) && std::isfinite(p.y)) {
        xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
        ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
        if (p.low && std::isfinite(*p.low)) ymin = std::min(ymin, *p.low);
        if (p.high && std::isfinite(*p.high)) ymax = std::max(ymax, *p.high);
      }
  const bool empty = !std::isfinite(xmin);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
      R"(role="img" font-family="sans-serif" font-size="11">)"
      "<title>{2}</title>\n"
      R"(<text x="{3}" y="18" font-size="13" font-weight="bold">{2}</text>)"
      "\n",
      w, h, xml_escape(ch.title), left);
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#888"/>)"
                     "\n",
                     left, top, pw, ph);
  if (empty) {
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" fill="#888">no data</text>)"
                       "\n</svg>\n",
                       left + pw / 2, top + ph / 2);
    return out;
  }
  for (const auto& m : ch.markers) xmin = std::min(xmin, m.x), xmax = std::max(xmax, m.x);
  if (ch.reference_y) ymin = std::min(ymin, *ch.reference_y), ymax = std::max(ymax, *ch.reference_y);
  if (ch.y_from_zero) ymin = std::min(ymin, 0.0);
  const auto yt = nice_ticks(ymin, ymax);
  std::vector<double> xt;
  if (ch.integer_x && xmax - xmin <= 12) {
    for (double x = std::floor(xmin); x <= xmax + 1e-9; x += 1) xt.push_back(x);
    if (xt.size() == 1) xt = {xt[0] - 1, xt[0], xt[0] + 1};
  } else {
    xt = nice_ticks(xmin, xmax);
    if (ch.integer_x)
      std::erase_if(xt, [](double v) { return std::abs(v - std::round(v)) > 1e-9; });
  }
  const double x0 = std::min(xt.front(), xmin), x1 = std::max(xt.back(), xmax);
  const double y0 = yt.front(), y1 = yt.back();
  auto X = [&](double x) { return left + (x1 == x0 ? pw / 2 : (x - x0) / (x1 - x0) * pw); };
  auto Y = [&](double y) { return top + ph - (y1 == y0 ? ph / 2 : (y - y0) / (y1 - y0) * ph); };
  const double ystep = yt.size() > 1 ? yt[1] - yt[0] : 1;
  for (double t : yt)
    out += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#ddd"/>)"
                       R"(<text x="{3}" y="{4:.1f}" text-anchor="end">{5}</text>)"
                       "\n",
                       left, left + pw, Y(t), left - 6, Y(t) + 4, fmt_tick(t, ystep));
  const double xstep = xt.size() > 1 ? xt[1] - xt[0] : 1;
  for (double t : xt)
    out += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#888"/>)"
                       R"(<text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>)"
                       "\n",
                       X(t), top + ph, top + ph + 4, top + ph + 16, fmt_tick(t, xstep));
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)"
                     "\n"
                     R"~(<text transform="translate(14 {}) rotate(-90)" text-anchor="middle">{}</text>)~"
                     "\n",
                     left + pw / 2, top + ph + 32, xml_escape(ch.x_label), top + ph / 2,
                     xml_escape(ch.y_label));
  if (ch.reference_y)
    out += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#444" )"
                       R"(stroke-dasharray="6 4"/>)"
                       "\n",
                       left, left + pw, Y(*ch.reference_y));
  for (const auto& m : ch.markers) {
    const char* colour = m.alarm ? "#C00000" : "#777";
    out += fmt::format(R"(<line class="change-point" x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" )"
                       R"(stroke="{3}" stroke-width="2" stroke-dasharray="4 3"/>)"
                       R"(<text x="{4:.1f}" y="{5}" fill="{3}">{6}</text>)"
                       "\n",
                       X(m.x), top, top + ph, colour, X(m.x) + 3, top + 11, xml_escape(m.label));
  }
  for (std::size_t i = 0; i < ch.series.size(); ++i) {
    const auto& s = ch.series[i];
    const char* colour = kColours[i % kColours.size()];
    std::string pts;
    for (const auto& p : s.points)
      if (std::isfinite(p.x) && std::isfinite(p.y))
        pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", X(p.x), Y(p.y));
    out += fmt::format(R"(<g class="series"><title>{}</title>)", xml_escape(s.name));
    out += fmt::format(R"(<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>)", colour, pts);
    for (const auto& p : s.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      if (p.low && p.high && std::isfinite(*p.low) && std::isfinite(*p.high))
        out += fmt::format(R"(<path d="M{0:.1f} {1:.1f}V{2:.1f}M{3:.1f} {1:.1f}H{4:.1f}M{3:.1f} {2:.1f}H{4:.1f}" )"
                           R"(stroke="{5}" stroke-width="1.5" fill="none"/>)",
                           X(p.x), Y(*p.low), Y(*p.high), X(p.x) - 4, X(p.x) + 4, colour);
      const std::string end = p.note.empty() ? "/>" : "><title>" + xml_escape(p.note) + "</title></circle>";
      if (p.judged)
        out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"{})", X(p.x), Y(p.y), colour, end);
      else
        out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4" fill="white" stroke="{}" stroke-width="1.5"{})", X(p.x),
                           Y(p.y), colour, end);
    }
    out += "</g>\n";
    const double ly = ch.height + 16.0 * static_cast<double>(i) - 4;
    out += fmt::format(R"(<rect x="{}" y="{:.1f}" width="12" height="3" fill="{}"/>)"
                       R"(<text x="{}" y="{:.1f}">{}</text>)"
                       "\n",
                       left, ly - 4, colour, left + 18, ly, xml_escape(s.name));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace rlab::nightly
