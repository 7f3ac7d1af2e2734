#pragma once
// What kernel to build: the resolved form of one `kernels:` entry of matrix.yaml
// (after `extends` has been applied). Produced by matrix/, consumed by build/ and image/.
#include <filesystem>
#include <string>
#include <vector>

namespace rlab::build {

/// Where a kernel's source comes from (or, for a prebuilt Image, the kernel itself).
struct KernelSource {
  enum class Kind {
    kDebianPackage,  ///< Debian `linux-source-<version>` from the host's apt mirror
    kGitTree,        ///< a local git tree (e.g. a linux-stable clone) at a ref
    kPrebuiltImage,  ///< an arm64 Image built elsewhere: copied into the cache, never built
  };
  Kind kind = Kind::kDebianPackage;
  /// kDebianPackage: upstream series, e.g. "6.12" -> package linux-source-6.12.
  std::string debian_version;
  /// kDebianPackage: Debian suite to take it from, e.g. "trixie" (6.12) or "sid" (7.x).
  std::string debian_suite;
  /// kGitTree: path to the repository (work tree or bare).
  std::filesystem::path git_tree;
  /// kGitTree: any ref git rev-parse understands (tag, branch, SHA).
  std::string git_ref;
  /// kPrebuiltImage: the uncompressed arm64 `Image` (absolute path).
  std::filesystem::path image;
  /// kPrebuiltImage: the .config it was built from (absolute path), "" when not given: then
  /// the entry's page size is trusted and what the guest needs is not checked before boot.
  std::filesystem::path image_config;
};

/// A fully resolved kernel: everything that determines the built Image.
struct KernelSpec {
  std::string name;          ///< the matrix's name, e.g. "6.12+inline-inactivation"
  KernelSource source;
  unsigned page_size_kib = 64;  ///< 4, 16 or 64 -> images/kernel/<N>k.config
  /// Extra config fragments (absolute paths), merged after base.config and the page-size
  /// fragment, in order.
  std::vector<std::filesystem::path> fragments;
  /// Patches (absolute paths), applied in order with `patch -p1` semantics.
  std::vector<std::filesystem::path> patches;
  /// The patch set's short name for labels (e.g. "inline-inactivation"), "" for none.
  std::string patchset;
  /// A full .config (absolute path) to start from instead of allnoconfig + base.config (the
  /// matrix entry's `config:`); "" for rlab's own configuration. Debian and git sources only.
  std::filesystem::path base_config;
};

}  // namespace rlab::build
