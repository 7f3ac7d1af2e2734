#include "metrics/cache_families.hpp"

#include "build/cache_budget.hpp"

#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>

#include <map>
#include <mutex>
#include <optional>

namespace rlab::metrics {
namespace {

struct Scan {
  std::filesystem::path root;
  std::chrono::steady_clock::time_point at;
  std::map<std::string, std::pair<double, double>> kinds;  // kind -> (bytes, items)
  double budget = 0;
};

// One scan of `root`: bytes and items per kind, ccache and the rest.
Scan scan(const std::filesystem::path& root) {
  Scan s{root, std::chrono::steady_clock::now(), {}, 0};
  const auto usage = build::cache_usage(root);
  for (const auto& i : usage.items) {
    auto& [bytes, items] = s.kinds[std::string(build::to_string(i.kind))];
    bytes += static_cast<double>(i.bytes);
    items += 1;
  }
  s.kinds["ccache"].first = static_cast<double>(usage.ccache);
  s.kinds["other"].first = static_cast<double>(usage.other);
  s.budget = static_cast<double>(build::cache_budget(root).bytes);
  return s;
}

}  // namespace

void add_cache_families(prometheus::Registry& reg, const std::filesystem::path& cache_root,
                        std::chrono::seconds max_age) {
  static std::mutex mutex;
  static std::optional<Scan> last;
  auto& bytes = prometheus::BuildGauge().Name("rlab_cache_bytes")
      .Help("Disk bytes the artifact cache holds, by kind").Register(reg);
  auto& items = prometheus::BuildGauge().Name("rlab_cache_items")
      .Help("Items (build trees, sources, entries) the artifact cache holds, by kind").Register(reg);
  auto& budget = prometheus::BuildGauge().Name("rlab_cache_budget_bytes")
      .Help("The artifact cache's disk budget in bytes").Register(reg);
  std::lock_guard lock(mutex);
  try {
    if (!last || last->root != cache_root || std::chrono::steady_clock::now() - last->at > max_age)
      last = scan(cache_root);
  } catch (const std::exception& e) {
    spdlog::error("metrics: cache {}: {}", cache_root.string(), e.what());
    return;
  }
  for (const auto& [kind, v] : last->kinds) {
    bytes.Add({{"what", kind}}).Set(v.first);
    if (kind != "ccache" && kind != "other") items.Add({{"what", kind}}).Set(v.second);
  }
  budget.Add({}).Set(last->budget);
}

}  // namespace rlab::metrics
