#include "attribution/flame.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace rlab::attribution {
namespace {

/// The tree while it is built: children by frame (sorted), sides' sums over boots.
struct Building {
  double base = 0, next = 0;
  std::map<std::string, Building> children;
};

/// The frames of stack `key`, outermost first; empty for a total ("[all]", "[AGI buffer]"). An
/// agheader key gives its wait stacks only, without the "wait;" prefix (the AG header on top, as
/// the innermost frame); its hold stacks overlap the waits in time and are left out.
std::vector<std::string> outermost_first(std::string_view key, Family f) {
  if (key.empty()) return {};
  if (f == Family::agheader) {
    if (key == "[wait other stacks]") return {std::string(key)};
    if (key.rfind("wait;", 0) != 0) return {};
    key.remove_prefix(5);
  }
  if (key.front() == '[' && key.find(';') == std::string_view::npos)
    return key.find("other stacks]") != std::string_view::npos ? std::vector<std::string>{std::string(key)}
                                                               : std::vector<std::string>{};
  std::vector<std::string> frames;
  for (std::size_t at = 0; at <= key.size();) {
    const auto end = std::min(key.find(';', at), key.size());
    frames.emplace_back(key.substr(at, end - at));
    at = end + 1;
  }
  // Keys list frames innermost first; an off-CPU key starts with its state, the outermost.
  const auto inner = f == Family::offcpu ? frames.begin() + 1 : frames.begin();
  std::reverse(inner, frames.end());
  return frames;
}

/// Adds each boot's stacks of `f`, per 1,000 loops divided by the side's boot count, to `root`.
void add_side(Building& root, const std::vector<BootProfile>& side, Family f, bool is_new) {
  std::size_t boots = 0;
  for (const auto& b : side) boots += b.loops > 0;
  for (const auto& b : side) {
    const auto fam = b.values.find(f);
    if (b.loops == 0 || fam == b.values.end()) continue;
    for (const auto& [key, v] : fam->second) {
      const double x = 1000.0 * v / static_cast<double>(b.loops) / static_cast<double>(boots);
      const auto path = outermost_first(key, f);
      if (path.empty()) continue;
      Building* n = &root;
      (is_new ? n->next : n->base) += x;
      for (const auto& frame : path) {
        n = &n->children[frame];
        (is_new ? n->next : n->base) += x;
      }
    }
  }
}

FlameNode freeze(std::string frame, const Building& b) {
  FlameNode n{std::move(frame), b.base, b.next, {}};
  for (const auto& [f, c] : b.children) n.children.push_back(freeze(f, c));
  return n;
}

/// Fill of a box: white when unchanged, towards red for new time, blue for time gone.
std::string fill(double base, double next) {
  const double r = base <= 0 ? 2 : next <= 0 ? -2 : std::clamp(std::log2(next / base), -2.0, 2.0);
  const int fade = static_cast<int>(std::lround(255 - 200 * std::abs(r) / 2));
  return r >= 0 ? fmt::format("#ff{:02x}{:02x}", fade, fade) : fmt::format("#{:02x}{:02x}ff", fade, fade);
}

std::string change_text(double base, double next) {
  if (base <= 0) return next > 0 ? "new" : "0";
  return fmt::format("{:+.1f}%", 100.0 * (next - base) / base);
}

std::string ms(double ns) { return fmt::format("{:.3f} ms", ns / 1e6); }

int depth_of(const FlameNode& n) {
  int d = 0;
  for (const auto& c : n.children) d = std::max(d, depth_of(c));
  return d + 1;
}

/// Draws `n` in [x, x + w) at `level` (0: the root, at the bottom), then its children.
void draw(util::XmlWriter& x, const FlameNode& n, double left, double w, int level, double bottom,
          const FlameSvgOptions& o) {
  if (w < o.min_px) return;
  const double y = bottom - (level + 1) * o.frame_px;
  x.open("g").attr("class", "frame").attr("data-name", n.frame).attr("data-x", fmt::format("{:.3f}", left))
      .attr("data-w", fmt::format("{:.3f}", w)).attr("data-y", fmt::format("{:.1f}", y));
  x.leaf("title", fmt::format("{}: {} {} -> {} {} per 1,000 loops ({})", n.frame, o.base_label, ms(n.base),
                              o.new_label, ms(n.next), change_text(n.base, n.next)));
  x.open("rect").attr("x", fmt::format("{:.1f}", left)).attr("y", fmt::format("{:.1f}", y))
      .attr("width", fmt::format("{:.1f}", w)).attr("height", fmt::format("{:.1f}", o.frame_px - 1))
      .attr("fill", fill(n.base, n.next)).attr("stroke", "#bbb").attr("stroke-width", "0.5").close();
  const auto fits = static_cast<std::size_t>((w - 6) / 6.5);  // ~6.5 px a character at 11 px
  if (fits >= 3) {
    const std::string label = n.frame.size() <= fits ? n.frame : n.frame.substr(0, fits - 2) + "..";
    x.open("text").attr("x", fmt::format("{:.1f}", left + 3)).attr("y", fmt::format("{:.1f}", y + o.frame_px - 4.5))
        .text(label).close();
  }
  x.close();
  // Children share the box; when the sides' maxima add up to more than it, they shrink alike.
  double sum = 0;
  for (const auto& c : n.children) sum += std::max(c.base, c.next);
  const double own = std::max(n.base, n.next);
  const double scale = sum > own && sum > 0 ? own / sum : 1.0;
  const double per_ns = own > 0 ? w / own : 0;
  for (const auto& c : n.children) {
    const double cw = std::max(c.base, c.next) * scale * per_ns;
    draw(x, c, left, cw, level + 1, bottom, o);
    left += cw;
  }
}

/// Click to zoom (flame_svg()): the clicked frame and what it calls fill the width, its callers
/// span it, everything else is hidden; clicking the root ("all") shows the whole graph again.
/// Guarded so that several graphs inline in one HTML page each get one handler.
constexpr std::string_view kZoomScript = R"JS(
(function () {
  function zoom(svg, g) {
    var left = +svg.dataset.left, width = +svg.dataset.width;
    var x0 = +g.dataset.x, w0 = +g.dataset.w, y0 = +g.dataset.y, k = width / w0, eps = 0.01;
    svg.querySelectorAll('g.frame').forEach(function (f) {
      var x = +f.dataset.x, w = +f.dataset.w, y = +f.dataset.y, nx, nw;
      if (y <= y0 && x >= x0 - eps && x + w <= x0 + w0 + eps) { nx = left + (x - x0) * k; nw = w * k; }
      else if (y > y0 && x <= x0 + eps && x + w >= x0 + w0 - eps) { nx = left; nw = width; }
      else { f.style.display = 'none'; return; }
      f.style.display = '';
      var r = f.querySelector('rect'), t = f.querySelector('text'), name = f.dataset.name;
      r.setAttribute('x', nx.toFixed(1));
      r.setAttribute('width', nw.toFixed(1));
      var fits = Math.floor((nw - 6) / 6.5);
      if (!t) {
        t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
        t.setAttribute('y', (y + (+r.getAttribute('height')) - 3.5).toFixed(1));
        f.appendChild(t);
      }
      t.setAttribute('x', (nx + 3).toFixed(1));
      t.textContent = fits < 3 ? '' : name.length <= fits ? name : name.substring(0, fits - 2) + '..';
    });
    svg.dataset.zoomed = g.dataset.name;
  }
  document.querySelectorAll('svg.flame').forEach(function (svg) {
    if (svg.dataset.zoomable) return;
    svg.dataset.zoomable = '1';
    svg.addEventListener('click', function (ev) {
      var g = ev.target.closest('g.frame');
      if (g) zoom(svg, g);
    });
  });
})();
)JS";

}  // namespace

bool has_flame_graph(Family f) {
  return f == Family::lock || f == Family::offcpu || f == Family::oncpu || f == Family::agheader;
}

FlameNode flame_tree(const std::vector<BootProfile>& base, const std::vector<BootProfile>& next, Family family) {
  Building root;
  if (has_flame_graph(family)) {
    add_side(root, base, family, false);
    add_side(root, next, family, true);
  }
  return freeze("all", root);
}

std::string flame_svg(const FlameNode& root, const FlameSvgOptions& o) {
  const bool empty = root.children.empty();
  const int levels = empty ? 1 : depth_of(root);
  const double top = 40, legend = 22;
  const double height = top + levels * o.frame_px + legend;
  util::XmlWriter x({.quote = '"', .declaration = false});
  x.open("svg").attr("xmlns", "http://www.w3.org/2000/svg").attr("width", fmt::format("{:.0f}", o.width_px + 20))
      .attr("height", fmt::format("{:.0f}", height)).attr("viewBox", fmt::format("0 0 {:.0f} {:.0f}", o.width_px + 20, height))
      .attr("font-family", "monospace").attr("font-size", "11").attr("class", "flame")
      .attr("data-left", "10").attr("data-width", fmt::format("{:.3f}", o.width_px));
  x.leaf("title", o.title);
  x.open("text").attr("x", "10").attr("y", "18").attr("font-size", "13").attr("font-family", "sans-serif")
      .attr("font-weight", "bold").text(o.title).close();
  x.open("text").attr("x", "10").attr("y", "32").attr("font-family", "sans-serif")
      .text(fmt::format("width: the larger of {} and {} (ns per 1,000 loops); colour: red = more time in {}, blue = less, "
                        "white = unchanged; click a frame to zoom, the root to see all",
                        o.base_label, o.new_label, o.new_label))
      .close();
  if (empty)
    x.open("text").attr("x", "10").attr("y", fmt::format("{:.0f}", top + o.frame_px)).attr("fill", "#888")
        .text("no stacks").close();
  else
    draw(x, root, 10, o.width_px, 0, top + levels * o.frame_px, o);
  x.leaf("script", kZoomScript);
  return x.finish();
}

}  // namespace rlab::attribution
