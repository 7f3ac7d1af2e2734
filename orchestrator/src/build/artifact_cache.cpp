#include "build/artifact_cache.hpp"

#include "util/hash.hpp"
#include "util/paths.hpp"


#include <algorithm>
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
  return h.hex();
}

fs::path entry_dir(const fs::path& cache_root, const std::string& kind, const std::string& key) {
  return cache_root / (kind == "kernel" ? "kernels" : "images") / key;
}

bool entry_complete(const fs::path& dir) { return fs::is_regular_file(dir / "manifest.json"); }

std::vector<CacheEntry> list_cache(const fs::path& cache_root) {
  std::vector<CacheEntry> out;
  for (auto [kind, sub] : {std::pair{"kernel", "kernels"}, std::pair{"image", "images"}}) {
    std::vector<CacheEntry> part;
    if (!fs::is_directory(cache_root / sub)) continue;
    for (const auto& e : fs::directory_iterator(cache_root / sub)) {
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
