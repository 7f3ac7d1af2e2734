#pragma once
// The words and columns every table of scores shares: `rlab run`'s and `rlab results`' table,
// `rlab compare` (two-way and N-way), and the nightly summary and HTML page. One cell prints
// the same statistic (the median of its boots' scores, with the relative stddev), under the
// same metric name (score_lpm) and row label, with the same verdict words (stats::verdict_name:
// different, same, unknown) wherever it appears.
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::results {

/// The score's metric name in every table: loops per minute, the median over a cell's boots.
inline constexpr std::string_view kScoreMetric = "score_lpm";

/// The statistic every table shows for a cell's score, as the column heads and legends name it.
inline constexpr std::string_view kScoreStatistic = "median";

/// The label of a row whose cells differ only in their kernel: "xfs(defaults).2vcpu.shell1".
/// `rlab results` and `rlab compare --kernels` name their rows with it; a row of one whole
/// cell (`rlab compare A B`, the nightly reports) is named by the cell id.
std::string row_label(const std::string& fs, const std::string& mkfs_label, unsigned vcpus,
                      const std::string& workload);

/// "    270.00 ±  5%": a median (lpm, %.2f, 10 wide) and its relative stddev (a fraction shown
/// in %), 16 wide; "-" when `v` is absent, blanks for the stddev when `rel` is absent or not
/// finite.
std::string value_col(std::optional<double> v, std::optional<double> rel);

/// "     -11.1%" (a fraction shown in %, 11 wide); blanks when absent.
std::string change_col(std::optional<double> change);

/// A p-value, 9 wide: 4 decimals, or scientific below 0.0001; blanks when absent.
std::string p_col(std::optional<double> p);

/// Width of the base column (value_col) and of each other side's group (group_col).
inline constexpr std::size_t kBaseWidth = 16;
inline constexpr std::size_t kGroupWidth = 1 + 11 + 16 + 1 + 9 + 2 + 9;

/// One other side's column group, kGroupWidth wide: " %change  median ± %stddev  p  verdict"
/// (change_col, value_col, p_col, the verdict word left-aligned in 9).
std::string group_col(std::optional<double> change, std::optional<double> value, std::optional<double> rel,
                      std::optional<double> p, std::string_view verdict);

/// Writes the column heads of a table of the base side against others: the side names (the
/// base's over its 16-wide column, each other's over its group's %change and value; a longer
/// name reaches left into the blanks before it), a rule, and "median %stddev  %change  median
/// %stddev  p  verdict". Returns each column's width (base first: kBaseWidth, then kGroupWidth).
std::vector<std::size_t> write_heads(const std::vector<std::string>& names, std::ostream& out);

/// `s` right-aligned in `width` display columns (UTF-8 aware: "±" is one column).
std::string pad_left(const std::string& s, std::size_t width);

}  // namespace rlab::results
