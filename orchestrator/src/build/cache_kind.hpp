#pragma once
// What a thing in the artifact cache is. A kind decides the folder it lives in, the name of
// the lock its writer holds and how the budget frees it; its word is shown by `rlab cache`,
// labels the cache metrics and names the lock file.
#include <array>
#include <string>
#include <string_view>

namespace rlab::build {

/// The kinds of the cache: five entry kinds (a folder with manifest.json, artifact_cache.hpp),
/// then the kernel build trees and unpacked sources (cache_budget.hpp frees those too).
enum class CacheKind {
  kernel,      ///< a built or prebuilt kernel: kernels/<key>
  image,       ///< a guest initramfs: images/<key>
  image_with,  ///< an initramfs with UnixBench's programs: images-with/<key>
  unixbench,   ///< UnixBench built for aarch64: unixbench/<key>
  host_disk,   ///< the emulated KVM host's root image: host-disks/<key>
  build_tree,  ///< a kernel's out-of-tree build (objects, .config): kbuild/<key>
  source,      ///< an unpacked kernel source tree: sources/<name>
};

/// The entry kinds, in the order list_cache() reports them.
inline constexpr std::array<CacheKind, 5> kEntryKinds{CacheKind::kernel, CacheKind::image, CacheKind::image_with,
                                                     CacheKind::unixbench, CacheKind::host_disk};

/// "kernel", "image", "image-with", "unixbench", "host-disk", "build-tree" or "source".
std::string_view to_string(CacheKind kind);

/// The folder of `kind` under the cache root: "kernels", "images", "images-with", "unixbench",
/// "host-disks", "kbuild" or "sources".
std::string_view folder(CacheKind kind);

/// Whether items of `kind` are entries (complete once their manifest.json is written).
inline bool is_entry(CacheKind kind) { return kind != CacheKind::build_tree && kind != CacheKind::source; }

}  // namespace rlab::build
