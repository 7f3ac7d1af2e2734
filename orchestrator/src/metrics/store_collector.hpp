#pragma once
// A prometheus-cpp Collectable that reads the store on every scrape, so `rlab serve` always
// shows the store's latest results and the progress of runs other processes are writing.
#include "metrics/store_reader.hpp"

#include <prometheus/collectable.h>

#include <memory>

namespace rlab::metrics {

/// Collect() = read_snapshot() + add_snapshot() + add_noise_families() into a fresh registry. A failing read (e.g.
/// the store is locked past the busy timeout) is logged and exposes only
/// rlab_store_up 0, so the scrape itself still succeeds and alerting can see it.
class StoreCollector : public prometheus::Collectable {
 public:
  /// Opens `db` read-only (throws store::StoreError as StoreReader does).
  explicit StoreCollector(const std::filesystem::path& db);
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  StoreReader reader_;
};

}  // namespace rlab::metrics
