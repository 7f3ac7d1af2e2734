#pragma once
// The per-AG header tables of attribution/ag_table.hpp rendered: text lines for `rlab results`,
// `rlab compare` and bisection reports, JSON for --json, HTML for the nightly report.
#include "attribution/ag_table.hpp"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace rlab::attribution {

/// `ms` as the tables show it: "1,172" from 100 on (thousands grouped), "12.3", "1.23", "0.123".
std::string format_ms(double ms);

/// One line of a row: "AGI of AG 0: 1,172 ms waited per 1,000 loops (96% by unlinking tasks, 40%
/// contended), held 2,310 ms per 1,000 loops, longest 12.3 ms, held most by the inodegc worker
/// [kworker/1:2]" (the parts without data left out).
std::string ag_row_text(const AgHeaderRow& r);

/// The table as text: a heading line, one ag_row_text per row, the left-out line, dropped records.
/// `indent` starts every line.
void render_ag_table(const AgTable& t, std::ostream& out, const std::string& indent = "  ");
/// {"boots", "agcount" (or null), "dropped", "left_out", "left_out_waited_ms_per_1k_loops",
///  "rows": [{"header", "ag", "waited_ms_per_1k_loops", "held_ms_per_1k_loops", "contended_share"
///  (or null), "wait_share": {kind: share}, "longest_hold_ms", "held_most_by", "text"}]}.
nlohmann::json ag_table_json(const AgTable& t);
/// An HTML <table> of the rows, escaped.
std::string ag_table_html(const AgTable& t);

/// The comparison as text: a heading naming the sides, one line per row ("AGI of AG 0: waited
/// 120 -> 1,172 ms per 1,000 loops (+877%), held 300 -> 2,310 ms (+670%); new: ..."), left out.
void render_ag_comparison(const AgComparison& c, std::ostream& out, const std::string& indent = "  ",
                          const std::string& base_label = "base", const std::string& new_label = "new");
/// {"base_boots", "new_boots", "left_out", "rows": [{"header", "ag", "base_waited_ms_per_1k_loops",
///  "new_waited_ms_per_1k_loops", "waited_change" (or null), "base_held_ms_per_1k_loops",
///  "new_held_ms_per_1k_loops", "held_change" (or null), "new" (ag_table_json row, or null)}]}.
nlohmann::json ag_comparison_json(const AgComparison& c);
/// An HTML fragment: a note and a <table> of the rows, the sides named by the labels, escaped.
std::string ag_comparison_html(const AgComparison& c, const std::string& base_label, const std::string& new_label);

}  // namespace rlab::attribution
