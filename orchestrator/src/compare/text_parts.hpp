#pragma once
// Pieces of compare's text tables shared by the two-way and the N-way layout (internal to
// compare/).
#include "compare/compare.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace rlab::compare {

/// "    270.00 ±  5%": a median (lpm, %.2f, 10 wide) and its relative stddev (a fraction shown
/// in %), 16 wide; "-" when `v` is absent, blanks for the stddev when `rel` is.
std::string value_col(std::optional<double> v, std::optional<double> rel);

/// "    -11.1%" (a fraction shown in %, 11 wide); blanks when absent.
std::string change_col(std::optional<double> change);

/// A p-value, 9 wide: 4 decimals, or scientific below 0.0001.
std::string p_col(double p);

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
