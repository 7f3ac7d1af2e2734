#pragma once
// Building (or taking from the cache) the arm64 kernel Image for a KernelSpec.
#include "build/kernel_spec.hpp"
#include "build/progress.hpp"
#include "util/disk_full_error.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rlab::build {

/// A built kernel in the cache (<cache>/kernels/<key>/).
struct KernelArtifact {
  std::filesystem::path image;   ///< arch/arm64/boot/Image
  std::filesystem::path config;  ///< the final .config
  std::string key;               ///< cache key (see kernel_key())
  std::string release;           ///< `make kernelrelease`
  std::string source_commit;     ///< Debian package version or git SHA
  std::string config_sha256;     ///< sha256 hex of `config`
  unsigned page_size_kib = 64;
  bool cache_hit = false;        ///< true when nothing was built
  /// SHA-256 of vmlinux's .text section (aarch64 objcopy): equal for two builds whose code is
  /// the same, whatever their version strings and timestamps; "" for a cache entry older than
  /// the field.
  std::string text_sha256;
  /// The tree's files this build compiled or included, relative to the tree's top ("fs/xfs/
  /// xfs_inode.c", "include/linux/fs.h"), sorted, from kbuild's .cmd dependency files; empty
  /// for a cache entry older than the field.
  std::filesystem::path sources;  ///< the file listing them, one per line ("" when none)
};

/// The tree-relative paths of every source and header named in the kbuild `.cmd` files
/// under `obj` (lines "source_<o> := ../src/<path>" and the "  ../src/<path> \" lines of
/// "deps_<o>"), sorted and unique. `src_prefix` is how they are written ("../src/").
std::vector<std::string> compiled_sources(const std::filesystem::path& obj, const std::string& src_prefix = "../src/");

/// "<gcc --version line>\n<ld --version line>" of the aarch64-linux-gnu cross toolchain.
/// Throws std::runtime_error naming the package to install when it is missing.
std::string cross_toolchain_id();

/// Whether `message` (a failed build's, with its log tail) says the disk was full: ENOSPC's
/// text, "No space left on device", as make, cc1, ld, tar, cp and git print it.
bool says_disk_full(std::string_view message);

/// Returns the Image for `spec`, building it on a cache miss: fetch the source, copy and
/// patch it when there are patches, configure (allnoconfig + fragments, checked), then
/// `make Image` out of tree with ccache (<cache>/ccache), -j<host CPUs> or $RLAB_BUILD_JOBS.
/// Progress goes to `progress` ("fetch", "patch", "config", "build", "cache"). The tree
/// <cache>/kbuild/<key>/src (hard links + patches) and objects <cache>/kbuild/<key>/obj are
/// kept for incremental rebuilds (`make -C src O=obj ... Image`). Throws ConfigError,
/// PatchError, DiskFullError (util/disk_full_error.hpp) when a step failed for want of disk space, or std::runtime_error
/// with the last lines of the build log.
KernelArtifact ensure_kernel(const KernelSpec& spec, const Progress& progress = {});

/// What ensure_kernel() would do for a spec, found without fetching, building or writing.
struct KernelPlan {
  std::string source;   ///< "linux-source-6.12 (trixie)" or "git <tree> <ref>"
  std::string commit;   ///< the revision it would build; "" when not known without a fetch
  std::string key;      ///< its cache key (kernel_key()); "" when it cannot be computed
  bool cached = false;  ///< a complete cache entry has `key`: nothing would be built
  std::string note;     ///< why `key` is unknown, or a caveat about `commit`; "" otherwise
};

/// The plan for `spec`: a git tree's ref is resolved now (`git rev-parse`); a Debian
/// package's revision is the candidate in the package lists the last fetch left in the cache
/// (a run refreshes them first, so it may find a newer one: said in `note`), and unknown when
/// no fetch has happened yet. Reads fragments, patches and the cross toolchain's version
/// like ensure_kernel(); never fetches, builds or writes an entry.
KernelPlan plan_kernel(const KernelSpec& spec);

/// The images/ directory of the project (util::source_dir()/images).
std::filesystem::path images_dir();

}  // namespace rlab::build
