#pragma once
// UnixBench's score of a multi-pass test.
#include <vector>

namespace rlab::protocol {

/// The score of passes with the given loops-per-minute figures, as UnixBench computes it:
/// drop the worst int(n/3) passes (lowest lpm), take the geometric mean of the rest.
/// Returns 0 for no passes or when a kept pass is <= 0 (its log is undefined).
double unixbench_score(std::vector<double> lpm);

}  // namespace rlab::protocol
