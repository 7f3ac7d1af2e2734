#include "build/cache_budget.hpp"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <mutex>
#include <set>
#include <stdexcept>

#include "build/artifact_cache.hpp"
#include "util/paths.hpp"

namespace rlab::build {
namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kGiB = std::uintmax_t{1} << 30;

std::mutex g_matrix_mutex;
std::optional<double> g_matrix_gib;
std::string g_matrix_path;

bool is_partial(const std::string& name) { return name.find(".partial-") != std::string::npos; }

// Disk bytes (allocated blocks: sparse disk images count what they use) of the regular files
// under `dir` whose inode `seen` does not hold yet (then added).
std::uintmax_t unseen_bytes(const fs::path& dir, std::set<std::pair<dev_t, ino_t>>& seen) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (seen.insert({st.st_dev, st.st_ino}).second) total += static_cast<std::uintmax_t>(st.st_blocks) * 512;
  }
  return total;
}

fs::file_time_type mtime_or_epoch(const fs::path& p) {
  std::error_code ec;
  auto t = fs::last_write_time(p, ec);
  return ec ? fs::file_time_type{} : t;
}

// The folders directly under `sub`, minus partial ones, by name.
std::vector<fs::path> folders(const fs::path& sub) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sub, ec))
    if (e.is_directory(ec) && !is_partial(e.path().filename().string())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The file whose mtime is the item's last use (touch_used sets it).
fs::path use_stamp(const std::string& kind, const fs::path& dir) {
  return kind == "build-tree" || kind == "source" ? dir : dir / "manifest.json";
}

int kind_rank(const std::string& kind) {
  if (kind == "build-tree") return 0;
  if (kind == "source") return 1;
  return 2;
}

// The lock a process holds while it writes the item (artifact_cache.cpp, kernel_source.cpp).
std::string lock_name(const CacheItem& i) {
  if (i.kind == "build-tree") return "kernel-" + i.key;
  if (i.kind == "source") return "source-fetch";
  return i.kind + "-" + i.key;
}

}  // namespace

void touch_used(const fs::path& dir) {
  std::error_code ec;
  const fs::path manifest = dir / "manifest.json";
  fs::last_write_time(fs::is_regular_file(manifest, ec) ? manifest : dir, fs::file_time_type::clock::now(), ec);
}

std::uintmax_t tree_bytes(const fs::path& dir) {
  std::set<std::pair<dev_t, ino_t>> seen;
  return unseen_bytes(dir, seen);
}

std::vector<CacheItem> cache_items(const fs::path& cache_root) {
  std::vector<CacheItem> out;
  std::set<std::pair<dev_t, ino_t>> seen;
  for (auto [kind, sub] : {std::pair{"source", "sources"}, std::pair{"build-tree", "kbuild"}})
    for (const auto& d : folders(cache_root / sub))
      out.push_back({kind, d.filename().string(), d, unseen_bytes(d, seen), mtime_or_epoch(use_stamp(kind, d))});
  for (const auto& e : list_cache(cache_root))
    out.push_back({e.kind, e.key, e.dir, unseen_bytes(e.dir, seen), mtime_or_epoch(use_stamp(e.kind, e.dir))});
  return out;
}

void set_matrix_cache_gib(std::optional<double> gib, const std::string& matrix_path) {
  std::lock_guard lock(g_matrix_mutex);
  g_matrix_gib = gib;
  g_matrix_path = matrix_path;
}

CacheBudget cache_budget(const fs::path& cache_root) {
  if (const char* v = std::getenv("RLAB_CACHE_MAX_GIB"); v && *v) {
    char* end = nullptr;
    const double gib = std::strtod(v, &end);
    if (*end != '\0' || !(gib > 0) || gib > 1e6)
      throw std::runtime_error(fmt::format("RLAB_CACHE_MAX_GIB='{}' is not a number of GiB in (0, 1e6]", v));
    return {static_cast<std::uintmax_t>(gib * kGiB), "RLAB_CACHE_MAX_GIB"};
  }
  {
    std::lock_guard lock(g_matrix_mutex);
    if (g_matrix_gib)
      return {static_cast<std::uintmax_t>(*g_matrix_gib * kGiB), "cache.max_gib of " + g_matrix_path};
  }
  // The filesystem the cache is on (its nearest existing ancestor before the first build).
  fs::path probe = cache_root;
  std::error_code ec;
  while (!fs::exists(probe, ec) && probe.has_parent_path() && probe != probe.parent_path()) probe = probe.parent_path();
  struct statvfs sv {};
  if (::statvfs(probe.c_str(), &sv) != 0) return {std::uintmax_t{100} * kGiB, "100 GiB (the filesystem was not readable)"};
  const std::uintmax_t size = static_cast<std::uintmax_t>(sv.f_blocks) * sv.f_frsize;
  return {size / 2, fmt::format("half of its filesystem's {:.0f} GiB", static_cast<double>(size) / kGiB)};
}

std::uintmax_t ccache_max_bytes(std::uintmax_t budget_bytes) {
  return std::clamp(budget_bytes / 5, kGiB, 20 * kGiB);
}

std::vector<CacheItem> eviction_plan(std::vector<CacheItem> items, std::uintmax_t target,
                                     fs::file_time_type protect_after) {
  std::uintmax_t total = 0;
  for (const auto& i : items) total += i.bytes;
  std::stable_sort(items.begin(), items.end(), [](const CacheItem& a, const CacheItem& b) {
    const int ra = kind_rank(a.kind), rb = kind_rank(b.kind);
    return ra != rb ? ra < rb : a.last_used < b.last_used;
  });
  std::vector<CacheItem> out;
  for (auto& i : items) {
    if (total <= target) break;
    if (i.last_used > protect_after) continue;
    total -= i.bytes;
    out.push_back(std::move(i));
  }
  return out;
}

FreedReport enforce_budget(const fs::path& cache_root, std::uintmax_t budget, bool dry_run) {
  FreedReport r;
  r.budget = budget;
  r.dry_run = dry_run;
  if (!fs::is_directory(cache_root)) return r;
  for (const char* sub : {"sources", "kbuild", "kernels", "images", "images-with", "unixbench", "host-disks"})
    sweep_dead_partials(cache_root / sub);
  auto items = cache_items(cache_root);
  std::uintmax_t in_items = 0;
  for (const auto& i : items) in_items += i.bytes;
  r.before = tree_bytes(cache_root);
  // ccache, apt lists, locks and the rest stay; the items share what is left of the budget.
  const std::uintmax_t other = r.before > in_items ? r.before - in_items : 0;
  const std::uintmax_t target = budget > other ? budget - other : 0;
  const auto protect_after = fs::file_time_type::clock::now() - kInUseGrace;
  std::uintmax_t freed = 0;
  for (auto& i : eviction_plan(std::move(items), target, protect_after)) {
    auto lock = util::FileLock::try_lock(cache_root / "locks" / (lock_name(i) + ".lock"));
    if (!lock) {
      r.busy.push_back(std::move(i));
      continue;
    }
    if (mtime_or_epoch(use_stamp(i.kind, i.dir)) > protect_after)
      continue;  // used since it was listed
    if (!dry_run) {
      // Renamed first, so a reader never finds half an entry under its name.
      fs::path doomed = i.dir;
      doomed += ".partial-" + std::to_string(::getpid());
      fs::rename(i.dir, doomed);
      fs::remove_all(doomed);
    }
    freed += i.bytes;
    r.freed.push_back(std::move(i));
  }
  r.after = dry_run ? r.before - std::min(freed, r.before) : tree_bytes(cache_root);
  return r;
}

FreedReport keep_within_budget(const fs::path& cache_root, const Progress& progress) {
  const auto budget = cache_budget(cache_root);
  auto r = enforce_budget(cache_root, budget.bytes);
  if (r.freed.empty() && r.after <= r.budget) return r;
  const auto gib = [](std::uintmax_t b) { return static_cast<double>(b) / kGiB; };
  report(progress, "cache",
         fmt::format("freed {} items ({:.1f} GiB) for the budget of {:.1f} GiB ({}): {:.1f} GiB held{}", r.freed.size(),
                     gib(r.before - std::min(r.before, r.after)), gib(r.budget), budget.from, gib(r.after),
                     r.after > r.budget ? "; still over: the rest is being built or was used in the last 15 min" : ""));
  return r;
}

FreedReport apply_matrix_budget(std::optional<double> gib, const std::string& matrix_path, const Progress& progress) {
  set_matrix_cache_gib(gib, matrix_path);
  return keep_within_budget(util::cache_dir(), progress);
}

}  // namespace rlab::build
