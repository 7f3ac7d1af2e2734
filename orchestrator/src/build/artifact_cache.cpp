#include "build/artifact_cache.hpp"
#include "build/cache_budget.hpp"

#include <signal.h>
#include <cerrno>

#include "util/hash.hpp"
#include "util/paths.hpp"


#include <unistd.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace rlab::build {
namespace fs = std::filesystem;

std::string kernel_key(const KernelKeyInputs& in) {
  util::Sha256 h;
  h.update("rlab-kernel").update(std::to_string(kKernelRecipeVersion));
  h.update(in.source_identity).update(in.source_commit).update(std::to_string(in.page_size_kib));
  h.update(std::to_string(in.fragments.size()));
  for (const auto& f : in.fragments) h.update(f.second);
  h.update(std::to_string(in.patches.size()));
  for (const auto& p : in.patches) h.update(p.second);
  h.update(in.toolchain);
  if (!in.base_config.empty()) h.update("base-config").update(in.base_config);
  return h.hex();
}

std::string prebuilt_kernel_key(const std::string& image_sha256, const std::string& config_sha256,
                                unsigned page_size_kib) {
  util::Sha256 h;
  h.update("rlab-prebuilt-kernel").update("1");
  h.update(image_sha256).update(config_sha256).update(std::to_string(page_size_kib));
  return h.hex();
}

std::string_view to_string(CacheKind kind) {
  switch (kind) {
    case CacheKind::kernel: return "kernel";
    case CacheKind::image: return "image";
    case CacheKind::image_with: return "image-with";
    case CacheKind::unixbench: return "unixbench";
    case CacheKind::host_disk: return "host-disk";
    case CacheKind::build_tree: return "build-tree";
    case CacheKind::source: return "source";
  }
  return "?";
}

std::string_view folder(CacheKind kind) {
  switch (kind) {
    case CacheKind::kernel: return "kernels";
    case CacheKind::image: return "images";
    case CacheKind::image_with: return "images-with";
    case CacheKind::unixbench: return "unixbench";
    case CacheKind::host_disk: return "host-disks";
    case CacheKind::build_tree: return "kbuild";
    case CacheKind::source: return "sources";
  }
  return "?";
}

fs::path entry_dir(const fs::path& cache_root, CacheKind kind, const std::string& key) {
  return cache_root / folder(kind) / key;
}

void sweep_dead_partials(const fs::path& parent, const std::string& name_prefix) {
  constexpr std::string_view kPartial = ".partial-";
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) return;
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    const std::string name = e.path().filename().string();
    const auto at = name.rfind(kPartial);
    if (at == std::string::npos || (!name_prefix.empty() && at + kPartial.size() != name_prefix.size()) ||
        name.rfind(name_prefix, 0) != 0)
      continue;
    const std::string pid = name.substr(at + kPartial.size());
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    // Gone: no such process (ESRCH). One that runs (or is not ours to signal) keeps its folder.
    if (::kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH) fs::remove_all(e.path(), ec);
  }
}

fs::path fresh_staging(const fs::path& final_dir) {
  sweep_dead_partials(final_dir.parent_path(), final_dir.filename().string() + ".partial-");
  fs::path staging = final_dir;
  staging += ".partial-" + std::to_string(::getpid());
  fs::remove_all(staging);
  fs::create_directories(staging);
  return staging;
}

std::pair<fs::path, bool> ensure_entry(const fs::path& cache_root, CacheKind kind,
                                       const std::string& key,
                                       const std::function<nlohmann::json(const fs::path&)>& make) {
  const fs::path dir = entry_dir(cache_root, kind, key);
  // Under the lock even for a hit: eviction (cache_budget.hpp) takes it too, so a hit is
  // marked used before eviction can look at it, and is never half renamed away. A cache this
  // user may read but not lock (shared, read-only) still serves its hits.
  std::optional<CacheLock> lock;
  try {
    lock.emplace(cache_root, std::string(to_string(kind)) + "-" + key);
  } catch (const std::runtime_error&) {
    if (!entry_complete(dir)) throw;
    return {dir, true};
  }
  if (entry_complete(dir)) {
    touch_used(dir);
    return {dir, true};
  }
  const fs::path staging = fresh_staging(dir);
  try {
    nlohmann::json manifest = make(staging);
    util::write_file_atomic(staging / "manifest.json", manifest.dump(2) + "\n");
  } catch (...) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    throw;
  }
  fs::remove_all(dir);
  fs::rename(staging, dir);
  return {dir, false};
}

bool entry_complete(const fs::path& dir) { return fs::is_regular_file(dir / "manifest.json"); }

std::vector<CacheEntry> list_cache(const fs::path& cache_root) {
  std::vector<CacheEntry> out;
  for (const CacheKind kind : kEntryKinds) {
    std::vector<CacheEntry> part;
    if (!fs::is_directory(cache_root / folder(kind))) continue;
    for (const auto& e : fs::directory_iterator(cache_root / folder(kind))) {
      if (!e.is_directory() || !entry_complete(e.path())) continue;
      CacheEntry c{kind, e.path().filename().string(), e.path(), 0, nullptr};
      for (const auto& f : fs::recursive_directory_iterator(e.path()))
        if (f.is_regular_file()) c.bytes += f.file_size();
      try {
        c.manifest = nlohmann::json::parse(util::read_file(e.path() / "manifest.json"));
      } catch (const std::exception&) {
        c.manifest = nullptr;
      }
      part.push_back(std::move(c));
    }
    std::sort(part.begin(), part.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

}  // namespace rlab::build
