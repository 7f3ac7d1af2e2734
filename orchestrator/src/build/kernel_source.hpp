#pragma once
// Fetching a kernel source tree: Debian linux-source-<ver> through the host's apt mirror, or
// a local git tree at a ref. Trees are unpacked once under <cache>/sources/ and shared
// read-only by every build (builds are out of tree; patched builds use a copy).
#include "build/artifact_cache.hpp"
#include "build/kernel_spec.hpp"
#include "build/progress.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace rlab::build {

/// A pristine source tree ready for `make O=...`.
struct SourceTree {
  std::filesystem::path dir;  ///< top of the tree (holds Makefile)
  /// What the source is, without the version: "debian:linux-source-6.12@trixie" or
  /// "git:<absolute repository path>" ("image:<absolute path>" for a prebuilt Image, which has
  /// no tree).
  std::string identity;
  /// Which revision: the Debian package version ("6.12.57-1") or the full git commit SHA.
  std::string commit;
  /// The tree's lock ("source-<dir name>"), held from the fetch until the caller resets it:
  /// the cache's budget never frees a source whose lock is held. Reset it once the tree is
  /// read (linked into a build tree).
  std::shared_ptr<CacheLock> in_use;
};

/// Resolves `source` to a revision and returns its unpacked tree, unpacking it under
/// `cache_root`/sources when not there yet. Debian: `debian_version` when given (from
/// debian_candidate_version()), else the suite's candidate version after refreshing the
/// private apt lists (see PrivateApt). Git: `git rev-parse <ref>^{commit}`.
/// Throws std::runtime_error naming the source on: empty version/suite/tree/ref, unknown
/// package or ref, download or unpack failures; std::invalid_argument for a prebuilt Image.
SourceTree fetch_kernel_source(const KernelSource& source,
                               const std::filesystem::path& cache_root,
                               const Progress& progress = {}, const std::string& debian_version = "");

/// The version of `linux-source-<debian_version>` that the Debian source `source` stands for
/// now (e.g. "6.12.57-1"): refreshes the private apt lists under `cache_root`/apt and takes the
/// suite's candidate, downloading and unpacking nothing — enough for a kernel's cache key, so a
/// cache hit never fetches the tree. Throws std::runtime_error as fetch_kernel_source().
std::string debian_candidate_version(const KernelSource& source, const std::filesystem::path& cache_root,
                                     const Progress& progress = {});

/// The full SHA of a git source's ref (`git rev-parse <ref>^{commit}`), without exporting
/// anything. Throws std::runtime_error naming the tree on an empty or missing tree or ref, or a
/// ref that is not a commit.
std::string git_commit(const KernelSource& source);

/// The identity string of `source` (see SourceTree::identity), without touching the network.
std::string source_identity(const KernelSource& source);

}  // namespace rlab::build
