#pragma once
// Output of `rlab compare`: an LKP-style text table, JSON (shape in docs/compare.md) and CSV.
#include "compare/compare.hpp"
#include "compare/multi.hpp"

#include <nlohmann/json.hpp>

#include <ostream>

namespace rlab::compare {

/// Text: a header naming the sides and thresholds, then per cell pair one row
/// "base median ± %stddev   %change   new median ± %stddev   p   verdict   label",
/// a line of advice for unknown/refused/error rows, and the row's "what changed" ranking
/// (counters per 1,000 loops, biggest mover first) unless the options turned it off.
void render_text(const ComparisonTable& r, std::ostream& out);

/// JSON: {"mode", "base": {run, kernel}, "new": {...}, "options": {alpha, min_effect,
/// cap_boots_per_side, axis_fields}, "cells": [...], "summary": {...}}; absent figures null.
nlohmann::json to_json(const ComparisonTable& r);

/// N-way text (two or more pairs): the base's median ± %stddev, then per other run or kernel a
/// column group "%change  median ± %stddev  p  verdict", one line per label over all pairs;
/// under it, per other side, the advice and "what changed" of that pair. One pair is laid out
/// by render_text(ComparisonTable) instead, as the two-way table always was.
void render_text(const MultiComparison& m, std::ostream& out);

/// N-way JSON (docs/compare.md): {"mode", "base", "others": [{run, kernel}], "options",
/// "comparisons": [to_json(pair) per other side], "cells": [{label, base: {cell, boots,
/// median, rel_stddev}, others: [{run, kernel, cell, status, boots, median, rel_stddev,
/// change, p, verdict, regression}]}], "summary": per-verdict counts over all pairs}. One pair
/// gives to_json(pair) itself.
nlohmann::json to_json(const MultiComparison& m);

/// CSV (util/csv.hpp), one record per label and other side, under the header mode, base_run,
/// base_kernel, new_run, new_kernel, label, base_cell, new_cell, status, base_boots,
/// new_boots, base_median_lpm, new_median_lpm, base_rel_stddev, new_rel_stddev, change, p,
/// verdict, regression. Fractions stay fractions (change -0.111, not %); absent figures are
/// empty fields.
void render_csv(const MultiComparison& m, std::ostream& out);

}  // namespace rlab::compare
