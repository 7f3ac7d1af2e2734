#include "attribution/render.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlab::attribution {
namespace {

std::string percent(const std::optional<double>& c) {
  if (!c) return "new";
  return fmt::format("{:+.1f}%", 100.0 * *c);
}

std::string prob(const std::optional<double>& p) { return p ? fmt::format("{:.3g}", *p) : "-"; }

std::string families(const std::vector<Family>& fs) {
  std::string s;
  for (const Family f : fs) s += (s.empty() ? "" : ", ") + std::string(family_name(f));
  return s;
}

}  // namespace

std::string format_per_kloop(Family f, double v) {
  if (is_time(f)) return fmt::format("{:.3f} ms", v / 1e6);
  return std::fabs(v) >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v);
}

void render_ranking(const Ranking& r, std::ostream& out, const std::string& indent) {
  out << indent
      << fmt::format("what changed, per 1,000 loops ({} base boots, {} new; q: Benjamini-Hochberg within each family, * at q <= fdr):\n",
                     r.base_boots, r.new_boots);
  if (r.empty()) {
    out << indent << "  nothing to rank: no counter moved above its floor in the families compared\n";
  } else {
    std::size_t width = 40;
    for (const auto* part : {&r.rows, &r.context})
      for (const auto& m : *part) width = std::max(width, std::min<std::size_t>(short_stack(m.key).size(), 90));
    auto row = [&](const Mover& m) {
      out << indent
          << fmt::format("  {:<10} {:<{}} {:>12} {:>12} {:>9} {:>7} {:>7}{}\n", family_name(m.family),
                         short_stack(m.key).substr(0, 90), width, format_per_kloop(m.family, m.base_per_kloop),
                         format_per_kloop(m.family, m.new_per_kloop), percent(m.change), prob(m.p), prob(m.q),
                         m.significant ? " *" : "");
    };
    out << indent << fmt::format("  {:<10} {:<{}} {:>12} {:>12} {:>9} {:>7} {:>7}\n", "family", "key", width, "base", "new",
                                 "change", "p", "q");
    if (r.rows.empty() && !r.left_out) out << indent << "  (no single stack or counter moved above its floor)\n";
    for (const auto& m : r.rows) row(m);
    if (r.left_out) out << indent << fmt::format("  ({} more rows left out)\n", r.left_out);
    if (!r.context.empty()) {
      out << indent << "  totals and pressure (they hold or follow from the rows above):\n";
      for (const auto& m : r.context) row(m);
      if (r.context_left_out)
        out << indent << fmt::format("  ({} more totals left out)\n", r.context_left_out);
    }
  }
  if (!r.missing.empty())
    out << indent << "  not compared (not collected in every boot of both sides): " << families(r.missing) << "\n";
}

namespace {

/// Okabe-Ito colours, cycled over a bar's segments.
constexpr const char* kColours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"};

/// One side's bar of `family`'s stack rows (keys without brackets), scaled to `scale` ns: a
/// note with the side's label, then an inline SVG (util::XmlWriter) of one rect per stack.
std::string bar(const std::vector<const Mover*>& stacks, bool base, double scale, const std::string& label) {
  constexpr double kWidth = 600;
  util::XmlWriter x({.quote = '"', .declaration = false});
  x.open("svg").attr("xmlns", "http://www.w3.org/2000/svg").attr("width", kWidth).attr("height", 18).attr("role", "img");
  double left = 0;
  std::size_t i = 0;
  for (const Mover* m : stacks) {
    const double v = base ? m->base_per_kloop : m->new_per_kloop;
    const double w = scale > 0 ? kWidth * v / scale : 0;
    if (w >= 0.5) {
      x.open("rect").attr("x", fmt::format("{:.1f}", left)).attr("y", 1).attr("width", fmt::format("{:.1f}", w));
      x.attr("height", 16).attr("fill", kColours[i % std::size(kColours)]);
      x.leaf("title", fmt::format("{:.3f} ms per 1,000 loops: {}", v / 1e6, short_stack(m->key, 40))).close();
    }
    left += w;
    ++i;
  }
  return fmt::format(R"(<div class="note">{}</div>)", util::xml_escape(label)) + x.finish();
}

}  // namespace

std::string ranking_html(const Ranking& r, const std::string& base_label, const std::string& new_label, std::size_t rows,
                         std::size_t context_rows) {
  using util::xml_escape;
  std::string o = fmt::format("<p class=\"note\">What changed, per 1,000 loops ({} boots against {}); * significant at "
                              "q &lt;= 0.05 within its family (Benjamini-Hochberg). Stacks first, then totals and pressure.</p>\n",
                              r.new_boots, r.base_boots);
  o += "<table><tr><th>family</th><th>key</th><th>" + xml_escape(base_label) + "</th><th>" + xml_escape(new_label) +
       "</th><th>change</th><th>q</th></tr>\n";
  auto row = [&](const Mover& m) {
    o += fmt::format(R"(<tr><td>{}</td><td title="{}">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}{}</td></tr>)" "\n",
                     family_name(m.family), xml_escape(short_stack(m.key, 40)), xml_escape(short_stack(m.key)),
                     xml_escape(format_per_kloop(m.family, m.base_per_kloop)), xml_escape(format_per_kloop(m.family, m.new_per_kloop)),
                     percent(m.change), prob(m.q), m.significant ? " *" : "");
  };
  for (std::size_t i = 0; i < r.rows.size() && i < rows; ++i) row(r.rows[i]);
  if (!r.context.empty() && context_rows > 0) {
    o += "<tr><th colspan=\"6\">totals and pressure</th></tr>\n";
    for (std::size_t i = 0; i < r.context.size() && i < context_rows; ++i) row(r.context[i]);
  }
  o += "</table>\n";
  for (const Family f : {Family::lock, Family::offcpu, Family::oncpu}) {
    std::vector<const Mover*> stacks;
    double a = 0, b = 0;
    for (const auto& m : r.rows)
      if (m.family == f && m.kind == RowKind::stack) {
        stacks.push_back(&m);
        a += m.base_per_kloop;
        b += m.new_per_kloop;
      }
    if (stacks.empty()) continue;
    const double scale = std::max(a, b);
    o += fmt::format("<h4>{} stacks among the top rows (ms per 1,000 loops: {:.3f} → {:.3f})</h4>\n", family_name(f), a / 1e6, b / 1e6);
    o += bar(stacks, true, scale, base_label) + bar(stacks, false, scale, new_label);
  }
  return o;
}

nlohmann::json ranking_json(const Ranking& r, double fdr) {
  auto names = [](const std::vector<Family>& fs) {
    nlohmann::json a = nlohmann::json::array();
    for (const Family f : fs) a.push_back(family_name(f));
    return a;
  };
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json rows = nlohmann::json::array();
  for (const auto* part : {&r.rows, &r.context})
    for (const auto& m : *part)
      rows.push_back({{"family", family_name(m.family)},
                      {"key", m.key},
                      {"kind", row_kind_name(m.kind)},
                      {"unit", is_time(m.family) ? "ns" : "events"},
                      {"base_per_kloop", m.base_per_kloop},
                      {"new_per_kloop", m.new_per_kloop},
                      {"change", opt(m.change)},
                      {"p", opt(m.p)},
                      {"q", opt(m.q)},
                      {"significant", m.significant}});
  return {{"base_boots", r.base_boots}, {"new_boots", r.new_boots}, {"fdr", fdr},
          {"families", names(r.families)}, {"missing", names(r.missing)}, {"left_out", r.left_out},
          {"context_left_out", r.context_left_out}, {"rows", std::move(rows)}};
}

}  // namespace rlab::attribution
