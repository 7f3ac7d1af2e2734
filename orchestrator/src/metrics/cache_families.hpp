#pragma once
// The rlab_cache_* families: what the artifact cache holds on disk per kind, and its budget
// (build/cache_budget.hpp, docs/monitoring.md).
#include <prometheus/registry.h>

#include <chrono>
#include <filesystem>

namespace rlab::metrics {

/// Adds, for the cache at `cache_root`:
///   rlab_cache_bytes{what}        gauge  disk bytes per kind: build-tree, source, kernel, image,
///                                        image-with, unixbench, host-disk, ccache, other
///   rlab_cache_items{what}        gauge  items per kind (the freeable kinds)
///   rlab_cache_budget_bytes       gauge  the budget in force (cache.max_gib / RLAB_CACHE_MAX_GIB / half the disk)
/// A scan (build::cache_usage, which keeps sizes between scans) is reused for `max_age`, so a
/// scrape every 15 s does not list the cache every 15 s. Never throws: a cache
/// that cannot be read adds empty families.
void add_cache_families(prometheus::Registry& reg, const std::filesystem::path& cache_root,
                        std::chrono::seconds max_age = std::chrono::seconds(300));

}  // namespace rlab::metrics
