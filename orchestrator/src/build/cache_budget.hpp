#pragma once
// Keeping the artifact cache (artifact_cache.hpp) under a disk budget, least recently used
// first (docs/operations.md "Disk").
//
// What may be freed, in this order: build trees (kbuild/<key>: the exported source and the
// objects of one kernel, ~1.5 GB each, only needed to rebuild that kernel; kbuild/tree-<key>:
// a git repository's work tree, only needed to rebuild its next commit quickly), then unpacked
// kernel sources (sources/<tree>: fetched again on demand), then cache entries (kernels,
// initramfs, UnixBench's programs, KVM host disks: rebuilt from their recipe on the next
// miss). Within a kind the least recently used goes first. Never freed: an item whose lock a
// live process holds (a build in progress), an item other than a build tree used in the last
// kInUseGrace (between being looked up and being opened; a file already opened stays readable
// after removal, so a running QEMU or an upload keeps working; build trees and sources are only
// read under their locks, so a bisection's trees and exports do not pile up within the grace),
// and ccache (bounded by ccache itself at
// ccache_max_bytes()).
#include "build/cache_kind.hpp"
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "build/progress.hpp"

namespace rlab::build {

/// Items used more recently than this are never freed (a lookup's file is opened within it).
inline constexpr std::chrono::minutes kInUseGrace{15};

/// One thing the cache holds that is freed as a whole.
struct CacheItem {
  /// A build tree (kbuild/<key>), a source (sources/<tree>), or an entry of artifact_cache.hpp.
  CacheKind kind = CacheKind::kernel;
  std::string key;                 ///< its directory's name
  std::filesystem::path dir;
  /// Disk bytes (allocated blocks) of its regular files, a file with n hard links counting
  /// 1/n (a build tree and the source it links share the source's files).
  std::uintmax_t bytes = 0;
  /// Last use: the mtime of the entry's manifest.json (entries) or of the directory itself
  /// (build trees, sources), which touch_used() sets on every use.
  std::filesystem::file_time_type last_used{};
};

/// Marks `dir` (an entry, build tree or source) as used now. Never throws.
void touch_used(const std::filesystem::path& dir);

/// What the cache holds: its freeable items and the rest.
struct CacheUsage {
  std::vector<CacheItem> items;  ///< sources, build trees, then entries by kind (partial folders are not items)
  std::uintmax_t ccache = 0;     ///< disk bytes under ccache/
  std::uintmax_t other = 0;      ///< disk bytes of everything else: apt lists, locks, partial folders
  std::uintmax_t total() const;  ///< all of it
};

/// Bytes of the items in `u` the budget may not free now for their in-use grace: used within
/// kInUseGrace before `now`, build trees excepted (enforce_budget's rule).
std::uintmax_t in_grace_bytes(const CacheUsage& u,
                              std::filesystem::file_time_type now = std::filesystem::file_time_type::clock::now());

/// Measures the cache at `cache_root`. A source tree takes seconds to walk, so sizes are kept
/// in `<cache_root>/sizes.json` and reused for a day (sources and entries never change once
/// made; a build tree's is reused only while its last-use stamp has not moved), ccache's and
/// the rest's for 10 minutes; an eviction forgets them all (link counts changed). A file with
/// n hard links counts 1/n in each, so the items add up to what the disk holds; freeing a
/// build tree frees less than its share while its source stays (the next check measures
/// again). Never throws for unreadable parts (they count 0).
CacheUsage cache_usage(const std::filesystem::path& cache_root);

/// The cache's disk budget in bytes and where it came from.
/// The smallest budget rlab accepts, GiB: what one kernel build holds at once — the exported
/// git tree and its objects (~1.7 GiB for the 6.12 tree), ccache's floor (1 GiB, see
/// ccache_max_bytes) and the Image and initramfs entries (~0.05 GiB), rounded up.
inline constexpr double kMinBudgetGiB = 3.0;

struct CacheBudget {
  std::uintmax_t bytes = 0;
  std::string from;  ///< "RLAB_CACHE_MAX_GIB", "cache.max_gib of <matrix>", or "half of <fs size>"
};

/// Sets the budget a matrix asks for (`cache.max_gib`, GiB > 0), used by cache_budget() from
/// then on in this process; nullopt forgets it. Called by the commands that load a matrix.
void set_matrix_cache_gib(std::optional<double> gib, const std::string& matrix_path = {});

/// The budget in force: $RLAB_CACHE_MAX_GIB (a positive number of GiB), else the matrix's
/// `cache.max_gib`, else half the size of the filesystem holding `cache_root`. Throws
/// std::runtime_error naming the variable when RLAB_CACHE_MAX_GIB is not a number of GiB in
/// [kMinBudgetGiB, 1e6].
CacheBudget cache_budget(const std::filesystem::path& cache_root);

/// ccache's own size limit (CCACHE_MAXSIZE) under a budget: a fifth of it, within [1, 20] GiB.
std::uintmax_t ccache_max_bytes(std::uintmax_t budget_bytes);

/// The items to free so that `items` total at most `target` bytes: build trees, then
/// sources, then entries, each kind least recently used first, skipping items used after
/// `protect_after`. Pure; may fall short of the target when too much is protected.
std::vector<CacheItem> eviction_plan(std::vector<CacheItem> items, std::uintmax_t target,
                                     std::filesystem::file_time_type protect_after);

/// What enforce_budget() did (or, dry run, would do).
struct FreedReport {
  std::uintmax_t budget = 0;          ///< bytes allowed for the whole cache
  std::uintmax_t before = 0;          ///< bytes the cache held (items + everything else)
  std::uintmax_t after = 0;           ///< bytes it holds now (dry run: would hold)
  std::vector<CacheItem> freed;       ///< removed (dry run: would be removed)
  std::vector<CacheItem> busy;        ///< planned but locked by a live process, kept
  std::size_t kept_recent = 0;        ///< items kept because they were used within kInUseGrace
  bool dry_run = false;
};

/// Frees items of `cache_root` (eviction_plan, protecting kInUseGrace) until the whole cache
/// (items, ccache and the rest) is within `budget` bytes. An item whose lock another process
/// holds is kept and listed as busy. Dry run: nothing is removed. Throws
/// std::filesystem::filesystem_error when a removal fails.
FreedReport enforce_budget(const std::filesystem::path& cache_root, std::uintmax_t budget,
                           bool dry_run = false);

/// enforce_budget(cache_root, cache_budget(cache_root)), reporting under phase "cache" what
/// was freed and whether the cache is still over its budget (nothing when nothing happened).
/// Called before and after every kernel build and at the start of every run, night and
/// bisection step. Never throws: a budget that cannot be read or kept (a bad
/// $RLAB_CACHE_MAX_GIB, an item that cannot be removed) is reported the same way and the job
/// goes on.
FreedReport keep_within_budget(const std::filesystem::path& cache_root, const Progress& progress);

/// set_matrix_cache_gib(gib, matrix_path), then keep_within_budget() of the cache in use
/// (util::cache_dir()).
FreedReport apply_matrix_budget(std::optional<double> gib, const std::string& matrix_path,
                                const Progress& progress);

}  // namespace rlab::build
