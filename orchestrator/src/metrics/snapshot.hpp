#pragma once
// What the store says at one moment, shaped for metrics: the latest result of every cell,
// each cell's totals over all its stored results, boot outcomes, kernel identities and the
// progress of runs. Filled by read_snapshot() (store_reader.hpp), turned into metric families
// by add_snapshot() (families.hpp).
#include "metrics/labels.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace rlab::metrics {

/// A per-loop latency histogram as the agent reports it (docs/protocol.md "latency"):
/// counts[i] loops took <= bounds_s[i] seconds (and more than bounds_s[i-1]); the last of
/// the bounds_s.size() + 1 counts holds the loops slower than every bound.
struct LatencyHistogram {
  std::vector<double> bounds_s;  ///< upper bounds in seconds, strictly increasing
  std::vector<double> counts;    ///< non-cumulative, size bounds_s.size() + 1
  double sum_s = 0;              ///< total seconds of all loops
};

/// The latest result of one cell (its newest boot with status "done").
struct CellResult {
  std::string cell_key;          ///< matrix::Cell::id, e.g. "6.12/xfs-agcount4/2vcpu/shell1"
  CellLabels labels;
  double score_lpm = 0;          ///< loops per minute, UnixBench aggregation
  /// UnixBench's index of score_lpm in this guest (protocol::unixbench_index); nullopt for
  /// a workload without a UnixBench baseline.
  std::optional<double> unixbench_index;
  /// XFS: mean over the passes of the allocation groups the load's inodes were seen in.
  std::optional<double> inode_ags;
  std::uint64_t loops = 0;       ///< loops of all passes
  std::map<unsigned, double> pass_lpm;  ///< 0-based pass index -> loops per minute
  std::optional<LatencyHistogram> latency;  ///< merged over passes; nullopt if none recorded
  double recorded_at_s = 0;      ///< Unix time of the result
  std::string commit;            ///< kernel source commit (git SHA or Debian version), "" if unknown
  std::string kernel_release;    ///< uname -r of the guest, "" if unknown
  /// Where the time went (docs/attribution.md): the AGI and AGF buffers' shares of the XFS
  /// buffer-lock wait time, in [0, 1] (nullopt without attribution or without such waits), and
  /// the seconds per 1,000 loops of contended lock waits and of the load off CPU in D.
  std::optional<double> agi_wait_share, agf_wait_share;
  std::optional<double> lock_wait_s_per_kloop, offcpu_d_s_per_kloop;
  /// XFS AG headers: seconds per 1,000 loops waited for and held, by {header ("AGI", "AGF",
  /// "AGFL"), AG label (ag_series_label: "0".."15", "16+" for the rest summed)}; empty without AG
  /// header totals. At most kAgsLabelled + 1 labels per header.
  std::map<std::pair<std::string, std::string>, double> ag_header_wait_s_per_kloop, ag_header_held_s_per_kloop;
};

/// The AGs a cell exports a series of their own for, per header: AGs 0..15; the rest (16 and up,
/// including the agent's "64+") are summed under the label "16+".
inline constexpr unsigned kAgsLabelled = 16;

/// The `ag` label of the agent's AG "3" or "64+": the AG itself below kAgsLabelled, else "16+";
/// "" for text that is no AG.
std::string ag_series_label(const std::string& ag);

/// Totals of one cell over every stored result ("done" boot) of it, in all runs. Monotonic
/// as results are added, so exported as counters.
struct CellTotals {
  CellLabels labels;             ///< the labels of the cell's latest result
  double load_seconds = 0;       ///< sum of the measured pass windows
  std::uint64_t loops = 0;       ///< sum of loops
  std::map<std::string, double> inodegc_events;      ///< event ("queue", "throttle", ...) -> count
  std::map<std::string, double> inactivation_events; ///< "set_need_inactive", "inactivating" -> count
  std::map<std::string, double> xfs_stats;           ///< xfs_stat_name() -> summed delta
};

/// Progress of the runs of one kind on one host.
struct RunProgress {
  std::string kind;              ///< "matrix", "bisect", "nightly", ...
  std::string host;              ///< the machine running rlab (runs.hostname)
  unsigned active_runs = 0;      ///< runs with status "running"
  /// Boots of those runs by state: "planned" (all), "pending", "running", "done", "failed".
  std::map<std::string, std::uint64_t> boots;
};

/// Identity of the kernel behind a kernel name's newest result.
struct KernelInfo {
  std::string kernel;            ///< matrix name
  std::string commit;
  std::string release;
  std::string patchset;
};

/// Everything exported from the store.
struct Snapshot {
  std::vector<CellResult> results;                    ///< one per cell key, sorted by key
  std::map<std::string, CellTotals> totals;           ///< by cell key (cells in `results` only)
  /// (cell key, labels, boot status "done"/"failed") -> boots, over all runs.
  std::map<std::tuple<std::string, CellLabels, std::string>, std::uint64_t> outcomes;
  /// (cell key, labels) -> seconds from domain start to the agent's hello (boots.boot_s) of
  /// every boot of the cell that got a hello, done or failed, over all runs, in boot order.
  /// Empty for a store older than that column.
  std::map<std::pair<std::string, CellLabels>, std::vector<double>> boot_seconds;
  std::vector<KernelInfo> kernels;
  std::vector<RunProgress> runs;
};

}  // namespace rlab::metrics
