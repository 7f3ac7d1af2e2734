// The AG header tables as text, JSON and HTML (the model is attribution/ag_table.hpp).
#include "attribution/ag_table_render.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

#include <cmath>

namespace rlab::attribution {
namespace {

/// "96%"; a share above 0 but below 1% with one significant digit ("0.3%", "0.07%"), so rare
/// contention does not read as none.
std::string percent(double share) {
  const double p = 100.0 * share;
  if (p > 0 && p < 1) return fmt::format("{:.1g}%", p);
  return fmt::format("{:.0f}%", p);
}

std::string change_text(const std::optional<double>& c, double base, double next) {
  if (c) return fmt::format("{:+.0f}%", 100.0 * *c);
  return next > 0 && base <= 0 ? "new" : "unchanged";
}

}  // namespace

std::string format_ms(double ms) {
  const double a = std::fabs(ms);
  if (a < 1) return fmt::format("{:.3f}", ms);
  if (a < 10) return fmt::format("{:.2f}", ms);
  if (a < 100) return fmt::format("{:.1f}", ms);
  std::string digits = fmt::format("{:.0f}", std::fabs(ms)), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (ms < 0 ? "-" : "") + out;
}

std::string ag_row_text(const AgHeaderRow& r) {
  std::vector<std::string> why;
  if (!r.wait_share.empty()) {
    const auto top = std::max_element(r.wait_share.begin(), r.wait_share.end(),
                                      [](const auto& x, const auto& y) { return x.second < y.second; });
    why.push_back(percent(top->second) + (top->first == "unclassified" ? " unclassified"
                                          : top->first == kShortWaits ? " in short waits"
                                                                      : " by " + top->first));
  }
  if (r.contended_share) why.push_back(percent(*r.contended_share) + " contended");
  std::string s = fmt::format("{}: {} ms waited per 1,000 loops", r.at.name(), format_ms(r.waited_ms_per_kloop));
  if (!why.empty()) s += " (" + why.front() + (why.size() > 1 ? ", " + why.back() : "") + ")";
  s += fmt::format(", held {} ms per 1,000 loops, longest {} ms", format_ms(r.held_ms_per_kloop), format_ms(r.longest_hold_ms));
  if (!r.held_most_by.empty()) s += ", held most by " + r.held_most_by;
  return s;
}

void render_ag_table(const AgTable& t, std::ostream& out, const std::string& indent) {
  out << indent
      << fmt::format("XFS AG headers, per 1,000 loops (median over {} boot{}{}):\n", t.boots, t.boots == 1 ? "" : "s",
                     t.agcount ? fmt::format("; {} AGs", *t.agcount) : std::string());
  if (t.rows.empty()) out << indent << "  no AG header was locked\n";
  for (const auto& r : t.rows) out << indent << "  " << ag_row_text(r) << "\n";
  if (t.left_out)
    out << indent
        << fmt::format("  ({} more AG headers left out, {} ms waited per 1,000 loops together)\n", t.left_out,
                       format_ms(t.left_out_waited_ms_per_kloop));
  if (t.dropped > 0)
    out << indent << fmt::format("  ({:.0f} lock records not counted: the guest's map was full)\n", t.dropped);
}

namespace {

nlohmann::json row_json(const AgHeaderRow& r) {
  return {{"header", r.at.header},
          {"ag", r.at.ag},
          {"waited_ms_per_1k_loops", r.waited_ms_per_kloop},
          {"held_ms_per_1k_loops", r.held_ms_per_kloop},
          {"contended_share", r.contended_share ? nlohmann::json(*r.contended_share) : nlohmann::json(nullptr)},
          {"wait_share", r.wait_share},
          {"longest_hold_ms", r.longest_hold_ms},
          {"held_most_by", r.held_most_by},
          {"text", ag_row_text(r)}};
}

nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

}  // namespace

nlohmann::json ag_table_json(const AgTable& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : t.rows) rows.push_back(row_json(r));
  return {{"boots", t.boots},
          {"agcount", t.agcount ? nlohmann::json(*t.agcount) : nlohmann::json(nullptr)},
          {"dropped", t.dropped},
          {"left_out", t.left_out},
          {"left_out_waited_ms_per_1k_loops", t.left_out_waited_ms_per_kloop},
          {"rows", std::move(rows)}};
}

std::string ag_table_html(const AgTable& t) {
  using util::xml_escape;
  std::string o = "<table><tr><th>AG header</th><th>waited, ms per 1,000 loops</th><th>contended</th><th>waited by</th>"
                  "<th>held, ms per 1,000 loops</th><th>longest hold, ms</th><th>held most by</th></tr>\n";
  for (const auto& r : t.rows) {
    std::string by;
    for (const auto& [k, s] : r.wait_share) by += (by.empty() ? "" : ", ") + percent(s) + " " + k;
    o += fmt::format(
        R"(<tr><td>{}</td><td class="num">{}</td><td class="num">{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td><td>{}</td></tr>)"
        "\n",
        xml_escape(r.at.name()), format_ms(r.waited_ms_per_kloop), r.contended_share ? percent(*r.contended_share) : "-",
        xml_escape(by), format_ms(r.held_ms_per_kloop), format_ms(r.longest_hold_ms), xml_escape(r.held_most_by));
  }
  o += "</table>\n";
  if (t.left_out) o += fmt::format("<p class=\"note\">{} more AG headers left out.</p>\n", t.left_out);
  return o;
}

void render_ag_comparison(const AgComparison& c, std::ostream& out, const std::string& indent, const std::string& base_label,
                          const std::string& new_label) {
  out << indent
      << fmt::format("XFS AG headers, ms per 1,000 loops ({} {} boots -> {} {} boots, medians; most changed first):\n",
                     base_label, c.base_boots, new_label, c.new_boots);
  if (c.rows.empty()) out << indent << "  no AG header was locked on either side\n";
  for (const auto& r : c.rows) {
    out << indent
        << fmt::format("  {}: waited {} -> {} ms per 1,000 loops ({}), held {} -> {} ms ({})", r.at.name(),
                       format_ms(r.base_waited_ms_per_kloop), format_ms(r.new_waited_ms_per_kloop),
                       change_text(r.waited_change, r.base_waited_ms_per_kloop, r.new_waited_ms_per_kloop),
                       format_ms(r.base_held_ms_per_kloop), format_ms(r.new_held_ms_per_kloop),
                       change_text(r.held_change, r.base_held_ms_per_kloop, r.new_held_ms_per_kloop));
    if (r.next) {
      const std::string detail = ag_row_text(*r.next);
      out << "; " << new_label << ": " << detail.substr(detail.find(": ") + 2);
    }
    out << "\n";
  }
  if (c.left_out) out << indent << fmt::format("  ({} more AG headers, less changed, left out)\n", c.left_out);
}

nlohmann::json ag_comparison_json(const AgComparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : c.rows)
    rows.push_back({{"header", r.at.header},
                    {"ag", r.at.ag},
                    {"base_waited_ms_per_1k_loops", r.base_waited_ms_per_kloop},
                    {"new_waited_ms_per_1k_loops", r.new_waited_ms_per_kloop},
                    {"waited_change", opt(r.waited_change)},
                    {"base_held_ms_per_1k_loops", r.base_held_ms_per_kloop},
                    {"new_held_ms_per_1k_loops", r.new_held_ms_per_kloop},
                    {"held_change", opt(r.held_change)},
                    {"new", r.next ? row_json(*r.next) : nlohmann::json(nullptr)}});
  return {{"base_boots", c.base_boots}, {"new_boots", c.new_boots}, {"left_out", c.left_out}, {"rows", std::move(rows)}};
}

std::string ag_comparison_html(const AgComparison& c, const std::string& base_label, const std::string& new_label) {
  using util::xml_escape;
  std::string o = fmt::format("<p class=\"note\">XFS AG headers, ms per 1,000 loops (medians over {} and {} boots), most "
                              "changed first; who waited and held on the {} side.</p>\n",
                              c.base_boots, c.new_boots, xml_escape(new_label));
  o += fmt::format("<table><tr><th>AG header</th><th>waited, {}</th><th>waited, {}</th><th>change</th><th>held, {}</th>"
                   "<th>held, {}</th><th>change</th><th>{}: waited by, held most by</th></tr>\n",
                   xml_escape(base_label), xml_escape(new_label), xml_escape(base_label), xml_escape(new_label),
                   xml_escape(new_label));
  for (const auto& r : c.rows) {
    std::string who;
    if (r.next) {
      for (const auto& [k, s] : r.next->wait_share) who += (who.empty() ? "" : ", ") + percent(s) + " " + k;
      if (!r.next->held_most_by.empty()) who += (who.empty() ? "" : "; ") + std::string("held most by ") + r.next->held_most_by;
    }
    o += fmt::format(
        R"(<tr><td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td>{}</td></tr>)"
        "\n",
        xml_escape(r.at.name()), format_ms(r.base_waited_ms_per_kloop), format_ms(r.new_waited_ms_per_kloop),
        change_text(r.waited_change, r.base_waited_ms_per_kloop, r.new_waited_ms_per_kloop),
        format_ms(r.base_held_ms_per_kloop), format_ms(r.new_held_ms_per_kloop),
        change_text(r.held_change, r.base_held_ms_per_kloop, r.new_held_ms_per_kloop), xml_escape(who));
  }
  o += "</table>\n";
  if (c.left_out) o += fmt::format("<p class=\"note\">{} more AG headers, less changed, left out.</p>\n", c.left_out);
  return o;
}

}  // namespace rlab::attribution
