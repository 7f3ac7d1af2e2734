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
/// base and new per 1,000 loops, change, p, q, and "*" where significant; a header line with
/// the boots and the rule, a line naming the families not compared, and how many rows were
/// left out. `indent` starts every line. With no rows: one line saying there was nothing to rank.
void render_ranking(const Ranking& r, std::ostream& out, const std::string& indent = "  ");

/// An HTML fragment (no script): the ranking's top `rows` as a table, then for each stack
/// family (lock, offcpu, oncpu) that has stack rows, a flame-style bar per side: one segment
/// per stack, its width the stack's ms per 1,000 loops on the scale of the larger side, the
/// stack's frames in its tooltip. `base_label`/`new_label` name the sides. Text is escaped.
std::string ranking_html(const Ranking& r, const std::string& base_label, const std::string& new_label,
                         std::size_t rows = 12);

/// {"base_boots", "new_boots", "fdr", "families": [...], "missing": [...], "left_out",
///  "rows": [{"family", "key", "unit" ("ns" | "events"), "base_per_kloop", "new_per_kloop",
///  "change" (or null), "p" (or null), "q" (or null), "significant"}]}.
nlohmann::json ranking_json(const Ranking& r, double fdr);

}  // namespace rlab::attribution
