#pragma once
// Process-level metrics: facts a running rlab process observes that the store does not keep
// — build cache hits and misses, kernel build time, bisect state. (Guest boot time is in the
// store, boots.boot_s, and exported from there: families.hpp.) The process that observes them
// updates one LiveMetrics; `rlab serve` exposes its registry, and push_run() pushes it with
// a run's results. Every method is thread-safe.
//
//   rlab_build_cache_hits_total{artifact}                  counter    artifact: kernel, initramfs
//   rlab_build_cache_misses_total{artifact}                counter
//   rlab_kernel_build_seconds{kernel}                      histogram  wall time of a kernel build
//   rlab_bisect_active{<cell labels>}                      gauge      1 while a bisect runs
//   rlab_bisect_steps_total{<cell labels>,verdict}         counter    verdict: good, bad, skip
//   rlab_bisect_revisions_left{<cell labels>}              gauge      revisions git bisect has left
#include "metrics/labels.hpp"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>

namespace rlab::metrics {

/// A bisect step's answer.
enum class BisectVerdict { kGood, kBad, kSkip };

/// The process-level metrics registry (see the list above).
class LiveMetrics {
 public:
  LiveMetrics();

  /// The registry holding these families; keep the LiveMetrics (or this pointer) alive as
  /// long as an Exposer or Gateway refers to it (they keep only weak pointers).
  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

  /// The build cache answered a lookup for `artifact` ("kernel", "initramfs").
  void build_cache_lookup(const std::string& artifact, bool hit);
  /// Building kernel `kernel` (matrix name) took `seconds` of wall time.
  void observe_kernel_build(const std::string& kernel, double seconds);

  /// A bisect of `cell` started with `revisions_left` revisions to test.
  void bisect_started(const CellLabels& cell, unsigned revisions_left);
  /// One bisect step answered `verdict`; git bisect has `revisions_left` left.
  void bisect_step(const CellLabels& cell, BisectVerdict verdict, unsigned revisions_left);
  /// The bisect of `cell` ended (found, aborted or interrupted).
  void bisect_finished(const CellLabels& cell);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>* cache_hits_;
  prometheus::Family<prometheus::Counter>* cache_misses_;
  prometheus::Family<prometheus::Histogram>* kernel_build_;
  prometheus::Family<prometheus::Gauge>* bisect_active_;
  prometheus::Family<prometheus::Counter>* bisect_steps_;
  prometheus::Family<prometheus::Gauge>* bisect_left_;
};

/// Name of a verdict as a label value: "good", "bad", "skip".
const char* to_string(BisectVerdict v);

}  // namespace rlab::metrics
