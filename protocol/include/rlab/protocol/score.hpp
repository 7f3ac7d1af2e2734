#pragma once
// UnixBench's score of a multi-pass test.
#include <optional>
#include <string_view>
#include <vector>

namespace rlab::protocol {

/// The score of passes with the given loops-per-minute figures, as UnixBench computes it:
/// drop the worst int(n/3) passes (lowest lpm), take the geometric mean of the rest.
/// Returns 0 for no passes or when a kept pass is <= 0 (its log is undefined).
double unixbench_score(std::vector<double> lpm);

/// UnixBench's baseline of a workload kind, lpm (pgms/index.base: shell1 42.4, shell8 6.0,
/// the figures of the SPARCstation 20-61 "George"); nullopt for other kinds.
std::optional<double> unixbench_baseline_lpm(std::string_view kind);

/// UnixBench's index of a score: lpm / baseline * 10 (an index of 10 is the baseline
/// machine). nullopt when the kind has no baseline. Of this guest, not of the host machine.
std::optional<double> unixbench_index(std::string_view kind, double lpm);

}  // namespace rlab::protocol
