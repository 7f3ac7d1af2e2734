#pragma once
// Metric families built from a store Snapshot. Names follow Prometheus conventions (rlab_
// prefix, base units, _total counters); docs/monitoring.md is the reference:
//
//   rlab_cell_score_lpm                  gauge      latest result's score, loops per minute
//   rlab_cell_unixbench_index            gauge      latest score / UnixBench baseline * 10 (this guest)
//   rlab_cell_xfs_inode_ags              gauge      AGs the load's inodes were seen in (XFS, mean over passes)
//   rlab_cell_pass_lpm{pass}             gauge      latest result's passes, loops per minute
//   rlab_cell_loops                      gauge      loops of the latest result (all passes)
//   rlab_cell_loop_duration_seconds      histogram  per-loop latency of the latest result
//   rlab_cell_result_timestamp_seconds   gauge      Unix time of the latest result
//   rlab_cell_load_seconds_total         counter    measured load time, all results
//   rlab_cell_loops_total                counter    loops, all results
//   rlab_xfs_inodegc_events_total{event} counter    xfs:xfs_inodegc_<event> hits, all results
//   rlab_xfs_inode_inactivation_events_total{event} counter  set_need_inactive / inactivating
//   rlab_xfs_stats_total{stat}           counter    selected XFS stats deltas, all results
//   rlab_cells_total{status}             counter    boots (cell repeats) by outcome done/failed
//   rlab_guest_boot_seconds              histogram  domain start -> agent hello, all boots
//   rlab_kernel_info{kernel,commit,release,patchset} gauge 1
//   rlab_runs_active{kind,host}          gauge      runs with status running
//   rlab_run_boots{kind,host,state}      gauge      boots of running runs by state
//
// Cell series carry CellLabels (kernel, patchset, page_size, fs, mkfs, vcpus, copies,
// workload, host).
#include "metrics/snapshot.hpp"

#include <prometheus/registry.h>

namespace rlab::metrics {

/// Adds every family above, filled from `s`, to `registry` (which should hold nothing else
/// with these names). Families with no series are still registered (TYPE/HELP only).
void add_snapshot(prometheus::Registry& registry, const Snapshot& s);

}  // namespace rlab::metrics
