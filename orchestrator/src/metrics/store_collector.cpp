// Per-scrape export of the store (see store_collector.hpp).
#include "metrics/store_collector.hpp"

#include "metrics/cache_families.hpp"
#include "metrics/families.hpp"
#include "metrics/noise_families.hpp"

#include <prometheus/gauge.h>
#include <prometheus/registry.h>
#include <spdlog/spdlog.h>

#include "util/paths.hpp"

namespace rlab::metrics {

StoreCollector::StoreCollector(const std::filesystem::path& db) : reader_(db) {}

std::vector<prometheus::MetricFamily> StoreCollector::Collect() const {
  prometheus::Registry reg;
  auto& up = prometheus::BuildGauge().Name("rlab_store_up")
      .Help("1 when the last scrape could read the results store, else 0").Register(reg);
  try {
    add_snapshot(reg, reader_.read());
    add_noise_families(reg, reader_.store());
    up.Add({}).Set(1);
  } catch (const std::exception& e) {
    spdlog::error("metrics: {}", e.what());
    up.Add({}).Set(0);
  }
  add_cache_families(reg, util::cache_dir());
  return reg.Collect();
}

}  // namespace rlab::metrics
