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
#include <ctime>
#include <nlohmann/json.hpp>

#include "build/artifact_cache.hpp"
#include "util/paths.hpp"

namespace rlab::build {
namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kGiB = std::uintmax_t{1} << 30;

std::mutex g_matrix_mutex;
std::optional<double> g_matrix_gib;
std::string g_matrix_path;

// The folders under the cache root whose subfolders are items (artifact_cache.hpp's layout).
// Every kind whose folder holds items (the rest of the cache's top level is "other").
constexpr CacheKind kItemKinds[] = {CacheKind::source,     CacheKind::build_tree, CacheKind::kernel,   CacheKind::image,
                                    CacheKind::image_with, CacheKind::unixbench,  CacheKind::host_disk};

bool is_item_folder(std::string_view name) {
  return std::any_of(std::begin(kItemKinds), std::end(kItemKinds), [&](CacheKind k) { return folder(k) == name; });
}

bool is_partial(const std::string& name) { return name.find(".partial-") != std::string::npos; }

// Disk bytes (allocated blocks: sparse disk images count what they use) of the regular files
// under `dir`, a file with n hard links counting 1/n (a build tree and the source it links
// share the source's files), so the items add up to what the disk holds.
std::uintmax_t walk_bytes(const fs::path& dir) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    total += static_cast<std::uintmax_t>(st.st_blocks) * 512 / std::max<nlink_t>(st.st_nlink, 1);
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
fs::path use_stamp(CacheKind kind, const fs::path& dir) { return is_entry(kind) ? dir / "manifest.json" : dir; }

// Whether an item of `kind` may be read without its lock held, and so needs kInUseGrace: all
// but build trees (only a build, holding the tree's lock, opens one) and sources (read under
// their own lock, SourceTree::in_use).
bool read_unlocked(CacheKind kind) { return is_entry(kind); }

int kind_rank(CacheKind kind) { return kind == CacheKind::build_tree ? 0 : kind == CacheKind::source ? 1 : 2; }

// The lock a process holds while it writes the item (artifact_cache.cpp, kernel_source.cpp).
std::string lock_name(const CacheItem& i) {
  if (i.kind == CacheKind::build_tree) return "kernel-" + i.key;
  return std::string(to_string(i.kind)) + "-" + i.key;
}

}  // namespace

void touch_used(const fs::path& dir) {
  std::error_code ec;
  const fs::path manifest = dir / "manifest.json";
  fs::last_write_time(fs::is_regular_file(manifest, ec) ? manifest : dir, fs::file_time_type::clock::now(), ec);
}

std::uintmax_t in_grace_bytes(const CacheUsage& u, fs::file_time_type now) {
  std::uintmax_t b = 0;
  for (const auto& i : u.items)
    if (read_unlocked(i.kind) && i.last_used > now - kInUseGrace) b += i.bytes;
  return b;
}

std::uintmax_t CacheUsage::total() const {
  std::uintmax_t t = ccache + other;
  for (const auto& i : items) t += i.bytes;
  return t;
}

namespace {

// Sizes measured earlier, in <cache>/sizes.json: {"<dir under the cache>": {"stamp": <last-use
// stamp, ns>, "bytes": N, "at": <unix s>}}. Walking source trees takes seconds per tree, and
// an item only changes when it is used (which moves its stamp).
class SizeMemo {
 public:
  explicit SizeMemo(fs::path root) : root_(std::move(root)) {
    try {
      memo_ = nlohmann::json::parse(util::read_file(root_ / "sizes.json"));
    } catch (const std::exception&) {
      memo_ = nlohmann::json::object();
    }
    if (!memo_.is_object()) memo_ = nlohmann::json::object();
  }
  /// The bytes of `dir`: remembered for `max_age`, and while `stamp` is unchanged (the
  /// epoch for items that never change in place).
  std::uintmax_t bytes(const fs::path& dir, fs::file_time_type stamp, std::chrono::seconds max_age) {
    const std::string rel = dir.lexically_relative(root_).string();
    const auto stamp_ns = static_cast<long long>(stamp.time_since_epoch().count());
    const auto now = static_cast<long long>(std::time(nullptr));
    if (auto it = memo_.find(rel); it != memo_.end() && it->is_object() && it->value("stamp", -1LL) == stamp_ns &&
                                   now - it->value("at", 0LL) < max_age.count())
      return it->value("bytes", std::uintmax_t{0});
    const std::uintmax_t b = walk_bytes(dir);
    memo_[rel] = {{"stamp", stamp_ns}, {"bytes", b}, {"at", now}};
    seen_.insert(rel);
    changed_ = true;
    return b;
  }
  void keep(const fs::path& dir) { seen_.insert(dir.lexically_relative(root_).string()); }
  /// Writes the memo back without the items that are gone. A full disk only costs a walk next time.
  ~SizeMemo() {
    for (auto it = memo_.begin(); it != memo_.end();)
      if (!seen_.count(it.key())) it = memo_.erase(it), changed_ = true;
      else ++it;
    if (!changed_) return;
    try {
      util::write_file_atomic(root_ / "sizes.json", memo_.dump() + "\n");
    } catch (const std::exception&) {
    }
  }

 private:
  fs::path root_;
  nlohmann::json memo_;
  std::set<std::string> seen_;
  bool changed_ = false;
};

constexpr std::chrono::seconds kItemSizeMaxAge{24 * 3600};
constexpr std::chrono::seconds kOtherSizeMaxAge{600};

}  // namespace

CacheUsage cache_usage(const fs::path& cache_root) {
  CacheUsage u;
  SizeMemo memo(cache_root);
  const auto add = [&](CacheKind kind, const fs::path& dir) {
    const auto stamp = mtime_or_epoch(use_stamp(kind, dir));
    memo.keep(dir);
    // Sources and entries never change once made; a build tree is rebuilt in place.
    const auto changes_with = kind == CacheKind::build_tree ? stamp : fs::file_time_type{};
    u.items.push_back({kind, dir.filename().string(), dir,
                       memo.bytes(dir, changes_with, kItemSizeMaxAge), stamp});
  };
  for (const CacheKind kind : {CacheKind::source, CacheKind::build_tree})
    for (const auto& d : folders(cache_root / folder(kind))) add(kind, d);
  for (const auto& e : list_cache(cache_root)) add(e.kind, e.dir);
  // The rest, top level: ccache, apt lists, locks, partial folders, files.
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cache_root, ec)) {
    const std::string name = e.path().filename().string();
    const bool is_dir = e.is_directory(ec);
    if (is_item_folder(name)) {
      for (const auto& p : fs::directory_iterator(e.path(), ec))  // partial folders
        if (is_partial(p.path().filename().string())) u.other += walk_bytes(p.path());
      continue;
    }
    if (!is_dir) {
      struct stat st {};
      if (::lstat(e.path().c_str(), &st) == 0 && S_ISREG(st.st_mode)) u.other += static_cast<std::uintmax_t>(st.st_blocks) * 512;
      continue;
    }
    memo.keep(e.path());
    (name == "ccache" ? u.ccache : u.other) += memo.bytes(e.path(), fs::file_time_type{}, kOtherSizeMaxAge);
  }
  return u;
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
    if (gib < kMinBudgetGiB)
      throw std::runtime_error(fmt::format("RLAB_CACHE_MAX_GIB={} is below what one kernel build holds at once: "
                                           "at least {:.0f} GiB", v, kMinBudgetGiB));
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
    if (read_unlocked(i.kind) && i.last_used > protect_after) continue;
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
  for (const CacheKind k : kItemKinds) sweep_dead_partials(cache_root / folder(k));
  CacheUsage usage = cache_usage(cache_root);
  r.before = usage.total();
  // ccache, apt lists, locks and the rest stay; the items share what is left of the budget.
  const std::uintmax_t other = usage.ccache + usage.other;
  const std::uintmax_t target = budget > other ? budget - other : 0;
  const auto protect_after = fs::file_time_type::clock::now() - kInUseGrace;
  std::uintmax_t freed = 0;
  for (auto& i : eviction_plan(usage.items, target, protect_after)) {
    auto lock = util::FileLock::try_lock(cache_root / "locks" / (lock_name(i) + ".lock"));
    if (!lock) {
      r.busy.push_back(std::move(i));
      continue;
    }
    if (read_unlocked(i.kind) && mtime_or_epoch(use_stamp(i.kind, i.dir)) > protect_after)
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
  r.after = r.before - std::min(freed, r.before);
  for (const auto& i : usage.items) r.kept_recent += read_unlocked(i.kind) && i.last_used > protect_after;
  // Removing a tree changes the link counts of what it shared: measure afresh next time.
  if (!dry_run && !r.freed.empty()) fs::remove(cache_root / "sizes.json");
  return r;
}

FreedReport keep_within_budget(const fs::path& cache_root, const Progress& progress) {
  FreedReport r;
  std::string from;
  try {
    const auto budget = cache_budget(cache_root);
    from = budget.from;
    r = enforce_budget(cache_root, budget.bytes);
  } catch (const std::exception& e) {
    // The budget is housekeeping: a night goes on without it (and says why).
    report(progress, "cache", std::string("cannot keep the cache within its budget: ") + e.what());
    return r;
  }
  if (r.freed.empty() && r.after <= r.budget) return r;
  const auto gib = [](std::uintmax_t b) { return static_cast<double>(b) / kGiB; };
  report(progress, "cache",
         fmt::format("freed {} items ({:.1f} GiB) for the budget of {:.1f} GiB ({}): {:.1f} GiB held{}", r.freed.size(),
                     gib(r.before - std::min(r.before, r.after)), gib(r.budget), from, gib(r.after),
                     r.after > r.budget ? "; still over: the rest is being built or was used in the last 15 min" : ""));
  return r;
}

FreedReport apply_matrix_budget(std::optional<double> gib, const std::string& matrix_path, const Progress& progress) {
  set_matrix_cache_gib(gib, matrix_path);
  return keep_within_budget(util::cache_dir(), progress);
}

}  // namespace rlab::build
