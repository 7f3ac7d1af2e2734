#pragma once
// Pieces of compare's text tables shared by the two-way and the N-way layout (internal to
// compare/).
#include "compare/compare.hpp"
#include "results/vocabulary.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace rlab::compare {

// The columns every table of scores shares (results/vocabulary.hpp).
using results::change_col;
using results::p_col;
using results::value_col;

/// The verdict word of a row: stats::verdict_name of a compared row, else its status
/// ("refused", "base only", "new only", "error").
std::string verdict_of(const CellComparison& c);

/// "run 3" or "kernel 6.12" (multi.hpp's side_name of the table's mode).
std::string side_name(const ComparisonTable& r, const Side& s);

/// The line under a row that is not judged (refused, error, one-sided, unknown with how many
/// more boots), each starting with `pad`; nothing for a judged row.
void advice(const CellComparison& c, const CompareOptions& o, std::ostream& out, const std::string& pad);

/// The row's "what changed" ranking (its first 10 leading rows, then its first 5 totals and
/// pressure rows) and AG header table, each line
/// starting with `indent`; nothing when the row has neither.
void what_changed(const CellComparison& c, std::ostream& out, const std::string& indent);

}  // namespace rlab::compare
