#pragma once
// The fidelity benchmark: rlab's shell1 against UnixBench's own shell1 (runner "unixbench"), in
// the same kernel, guest settings and input, booted alternately; per (filesystem, vCPUs) the
// ratio rlab lpm / UnixBench lpm of the medians over boots, with the spread of the ratios of
// boots paired by repeat. Target: every ratio in [0.98, 1.02] (docs/benchmarks.md "Fidelity").
// Both run beside the agent, so what the guest and agent cost the load cancels there; the bare
// guest (runner "bare": UnixBench's scripts under a minimal /init, nothing else running, same
// kernel, initramfs and machine) is the baseline both are also divided by.
#include "store/store.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
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
  bool bare = true;                        ///< also boot the bare guest (workload bare-shell1)
  std::filesystem::path results;           ///< the store, absolute
};

/// The matrix (YAML text) of `spec`: one kernel, the filesystems, the vCPU counts, and the
/// workloads `rlab-shell1` (input: UnixBench's testdir/sort.src), `unixbench-shell1` (runner:
/// unixbench) and, with spec.bare, `bare-shell1` (runner: bare), one pass each, copies =
/// vCPUs, `boots` repeats (the scheduler boots a cell's workloads alternately).
std::string fidelity_matrix(const FidelitySpec& spec);

/// One ratio of two workloads' scores (lpm) in a row.
struct FidelityRatio {
  std::optional<double> ratio;      ///< median(numerator) / median(denominator)
  std::optional<double> low, high;  ///< smallest and largest ratio of boots paired by repeat
  unsigned pairs = 0;               ///< repeats with a score on both sides
};

/// The ratio of scores `num` to `den`, each (repeat, lpm) of the done boots; nothing when
/// either side has no score or a median of `den` is not positive.
FidelityRatio fidelity_ratio(const std::vector<std::pair<unsigned, double>>& num,
                             const std::vector<std::pair<unsigned, double>>& den);

/// One (filesystem, vCPUs) row.
struct FidelityRow {
  std::string fs;
  unsigned vcpus = 0;
  std::vector<double> rlab_lpm, unixbench_lpm, bare_lpm;  ///< scores of the done boots, by repeat
  std::optional<double> ratio;      ///< median(rlab) / median(unixbench)
  std::optional<double> low, high;  ///< smallest and largest rlab / unixbench of boots paired by repeat
  unsigned pairs = 0;               ///< repeats with a score on both sides
  FidelityRatio rlab_bare;          ///< rlab lpm / bare guest lpm
  FidelityRatio unixbench_bare;     ///< UnixBench-in-rlab's-guest lpm / bare guest lpm
};

/// The rows of a stored fidelity run's boots (workloads named rlab-shell1, unixbench-shell1,
/// bare-shell1; others ignored), sorted by filesystem and vCPUs.
std::vector<FidelityRow> fidelity_rows(const std::vector<store::BootResult>& boots);

/// Text table: fs, vCPUs, the three medians with their boots, rlab / UnixBench with its paired
/// range and whether it is inside [lo, hi], then rlab / bare and UnixBench / bare with theirs.
void render_fidelity(const std::vector<FidelityRow>& rows, double lo, double hi, std::ostream& out);

/// The rows as JSON: [{fs, vcpus, rlab_lpm, unixbench_lpm, bare_lpm, ratio, low, high, pairs,
/// rlab_bare: {ratio, low, high, pairs}, unixbench_bare: {...}}]; a missing figure is null.
nlohmann::json fidelity_json(const std::vector<FidelityRow>& rows);

}  // namespace rlab::results
