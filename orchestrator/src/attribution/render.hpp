#pragma once
// The "what changed" ranking as text and JSON, for rlab compare, the bisect report and the
// nightly reports (docs/attribution.md "Reading the ranking").
#include "attribution/rank.hpp"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace rlab::attribution {

/// `v` per 1,000 loops in the family's unit: "4.02 ms" for time families (v in ns), "1234.5"
/// for event counts.
std::string format_per_kloop(Family f, double v);

/// A table, one row per mover: family, key (stacks shortened to 6 frames, innermost first),
/// base and new per 1,000 loops, change, p, q, and "*" where significant. First a header line
/// with the boots and the rule, then the leading rows (Ranking::rows: stacks, parts, counters)
/// and how many were left out, then under "totals and pressure" the context rows
/// (Ranking::context) in the same columns and how many were left out, then a line naming the
/// families not compared. `indent` starts every line. With no row of either kind: one line
/// saying there was nothing to rank.
void render_ranking(const Ranking& r, std::ostream& out, const std::string& indent = "  ");

/// An HTML fragment (no script): a table of the first `rows` leading rows, then under a
/// "totals and pressure" heading row the first `context_rows` context rows; then for each stack
/// family (lock, offcpu, oncpu) that has stack rows (RowKind::stack) among the leading rows, a
/// flame-style bar per side: one segment per stack, its width the stack's ms per 1,000 loops on
/// the scale of the larger side, the stack's frames in its tooltip. `base_label`/`new_label`
/// name the sides. Text is escaped.
std::string ranking_html(const Ranking& r, const std::string& base_label, const std::string& new_label,
                         std::size_t rows = 12, std::size_t context_rows = 6);

/// {"base_boots", "new_boots", "fdr", "families": [...], "missing": [...], "left_out",
///  "context_left_out", "rows": [{"family", "key", "kind" ("stack" | "part" | "counter" |
///  "total" | "pressure"), "unit" ("ns" | "events"), "base_per_kloop", "new_per_kloop",
///  "change" (or null), "p" (or null), "q" (or null), "significant"}]}: every row in the order
/// shown, the leading rows (Ranking::rows) then the context rows (Ranking::context); per 1,000
/// loops, medians over each side's boots; "left_out" and "context_left_out" count the rows of
/// each part beyond the ranking's cut.
nlohmann::json ranking_json(const Ranking& r, double fdr);

}  // namespace rlab::attribution
