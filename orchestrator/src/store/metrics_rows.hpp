#pragma once
// What `rlab serve` and pushes export, as rows: the newest result of every cell with its
// passes, each cell's totals, boot outcomes and boot seconds, the progress of runs, and the
// newest noise report of every cell. Read in one read transaction from a store of any schema
// version without changing it (docs/store.md, docs/monitoring.md).
#include "store/store.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rlab::store {

/// The cell and machine a series is labelled with.
struct CellLabelRow {
  std::string kernel;        ///< the matrix's kernel name
  std::string patchset;      ///< "" for none
  unsigned page_size = 0;    ///< bytes
  std::string fs;
  std::string mkfs_label;
  unsigned vcpus = 0;
  unsigned copies = 0;
  std::string workload;      ///< the cell's workload name
  std::string host_uri;      ///< libvirt URI the boot ran on ("" when never started)
  std::string hostname;      ///< the machine that ran rlab (runs.hostname)
};

/// One pass of a result.
struct PassFigures {
  unsigned pass = 0;         ///< 0-based index
  std::uint64_t loops = 0;
  double lpm = 0;
  std::string latency_json;  ///< the agent's latency object
};

/// Where a result's time went, summed over its passes (passes.attribution_json totals, docs/
/// attribution.md); nanoseconds.
struct AttributionTotals {
  double lock_wait_ns = 0;     ///< contended lock waits of every task
  double xfs_buf_wait_ns = 0;  ///< of those, on XFS buffer locks
  double agi_wait_ns = 0;      ///< of those, on AGI buffers
  double agf_wait_ns = 0;      ///< of those, on AGF buffers
  double offcpu_d_ns = 0;      ///< the load's tasks off CPU in D
  /// XFS AG headers: the totals "agheader.<H>.<ag>.wait_ns" and "agheader.<H>.<ag>.held_ns"
  /// (H AGI, AGF or AGFL; ag "0".."63" or "64+") summed over the passes, by that name; empty
  /// when no pass carried them.
  std::map<std::string, double> ag_header_ns;
};

/// The newest result of a cell (its newest done boot).
struct LatestResult {
  BootId boot = 0;
  std::string cell_id;
  CellLabelRow labels;
  double score = 0;               ///< lpm
  double recorded_unix_s = 0;     ///< when the result was stored, Unix time
  std::string source_commit;      ///< "" when unknown
  std::string kernel_release;     ///< the build's, else the guest's; "" when unknown
  std::string workload_kind;      ///< "shell1" or "shell8"
  std::optional<double> inode_ags;  ///< XFS: mean over passes; nullopt without placement
  std::vector<PassFigures> passes;  ///< by pass index
  /// nullopt when no pass collected attribution (or the store predates schema 5).
  std::optional<AttributionTotals> attribution;
};

/// A cell's measured load over all its done boots.
struct CellLoad {
  std::string cell_id;
  double load_seconds = 0;   ///< sum of the passes' durations
  std::uint64_t loops = 0;
};

/// One counter of a cell summed over the passes of all its done boots.
struct CounterTotal {
  std::string cell_id;
  std::string counter;       ///< tracepoint name or XFS stats key ("ig.0")
  double total = 0;
};

/// Finished boots of a cell (and host) by status.
struct BootOutcomeCount {
  std::string cell_id;
  CellLabelRow labels;
  BootStatus status = BootStatus::done;  ///< done or failed
  std::uint64_t boots = 0;
};

/// Seconds from domain start to the agent's hello of one finished boot.
struct BootSeconds {
  std::string cell_id;
  CellLabelRow labels;
  double seconds = 0;
};

/// Boots of one run by status.
struct RunBootCount {
  RunId run = 0;
  std::string kind;
  std::string hostname;
  std::optional<BootStatus> status;  ///< nullopt for a run without boots (boots is 0)
  std::uint64_t boots = 0;
};

/// Everything metrics_rows() reads.
struct MetricsRows {
  std::vector<LatestResult> latest;     ///< one per cell id, sorted by id
  std::vector<CellLoad> loads;
  std::vector<CounterTotal> tracepoints;  ///< counters_json "tracepoints"
  std::vector<CounterTotal> xfs_stats;    ///< counters_json "xfs_stats"
  std::vector<BootOutcomeCount> outcomes;
  std::vector<BootSeconds> boot_seconds;  ///< in boot order; empty before schema version 2
  /// Every (kind, hostname) of the store's runs; only when reading all runs.
  std::vector<std::pair<std::string, std::string>> kinds;
  std::vector<RunBootCount> run_boots;    ///< by run id
  std::optional<RunStatus> run_status;    ///< the status of the run asked for
};

/// The rows of the whole store, or with `run` of that run's cells: their newest result
/// within that run, and that run's progress whatever its status. Totals, outcomes and boot
/// seconds are over all runs (of those cells); run_boots are of runs still running, or of
/// `run`. Throws StoreError.
MetricsRows metrics_rows(const Store& st, std::optional<RunId> run = std::nullopt);

/// The newest noise report of a cell, with the figures the metrics export.
struct NoiseFigures {
  std::string kernel;
  std::string fs;
  std::string mkfs_label;
  unsigned vcpus = 0;
  std::string workload;
  std::optional<double> boot_rel_stddev, pass_rel_stddev;  ///< fractions
  std::optional<double> mde_4, mde_8, mde_16;              ///< fractions
  std::optional<double> drift_per_hour;                    ///< fraction per hour
  std::optional<double> load_correlation;                  ///< Pearson r
  std::optional<double> created_unix_s;                    ///< Unix time of the report
  /// From the report's JSON (docs/noise.md figures), so older stores need no migration.
  std::optional<double> vcpu_share_mean, vcpu_share_correlation;
  std::optional<double> host_steal_mean, host_steal_correlation;
};

/// The newest noise report of every cell with one (none in a store from before noise
/// reports). Throws StoreError.
std::vector<NoiseFigures> latest_noise_figures(const Store& st);

}  // namespace rlab::store
