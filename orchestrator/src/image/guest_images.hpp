#pragma once
// The guest images one cell boots: a kernel Image and an initramfs, built (or taken from the
// content-addressed cache under util::cache_dir()) from a resolved KernelSpec.
#include "build/kernel_spec.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace rlab::image {

/// What ensure_guest_images() hands back. All paths point into the cache and stay valid
/// until the cache entry is removed.
struct GuestImages {
  std::filesystem::path kernel_image;  ///< arm64 `Image` (uncompressed, direct kernel boot)
  std::filesystem::path initramfs;     ///< newc cpio (uncompressed), possibly several concatenated
  std::string kernel_key;  ///< cache key of the kernel: sha256 hex of source, commit, config, patches, toolchain
  std::string image_key;   ///< cache key of the initramfs: sha256 hex of packages, /init, agent
  std::string kernel_release;  ///< `make kernelrelease`, e.g. "6.12.57"
  std::string source_commit;   ///< git SHA (git tree) or Debian package version (linux-source-X)
  std::string config_sha256;   ///< sha256 hex of the final .config after olddefconfig
  unsigned page_size_kib = 64; ///< 4, 16 or 64: the kernel's CONFIG_ARM64_<N>K_PAGES
  /// Where the kernel came from (build::kernel_origin()): Debian package, git tree and commit,
  /// prebuilt Image's SHA-256, the full .config it was configured from.
  std::string kernel_origin;
};

/// Progress callback: `phase` is one of "fetch", "config", "patch", "build", "initramfs",
/// "cache"; `detail` is a human-readable line (e.g. a make output line or "cache hit <key>").
using Progress = std::function<void(std::string_view phase, std::string_view detail)>;

/// Returns the kernel Image and initramfs for `spec`, building whatever is not cached yet.
/// A prebuilt Image is checked and copied (build::ensure_kernel()). Otherwise the kernel is fetched (Debian linux-source package or git tree), configured (allnoconfig +
/// images/kernel fragments, checked after olddefconfig), patched, and built out of tree with
/// ccache; the initramfs packs Debian arm64 userland, images/rootfs/init and `agent_binary`
/// (installed as /usr/bin/rlab-agent).
/// Throws std::runtime_error with a message naming the failing step: an unknown source, an
/// option that did not survive olddefconfig, a patch that does not apply (patch and file),
/// a failed build (last lines of its log), a missing agent binary.
GuestImages ensure_guest_images(const build::KernelSpec& spec,
                                const std::filesystem::path& agent_binary,
                                const Progress& progress = {});

/// The static aarch64 agent to pack: $RLAB_AGENT_BINARY when set, else <prefix>/lib/rlab/rlab-agent
/// of an installed rlab (util::installed_prefix), else <source>/build/aarch64/guest-agent/rlab-agent. Throws std::runtime_error naming the path
/// and the CMake preset to build (`cmake --preset aarch64-agent && cmake --build
/// build/aarch64`) when the file does not exist.
std::filesystem::path default_agent_binary();

}  // namespace rlab::image
