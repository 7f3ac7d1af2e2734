#pragma once
// The content-addressed artifact cache under util::cache_dir():
//   kernels/<key>/   Image, config, build.log, manifest.json   (kernel builds)
//   images/<key>/    initramfs.cpio, manifest.json              (guest initramfs)
//   images-with/<key>/ initramfs with UnixBench's programs        (runner: unixbench)
//   unixbench/<key>/ unixbench.cpio (UnixBench's looper, scripts)
//   host-disks/<key>/ root.img, ssh keys, manifest.json          (emulated KVM host, kvm_host/)
//   sources/ apt/ kbuild/<key>/{src,obj} ccache/ locks/       (inputs and build state)
//   kbuild/tree-<key>/{src,obj}                              (a git tree's work tree, work_tree.hpp)
// A key is the SHA-256 of everything that determines the artifact, so a repeat request with
// the same inputs is a hit and any change to an input is a miss.
#include "build/cache_kind.hpp"
#include "util/file_lock.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rlab::build {

/// Bumped when the recipe (commands, layout) changes in a way that changes artifacts.
inline constexpr int kKernelRecipeVersion = 1;
inline constexpr int kImageRecipeVersion = 2;  // 2: the initramfs is no longer zstd-compressed

/// Everything that determines a kernel Image.
struct KernelKeyInputs {
  std::string source_identity;  ///< SourceTree::identity
  std::string source_commit;    ///< SourceTree::commit
  unsigned page_size_kib = 64;
  /// Config fragments in merge order: (file name, contents).
  std::vector<std::pair<std::string, std::string>> fragments;
  /// Patches in order: (file name, contents).
  std::vector<std::pair<std::string, std::string>> patches;
  std::string toolchain;  ///< compiler and linker version lines
  /// The full .config the configuration starts from (KernelSpec::base_config), its contents;
  /// "" for allnoconfig + base.config (then it adds nothing to the key).
  std::string base_config;
};

/// 64 hex digits. Names of fragments/patches do not count, only their order and contents.
std::string kernel_key(const KernelKeyInputs& in);

/// The key of a prebuilt Image (nothing built): 64 hex digits from the Image's and its
/// .config's SHA-256 (hex; "" without a .config) and the page size in KiB. Never equal to a
/// kernel_key().
std::string prebuilt_kernel_key(const std::string& image_sha256, const std::string& config_sha256,
                                unsigned page_size_kib);

/// An entry in the cache.
struct CacheEntry {
  CacheKind kind = CacheKind::kernel;  ///< one of kEntryKinds
  std::string key;                  ///< directory name
  std::filesystem::path dir;
  std::uintmax_t bytes = 0;         ///< total size of the entry's files
  nlohmann::json manifest;          ///< manifest.json (null when missing or unreadable)
};

/// The entry directory for (`kind`, `key`) under `cache_root`: `<folder(kind)>/<key>`, e.g.
/// "kernels/<key>".
std::filesystem::path entry_dir(const std::filesystem::path& cache_root, CacheKind kind, const std::string& key);

/// Whether a complete entry exists (its manifest.json is written last).
bool entry_complete(const std::filesystem::path& dir);

/// Every complete entry under `cache_root`, kind by kind in kEntryKinds' order, by key.
std::vector<CacheEntry> list_cache(const std::filesystem::path& cache_root);

/// An exclusive advisory lock (flock) on `<cache_root>/locks/<name>.lock`, held for the
/// object's life. Serialises concurrent builds of one key across rlab processes.
class CacheLock {
 public:
  CacheLock(const std::filesystem::path& cache_root, const std::string& name)
      : lock_(cache_root / "locks" / (name + ".lock")) {}

 private:
  util::FileLock lock_;
};

/// Removes the `<name>.partial-<pid>` folders directly under `parent` whose process is gone
/// (killed mid-build, mid-unpack, mid-eviction); with a non-empty `name_prefix`
/// ("<name>.partial-") only that name's. Never throws.
void sweep_dead_partials(const std::filesystem::path& parent, const std::string& name_prefix = {});

/// A fresh, empty `<final>.partial-<this pid>` folder to fill before renaming it to `final`.
/// `<final>.partial-<pid>` folders of processes that are gone (killed mid-build, mid-unpack)
/// are removed first, so an interrupted night leaves no partial entry behind for long.
/// Throws std::filesystem::filesystem_error.
std::filesystem::path fresh_staging(const std::filesystem::path& final_dir);

/// A fresh_staging() folder for the object's life: removed with everything in it when the
/// object goes (a fetch, unpack or build that failed, e.g. on a full disk, gives its space back
/// at once), a no-op once it was renamed into place. Never throws from the destructor.
class Staging {
 public:
  explicit Staging(const std::filesystem::path& final_dir) : dir_(fresh_staging(final_dir)) {}
  ~Staging() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

/// Under the key's CacheLock, `make(staging)` fills a fresh `<dir>.partial-<pid>` folder
/// and returns the manifest, which is written last (so an entry with a manifest is whole);
/// the folder is then renamed into place. When `make` throws, the partial folder is removed
/// and the exception goes on. Returns the entry's directory and whether it was already there.
std::pair<std::filesystem::path, bool> ensure_entry(
    const std::filesystem::path& cache_root, CacheKind kind, const std::string& key,
    const std::function<nlohmann::json(const std::filesystem::path& staging)>& make);

}  // namespace rlab::build
