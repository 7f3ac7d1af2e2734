#pragma once
// The `gaps:` section: pairs of cells of one kernel whose score ratio `rlab nightly` follows
// (docs/matrix.md "Gaps"). Internal to matrix/.
#include "matrix/yaml_check.hpp"

#include <vector>

namespace rlab::matrix::detail {

/// Parses `gaps:` (node `n`, a non-empty list of two-string lists) against the cells of `m`
/// (its axes and kernels already parsed) and expands each entry into its pairs. An entry whose
/// two strings are two values of one axis other than the kernel (filesystem variant ids such
/// as `xfs-defaults`, vCPU parts such as `2vcpu`, workload names) pairs every cell with the
/// first value with the cell that differs from it only there; otherwise each string selects
/// one cell (select_cell_id: its id or a unique part). Throws MatrixError at the offending
/// entry or string: not a pair of strings, a selector naming no single cell, two kernels, two
/// cells of different kernels, one cell twice, a pair another entry already named.
std::vector<Gap> parse_gaps(const Checker& ck, const YAML::Node& n, const Matrix& m);

}  // namespace rlab::matrix::detail
