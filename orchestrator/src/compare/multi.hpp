#pragma once
// N-way `rlab compare`: the first run (or kernel) is the base, every other one is compared
// with it by the two-way comparison (compare.hpp), one ComparisonTable per pair, laid out
// like mmtests' compare-kernels: one column group per non-base run or kernel.
#include "compare/compare.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rlab::compare {

/// The base against each other side: pairs[i] is base vs the (i+1)-th run or kernel given, all
/// with the same mode, base side and options. One pair is the two-way comparison.
struct MultiComparison {
  std::vector<ComparisonTable> pairs;
};

/// runs[0] (base) against runs[1], runs[2], ... each by compare_runs. Throws UsageError for
/// fewer than two runs, store::StoreError naming a missing run, and compare_runs' errors.
MultiComparison compare_runs(const store::Store& st, const std::vector<std::int64_t>& runs,
                             const CompareOptions& opt);

/// kernels[0] (base) against kernels[1], ... inside run `run`, each by compare_kernels. Throws
/// UsageError for fewer than two kernels or a kernel the run has no scored boot of (naming it),
/// store::StoreError naming a missing run.
MultiComparison compare_kernels(const store::Store& st, std::int64_t run,
                                const std::vector<std::string>& kernels, const CompareOptions& opt);

/// "run 3" (runs mode) or "kernel 6.12" (kernels mode): how tables and messages name a side.
std::string side_name(Mode mode, const Side& s);

/// Whether any pair's row is refused / a regression (CellComparison::regression).
bool any_refused(const MultiComparison& m);
bool any_regression(const MultiComparison& m);

}  // namespace rlab::compare
