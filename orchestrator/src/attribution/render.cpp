#include "attribution/render.hpp"

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
  if (r.rows.empty()) {
    out << indent << "  nothing to rank: no counter moved above its floor in the families compared\n";
  } else {
    std::size_t width = 40;
    for (const auto& m : r.rows) width = std::max(width, std::min<std::size_t>(short_stack(m.key).size(), 90));
    out << indent << fmt::format("  {:<10} {:<{}} {:>12} {:>12} {:>9} {:>7} {:>7}\n", "family", "key", width, "base", "new",
                                 "change", "p", "q");
    for (const auto& m : r.rows)
      out << indent
          << fmt::format("  {:<10} {:<{}} {:>12} {:>12} {:>9} {:>7} {:>7}{}\n", family_name(m.family),
                         short_stack(m.key).substr(0, 90), width, format_per_kloop(m.family, m.base_per_kloop),
                         format_per_kloop(m.family, m.new_per_kloop), percent(m.change), prob(m.p), prob(m.q),
                         m.significant ? " *" : "");
  }
  if (r.left_out) out << indent << fmt::format("  ({} more rows, less changed, left out)\n", r.left_out);
  if (!r.missing.empty())
    out << indent << "  not compared (not collected in every boot of both sides): " << families(r.missing) << "\n";
}

nlohmann::json ranking_json(const Ranking& r, double fdr) {
  auto names = [](const std::vector<Family>& fs) {
    nlohmann::json a = nlohmann::json::array();
    for (const Family f : fs) a.push_back(family_name(f));
    return a;
  };
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& m : r.rows)
    rows.push_back({{"family", family_name(m.family)},
                    {"key", m.key},
                    {"unit", is_time(m.family) ? "ns" : "events"},
                    {"base_per_kloop", m.base_per_kloop},
                    {"new_per_kloop", m.new_per_kloop},
                    {"change", opt(m.change)},
                    {"p", opt(m.p)},
                    {"q", opt(m.q)},
                    {"significant", m.significant}});
  return {{"base_boots", r.base_boots}, {"new_boots", r.new_boots}, {"fdr", fdr},
          {"families", names(r.families)}, {"missing", names(r.missing)}, {"left_out", r.left_out},
          {"rows", std::move(rows)}};
}

}  // namespace rlab::attribution
