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

/// A built (or prebuilt) kernel in the cache (<cache>/kernels/<key>/).
struct KernelArtifact {
  std::filesystem::path image;   ///< arch/arm64/boot/Image
  std::filesystem::path config;  ///< the final .config; "" for a prebuilt Image given without one
  std::string key;               ///< cache key (see kernel_key(), prebuilt_kernel_key())
  std::string release;           ///< `make kernelrelease`; a prebuilt Image's banner ("" when none)
  std::string source_commit;     ///< Debian package version, git SHA, or "sha256:<hex>" of a prebuilt Image
  std::string config_sha256;     ///< sha256 hex of `config` ("" without one)
  /// Where the kernel came from (kernel_origin()), e.g. "debian linux-source-6.12 6.12.117-1
  /// (trixie)": this use's source (its paths as the matrix gives them now), even on a cache hit.
  std::string origin;
  /// config-changes.txt of the entry: what rlab changed in a given full .config (one
  /// format_change() line per option); "" when the kernel was not configured from one.
  std::filesystem::path config_changes;
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

/// Where `spec`'s kernel comes from, one line for people and the store:
/// "debian linux-source-6.12 <commit> (trixie)", "git <tree> <commit>" or "prebuilt Image
/// sha256:<hex> (<path>)" with ", .config sha256:<hex>" when it has one; a full `config:` adds
/// ", from .config sha256:<hex> (<path>)". `commit` is the resolved revision ("?" when "").
/// Reads (hashes) the prebuilt Image and the .config files; throws std::runtime_error when one
/// cannot be read.
std::string kernel_origin(const KernelSpec& spec, const std::string& commit);

/// Returns the Image for `spec`. A prebuilt Image (KernelSource::kPrebuiltImage) is checked
/// (check_prebuilt()) and copied with its .config into the cache, keyed by their SHA-256s;
/// nothing is built. Otherwise the key comes from the revision alone (a git ref's commit, or
/// the Debian suite's candidate version after refreshing the private apt lists), and the kernel
/// is built on a cache miss only: fetch the source, copy and
/// patch it when there are patches, configure (allnoconfig + fragments, or the entry's full
/// .config + required.config + page size + fragments, checked; with a full .config every
/// option rlab changed is reported ("config" phase) and kept in config-changes.txt), then
/// `make Image` out of tree with ccache (<cache>/ccache), -j<host CPUs> or $RLAB_BUILD_JOBS.
/// Progress goes to `progress` ("fetch", "patch", "config", "build", "cache"). The tree
/// <cache>/kbuild/<key>/src (hard links + patches) and objects <cache>/kbuild/<key>/obj are
/// kept for incremental rebuilds (`make -C src O=obj ... Image`). Throws ConfigError,
/// PatchError, DiskFullError (util/disk_full_error.hpp) when a step failed for want of disk space, or std::runtime_error
/// with the last lines of the build log.
KernelArtifact ensure_kernel(const KernelSpec& spec, const Progress& progress = {});

/// What ensure_kernel() would do for a spec, found without fetching, building or writing.
struct KernelPlan {
  /// "linux-source-6.12 (trixie)", "git <tree> <ref>" or "prebuilt Image <path>", with
  /// " + .config <path>" for a full `config:`
  std::string source;
  std::string commit;   ///< the revision it would build; "" when not known without a fetch
  std::string key;      ///< its cache key (kernel_key()); "" when it cannot be computed
  bool cached = false;  ///< a complete cache entry has `key`: nothing would be built
  std::string note;     ///< why `key` is unknown, or a caveat about `commit`; "" otherwise
  std::string origin;   ///< kernel_origin() when `commit` is known, else ""
  bool prebuilt = false;  ///< a prebuilt Image: nothing to build, only a copy
};

/// The plan for `spec`: a git tree's ref is resolved now (`git rev-parse`); a Debian
/// package's revision is the candidate in the package lists the last fetch left in the cache
/// (a run refreshes them first, so it may find a newer one: said in `note`), and unknown when
/// no fetch has happened yet; a prebuilt Image's is its SHA-256 (and check_prebuilt()'s
/// complaint, if any, is the `note`, with no key). Reads fragments, patches and the cross toolchain's version
/// like ensure_kernel(); never fetches, builds or writes an entry.
KernelPlan plan_kernel(const KernelSpec& spec);

/// The images/ directory of the project (util::source_dir()/images).
std::filesystem::path images_dir();

}  // namespace rlab::build
