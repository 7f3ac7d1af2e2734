#pragma once
// The fidelity benchmark: rlab's shell1 against UnixBench's own shell1 (runner "unixbench"), in
// the same kernel, guest settings and input, booted alternately; per (filesystem, vCPUs) the
// ratio rlab lpm / UnixBench lpm of the medians over boots, with the spread of the ratios of
// boots paired by repeat. Target: every ratio in [0.98, 1.02] (docs/benchmarks.md "Fidelity").
#include "store/store.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace rlab::results {

/// What the benchmark runs.
struct FidelitySpec {
  std::filesystem::path unixbench;         ///< UnixBench directory (src/, pgms/, testdir/), absolute
  std::string debian_kernel = "6.12";      ///< linux-source-<X> from Debian
  std::string suite = "trixie";            ///< the Debian suite that has it
  std::vector<unsigned> vcpus = {1, 2};
  std::vector<std::string> filesystems = {"xfs", "ext4"};
  double duration_s = 20;                  ///< per pass, whole seconds (UnixBench's looper)
  unsigned boots = 2;                      ///< boots per workload and cell, interleaved
  std::string clock = "icount";            ///< guest.clock: "icount" or "realtime"
  std::filesystem::path results;           ///< the store, absolute
};

/// The matrix (YAML text) of `spec`: one kernel, the filesystems, the vCPU counts, and the two
/// workloads `rlab-shell1` (input: UnixBench's testdir/sort.src) and `unixbench-shell1`
/// (runner: unixbench), one pass each, copies = vCPUs, `boots` repeats.
std::string fidelity_matrix(const FidelitySpec& spec);

/// One (filesystem, vCPUs) row.
struct FidelityRow {
  std::string fs;
  unsigned vcpus = 0;
  std::vector<double> rlab_lpm, unixbench_lpm;  ///< scores of the done boots, by repeat
  std::optional<double> ratio;      ///< median(rlab) / median(unixbench)
  std::optional<double> low, high;  ///< smallest and largest rlab / unixbench of boots paired by repeat
  unsigned pairs = 0;               ///< repeats with a score on both sides
};

/// The rows of a stored fidelity run's boots (workloads named rlab-shell1 / unixbench-shell1).
std::vector<FidelityRow> fidelity_rows(const std::vector<store::BootResult>& boots);

/// Text table: fs, vCPUs, both medians with their boots, the ratio, its paired range, and
/// whether it is inside [lo, hi].
void render_fidelity(const std::vector<FidelityRow>& rows, double lo, double hi, std::ostream& out);

/// The rows as JSON: [{fs, vcpus, rlab_lpm, unixbench_lpm, ratio, low, high, pairs}].
nlohmann::json fidelity_json(const std::vector<FidelityRow>& rows);

}  // namespace rlab::results
