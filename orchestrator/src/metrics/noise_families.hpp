#pragma once
// The rlab_cell_noise_* families: the newest `rlab noise` report of each cell
// (docs/noise.md, docs/monitoring.md). Labels are the cell's bounded matrix names.
#include "store/store.hpp"

#include <prometheus/registry.h>

namespace rlab::metrics {

/// Adds, for the newest noise report of every cell in `st` (store::latest_noise_figures):
///   rlab_cell_noise_rel_stddev{kernel,fs,mkfs,vcpus,workload,between="boots"|"passes"}
///   rlab_cell_noise_min_detectable_effect{...,boots_per_side="4"|"8"|"16"}  (alpha 0.01, power 0.9)
///   rlab_cell_noise_drift_per_hour{...}      relative score change per hour
///   rlab_cell_noise_load_correlation{...}    Pearson r of score and host busy share
///   rlab_cell_noise_vcpu_share{...}          mean vCPU share of the counted passes
///   rlab_cell_noise_vcpu_share_correlation{...}  Pearson r of pass lpm and vCPU share
///   rlab_cell_noise_host_steal{...}          mean host steal of the counted passes
///   rlab_cell_noise_host_steal_correlation{...}  Pearson r of pass lpm and host steal
///   rlab_cell_noise_report_timestamp_seconds{...}
/// all gauges, fractions where relative. Figures a report could not compute are left out. A
/// store without noise reports adds empty families. Throws store::StoreError when the store
/// cannot be read.
void add_noise_families(prometheus::Registry& reg, const store::Store& st);

}  // namespace rlab::metrics
