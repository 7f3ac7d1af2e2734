// Snapshot -> prometheus-cpp families (see families.hpp for the list).
#include "metrics/families.hpp"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>

namespace rlab::metrics {
namespace {

prometheus::Labels with(prometheus::Labels l, const std::string& k, const std::string& v) {
  l.emplace(k, v);
  return l;
}

using prometheus::BuildCounter;
using prometheus::BuildGauge;
using prometheus::BuildHistogram;

/// rlab_cell_*: the latest result of each cell.
void add_latest(prometheus::Registry& reg, const Snapshot& s) {
  auto& score = BuildGauge().Name("rlab_cell_score_lpm")
      .Help("Score of the cell's latest result in loops per minute (UnixBench aggregation: "
            "geometric mean of the passes after dropping the worst third)")
      .Register(reg);
  auto& pass = BuildGauge().Name("rlab_cell_pass_lpm")
      .Help("Loops per minute of each pass of the cell's latest result").Register(reg);
  auto& loops = BuildGauge().Name("rlab_cell_loops")
      .Help("Loops completed by the cell's latest result, all passes").Register(reg);
  auto& latency = BuildHistogram().Name("rlab_cell_loop_duration_seconds")
      .Help("Duration of one loop of the load in the cell's latest result, all passes")
      .Register(reg);
  auto& index = BuildGauge().Name("rlab_cell_unixbench_index")
      .Help("UnixBench's index of the cell's latest score in this guest: lpm / baseline * 10 "
            "(shell1 42.4 lpm, shell8 6.0 lpm); an index of the guest, not of the host machine")
      .Register(reg);
  auto& ags = BuildGauge().Name("rlab_cell_xfs_inode_ags")
      .Help("XFS: allocation groups the load's inodes were seen in, mean over the passes of the "
            "cell's latest result (1 with UnixBench's shared test directory)")
      .Register(reg);
  auto& stamp = BuildGauge().Name("rlab_cell_result_timestamp_seconds")
      .Help("Unix time the cell's latest result was recorded").Register(reg);
  auto& header = BuildGauge().Name("rlab_cell_xfs_header_buffer_wait_share")
      .Help("Share of the XFS buffer-lock wait time spent waiting for the AGI or AGF header buffer "
            "(label buffer), in the cell's latest result (docs/attribution.md)")
      .Register(reg);
  auto& lock_wait = BuildGauge().Name("rlab_cell_lock_wait_seconds_per_1k_loops")
      .Help("Contended lock wait time per 1,000 loops in the cell's latest result").Register(reg);
  auto& offcpu = BuildGauge().Name("rlab_cell_offcpu_seconds_per_1k_loops")
      .Help("Time the load's tasks spent off CPU in uninterruptible sleep (D) per 1,000 loops in the "
            "cell's latest result").Register(reg);
  auto& ag_wait = BuildGauge().Name("rlab_cell_ag_header_wait_seconds_per_1k_loops")
      .Help("XFS: time waited for an allocation group's header buffer (label header: AGI, AGF, AGFL; label ag: "
            "the AG, 0 to 15, or 16+ for all higher AGs summed) per 1,000 loops in the cell's latest result")
      .Register(reg);
  auto& ag_held = BuildGauge().Name("rlab_cell_ag_header_held_seconds_per_1k_loops")
      .Help("XFS: time an allocation group's header buffer (labels header, ag as for the wait) was held locked "
            "per 1,000 loops in the cell's latest result")
      .Register(reg);
  for (const auto& r : s.results) {
    auto l = r.labels.to_labels();
    score.Add(l).Set(r.score_lpm);
    for (const auto& [at, v] : r.ag_header_wait_s_per_kloop)
      ag_wait.Add(with(with(l, "header", at.first), "ag", at.second)).Set(v);
    for (const auto& [at, v] : r.ag_header_held_s_per_kloop)
      ag_held.Add(with(with(l, "header", at.first), "ag", at.second)).Set(v);
    if (r.unixbench_index) index.Add(l).Set(*r.unixbench_index);
    if (r.inode_ags) ags.Add(l).Set(*r.inode_ags);
    loops.Add(l).Set(static_cast<double>(r.loops));
    stamp.Add(l).Set(r.recorded_at_s);
    if (r.agi_wait_share) header.Add(with(l, "buffer", "agi")).Set(*r.agi_wait_share);
    if (r.agf_wait_share) header.Add(with(l, "buffer", "agf")).Set(*r.agf_wait_share);
    if (r.lock_wait_s_per_kloop) lock_wait.Add(l).Set(*r.lock_wait_s_per_kloop);
    if (r.offcpu_d_s_per_kloop) offcpu.Add(l).Set(*r.offcpu_d_s_per_kloop);
    for (const auto& [idx, lpm] : r.pass_lpm) pass.Add(with(l, "pass", std::to_string(idx))).Set(lpm);
    if (r.latency) {
      auto& h = latency.Add(l, prometheus::Histogram::BucketBoundaries(r.latency->bounds_s));
      h.ObserveMultiple(r.latency->counts, r.latency->sum_s);
    }
  }
}

/// rlab_cell_*_total, rlab_xfs_*_total: sums over all the stored results of each cell.
void add_totals(prometheus::Registry& reg, const Snapshot& s) {
  auto& load = BuildCounter().Name("rlab_cell_load_seconds_total")
      .Help("Measured load time of the cell over all its stored results, seconds").Register(reg);
  auto& loops_total = BuildCounter().Name("rlab_cell_loops_total")
      .Help("Loops of the cell over all its stored results").Register(reg);
  auto& gc = BuildCounter().Name("rlab_xfs_inodegc_events_total")
      .Help("Hits of the xfs:xfs_inodegc_<event> tracepoints during the load, over all the "
            "cell's stored results").Register(reg);
  auto& inact = BuildCounter().Name("rlab_xfs_inode_inactivation_events_total")
      .Help("Hits of xfs:xfs_inode_set_need_inactive and xfs:xfs_inode_inactivating during the "
            "load, over all the cell's stored results").Register(reg);
  auto& stats = BuildCounter().Name("rlab_xfs_stats_total")
      .Help("Deltas of selected XFS stats (<group>_<field> of /sys/fs/xfs/<dev>/stats/stats) "
            "during the load, over all the cell's stored results").Register(reg);
  for (const auto& [key, t] : s.totals) {
    auto l = t.labels.to_labels();
    load.Add(l).Increment(t.load_seconds);
    loops_total.Add(l).Increment(static_cast<double>(t.loops));
    for (const auto& [ev, v] : t.inodegc_events) gc.Add(with(l, "event", ev)).Increment(v);
    for (const auto& [ev, v] : t.inactivation_events) inact.Add(with(l, "event", ev)).Increment(v);
    for (const auto& [st, v] : t.xfs_stats) stats.Add(with(l, "stat", st)).Increment(v);
  }
}

/// rlab_cells_total and rlab_guest_boot_seconds: every boot of each cell.
void add_boots(prometheus::Registry& reg, const Snapshot& s) {
  auto& cells = BuildCounter().Name("rlab_cells_total")
      .Help("Boots of the cell (one per repeat) by outcome: done or failed").Register(reg);
  for (const auto& [key, n] : s.outcomes)
    cells.Add(with(std::get<1>(key).to_labels(), "status", std::get<2>(key)))
        .Increment(static_cast<double>(n));

  // TCG guests take several seconds to tens of seconds, KVM guests one or two.
  static const prometheus::Histogram::BucketBoundaries kBootBuckets{
      1, 2, 3, 5, 7.5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300};
  auto& boot = BuildHistogram().Name("rlab_guest_boot_seconds")
      .Help("Seconds from starting a guest's domain to its agent's hello, over every boot of "
            "the cell that got a hello").Register(reg);
  for (const auto& [key, secs] : s.boot_seconds) {
    auto& h = boot.Add(key.second.to_labels(), kBootBuckets);
    for (double v : secs) h.Observe(v);
  }
}

/// rlab_kernel_info, rlab_runs_active, rlab_run_boots: kernels and runs in progress.
void add_kernels_and_runs(prometheus::Registry& reg, const Snapshot& s) {
  auto& info = BuildGauge().Name("rlab_kernel_info")
      .Help("Identity of the kernel behind a kernel name's newest result (always 1)")
      .Register(reg);
  for (const auto& k : s.kernels)
    info.Add({{"kernel", k.kernel}, {"commit", k.commit}, {"release", k.release},
              {"patchset", k.patchset.empty() ? "none" : k.patchset}}).Set(1);

  auto& active = BuildGauge().Name("rlab_runs_active")
      .Help("Runs in progress (store status running)").Register(reg);
  auto& boots = BuildGauge().Name("rlab_run_boots")
      .Help("Boots of the runs in progress (or of the pushed run) by state: planned (all), "
            "pending, running, done, failed").Register(reg);
  for (const auto& p : s.runs) {
    prometheus::Labels l{{"kind", p.kind}, {"host", p.host}};
    active.Add(l).Set(p.active_runs);
    for (const auto& [state, n] : p.boots) boots.Add(with(l, "state", state)).Set(static_cast<double>(n));
  }
}

}  // namespace

void add_snapshot(prometheus::Registry& reg, const Snapshot& s) {
  add_latest(reg, s);
  add_totals(reg, s);
  add_boots(reg, s);
  add_kernels_and_runs(reg, s);
}

}  // namespace rlab::metrics
