#pragma once
// The guest initramfs: Debian arm64 userland (extracted on the host, never executed there),
// the lab's /init and the static agent, packed as an uncompressed newc cpio.
#include "build/progress.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::image {

/// What goes into the userland, from images/rootfs/.
struct RootfsRecipe {
  std::filesystem::path dir;          ///< where it was read from (for messages)
  std::string suite;                  ///< Debian suite, from packages.txt's `suite:` line
  std::vector<std::string> packages;  ///< packages.txt, in file order
  std::vector<std::string> prune;     ///< prune.txt: relative paths, '*' suffix allowed
  std::vector<std::string> keep;      ///< keep.txt: relative paths; empty: keep all prune leaves
  std::string init_script;            ///< contents of images/rootfs/init
};

/// Parses packages.txt text (named `path` in errors): '#' comments, one `suite: <name>` line,
/// one package name per line. Throws std::runtime_error "path:line: ..." for a malformed
/// name, a missing or repeated suite line, or no packages.
void parse_package_list(std::string_view text, const std::filesystem::path& path,
                        RootfsRecipe& recipe);

/// Reads packages.txt, init and the optional prune.txt and keep.txt (one relative path a
/// line, '#' comments) from `rootfs_dir` (images/rootfs, images/kvm-host). Throws
/// std::runtime_error "file:line: ..." for an absolute path or one with "..".
RootfsRecipe load_rootfs_recipe(const std::filesystem::path& rootfs_dir);

/// The initramfs cache key: SHA-256 over the recipe (suite, packages, prune and keep lists, /init)
/// and the agent binary's bytes. Throws std::runtime_error if the agent cannot be read.
std::string image_key(const RootfsRecipe& recipe, const std::filesystem::path& agent_binary);

/// Extracts the userland into `root` (which must not exist) with `mmdebstrap
/// --variant=extract --architectures=arm64` from `mirror`, then removes the prune list and,
/// with a keep list, everything the kept programs do not need (image/keep_list.hpp). Throws
/// std::runtime_error when a kept path or a library it needs is not there.
void extract_userland(const RootfsRecipe& recipe, const std::string& mirror,
                      const std::filesystem::path& root);

/// Where the agent is in the guest. Booted with `rdinit=` this path, the kernel starts it as
/// PID 1 and it mounts what it needs itself (guest-agent serve/pid1.hpp); /init, the shell
/// script that does the same and execs it, stays for the self-test and older agents.
inline constexpr const char* kAgentPath = "/usr/bin/rlab-agent";

/// Adds /init, /usr/bin/rlab-agent (`agent_binary`), the mount points and /dev/console to
/// `root`, packs it and writes `out` (a newc cpio, not compressed: the guest kernel copies
/// the files instead of decompressing them first). Returns its size in bytes. Throws std::runtime_error when the agent is not an aarch64 ELF.
std::uintmax_t pack_initramfs(const RootfsRecipe& recipe, const std::filesystem::path& root,
                              const std::filesystem::path& agent_binary,
                              const std::filesystem::path& out);

/// Whether `elf` starts like a 64-bit little-endian AArch64 ELF file (e_machine 183).
bool is_aarch64_elf(std::string_view elf);

}  // namespace rlab::image
