#pragma once
// Output of `rlab compare`: an LKP-style text table and JSON (shape in docs/compare.md).
#include "compare/compare.hpp"

#include <nlohmann/json.hpp>

#include <ostream>

namespace rlab::compare {

/// Text: a header naming the sides and thresholds, then per cell pair one row
/// "base median ± %stddev   %change   new median ± %stddev   p   verdict   label",
/// a line of advice for unknown/refused/error rows, and one row per inodegc tracepoint
/// (events per 1,000 loops, biggest mover first).
void render_text(const ComparisonTable& r, std::ostream& out);

/// JSON: {"mode", "base": {run, kernel}, "new": {...}, "options": {alpha, min_effect,
/// cap_boots_per_side, axis_fields}, "cells": [...], "summary": {...}}; absent figures null.
nlohmann::json to_json(const ComparisonTable& r);

}  // namespace rlab::compare
