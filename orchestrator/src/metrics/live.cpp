// Process-level metrics (see live.hpp).
#include "metrics/live.hpp"

namespace rlab::metrics {

const char* to_string(BisectVerdict v) {
  switch (v) {
    case BisectVerdict::kGood: return "good";
    case BisectVerdict::kBad: return "bad";
    case BisectVerdict::kSkip: return "skip";
  }
  return "skip";
}

LiveMetrics::LiveMetrics() : registry_(std::make_shared<prometheus::Registry>()) {
  auto& r = *registry_;
  cache_hits_ = &prometheus::BuildCounter().Name("rlab_build_cache_hits_total")
      .Help("Build cache lookups answered from the cache, by artifact").Register(r);
  cache_misses_ = &prometheus::BuildCounter().Name("rlab_build_cache_misses_total")
      .Help("Build cache lookups that had to build, by artifact").Register(r);
  kernel_build_ = &prometheus::BuildHistogram().Name("rlab_kernel_build_seconds")
      .Help("Wall time of one kernel build, seconds").Register(r);
  bisect_active_ = &prometheus::BuildGauge().Name("rlab_bisect_active")
      .Help("1 while a bisect of the cell runs, 0 after it ended").Register(r);
  bisect_steps_ = &prometheus::BuildCounter().Name("rlab_bisect_steps_total")
      .Help("Bisect steps of the cell by verdict: good, bad, skip").Register(r);
  bisect_left_ = &prometheus::BuildGauge().Name("rlab_bisect_revisions_left")
      .Help("Revisions git bisect still has to test for the cell").Register(r);
}

void LiveMetrics::build_cache_lookup(const std::string& artifact, bool hit) {
  (hit ? cache_hits_ : cache_misses_)->Add({{"artifact", artifact}}).Increment();
}

void LiveMetrics::observe_kernel_build(const std::string& kernel, double seconds) {
  static const prometheus::Histogram::BucketBoundaries kBuckets{30, 60, 120, 300, 600, 900,
                                                                1200, 1800, 2700, 3600, 7200};
  kernel_build_->Add({{"kernel", kernel}}, kBuckets).Observe(seconds);
}

void LiveMetrics::bisect_started(const CellLabels& c, unsigned left) {
  auto l = c.to_labels();
  bisect_active_->Add(l).Set(1);
  bisect_left_->Add(l).Set(left);
  for (auto v : {BisectVerdict::kGood, BisectVerdict::kBad, BisectVerdict::kSkip}) {
    auto lv = l;
    lv.emplace("verdict", to_string(v));
    bisect_steps_->Add(lv);  // 0 until the first step of that verdict
  }
}

void LiveMetrics::bisect_step(const CellLabels& c, BisectVerdict v, unsigned left) {
  auto l = c.to_labels();
  bisect_left_->Add(l).Set(left);
  l.emplace("verdict", to_string(v));
  bisect_steps_->Add(l).Increment();
}

void LiveMetrics::bisect_finished(const CellLabels& c) { bisect_active_->Add(c.to_labels()).Set(0); }

}  // namespace rlab::metrics
