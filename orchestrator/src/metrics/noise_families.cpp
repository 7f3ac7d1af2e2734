#include "metrics/noise_families.hpp"

#include "store/metrics_rows.hpp"

#include <prometheus/gauge.h>

#include <optional>
#include <string>

namespace rlab::metrics {

void add_noise_families(prometheus::Registry& reg, const store::Store& st) {
  auto& sd = prometheus::BuildGauge().Name("rlab_cell_noise_rel_stddev")
      .Help("Relative stddev of the cell's score between boots or between passes of a boot "
            "(newest rlab noise report; fraction)").Register(reg);
  auto& mde = prometheus::BuildGauge().Name("rlab_cell_noise_min_detectable_effect")
      .Help("Smallest relative change a two-sided comparison with this many boots a side "
            "detects at alpha 0.01 with power 0.9 (fraction)").Register(reg);
  auto& drift = prometheus::BuildGauge().Name("rlab_cell_noise_drift_per_hour")
      .Help("Least-squares slope of the cell's score over the noise run (fraction per hour)").Register(reg);
  auto& corr = prometheus::BuildGauge().Name("rlab_cell_noise_load_correlation")
      .Help("Pearson r of the cell's score and the host's busy CPU share over each boot").Register(reg);
  auto& vshare = prometheus::BuildGauge().Name("rlab_cell_noise_vcpu_share")
      .Help("Mean share of its vCPUs' time the host ran the guest over the counted passes "
            "(fraction; 1 - the guest's steal)").Register(reg);
  auto& vcorr = prometheus::BuildGauge().Name("rlab_cell_noise_vcpu_share_correlation")
      .Help("Pearson r of the counted passes' lpm and their vCPU share").Register(reg);
  auto& steal = prometheus::BuildGauge().Name("rlab_cell_noise_host_steal")
      .Help("Mean stolen share of the host's own CPU time over the counted passes: what the "
            "host's hypervisor gave its other guests (fraction)").Register(reg);
  auto& scorr = prometheus::BuildGauge().Name("rlab_cell_noise_host_steal_correlation")
      .Help("Pearson r of the counted passes' lpm and the host's steal over them").Register(reg);
  auto& ts = prometheus::BuildGauge().Name("rlab_cell_noise_report_timestamp_seconds")
      .Help("When the newest noise report of the cell was made (Unix time)").Register(reg);

  auto set = [](prometheus::Family<prometheus::Gauge>& fam, const prometheus::Labels& labels,
                const std::optional<double>& v) {
    if (v) fam.Add(labels).Set(*v);
  };
  for (const auto& n : store::latest_noise_figures(st)) {
    const prometheus::Labels cell{{"kernel", n.kernel}, {"fs", n.fs}, {"mkfs", n.mkfs_label},
                                  {"vcpus", std::to_string(n.vcpus)}, {"workload", n.workload}};
    auto with = [&](const char* k, const char* v) {
      auto l = cell;
      l[k] = v;
      return l;
    };
    set(sd, with("between", "boots"), n.boot_rel_stddev);
    set(sd, with("between", "passes"), n.pass_rel_stddev);
    set(mde, with("boots_per_side", "4"), n.mde_4);
    set(mde, with("boots_per_side", "8"), n.mde_8);
    set(mde, with("boots_per_side", "16"), n.mde_16);
    set(drift, cell, n.drift_per_hour);
    set(corr, cell, n.load_correlation);
    set(ts, cell, n.created_unix_s);
    set(vshare, cell, n.vcpu_share_mean);
    set(vcorr, cell, n.vcpu_share_correlation);
    set(steal, cell, n.host_steal_mean);
    set(scorr, cell, n.host_steal_correlation);
  }
}

}  // namespace rlab::metrics
