#pragma once
// What the guest keeps of an extracted Debian userland: the programs and files it uses, the
// shared libraries those programs load (their ELF DT_NEEDED entries and program interpreter,
// followed transitively) and the symlinks on the way. Everything else is removed, so the
// kernel copies only that into its rootfs at boot (docs/images.md "What the image keeps").
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace rlab::image {

/// What one ELF file asks of the dynamic loader, as `readelf --dynamic --program-headers`
/// prints it: DT_NEEDED names ("libc.so.6") and the interpreter's absolute path
/// ("/lib/ld-linux-aarch64.so.1"; empty for a static file).
struct ElfNeeds {
  std::vector<std::string> libraries;
  std::string interpreter;
};

/// Parses readelf's output (above) into ElfNeeds; other lines are ignored.
ElfNeeds parse_readelf(const std::string& readelf_output);

/// The relative paths (under `root`) that `keep` needs: each entry (a file, a symlink or a
/// directory, taken whole), every symlink's target (and the directory links on the way, as
/// in a merged-/usr userland), and for every ELF file the libraries it
/// needs, looked up in `lib_dirs` (relative to `root`, in order) and followed transitively.
/// Reads ELF files with `readelf` (binutils; any architecture). Throws std::runtime_error
/// naming `what` and the entry when an entry is not under `root`, a symlink leaves it, or a
/// needed library is in none of `lib_dirs`.
std::set<std::string> kept_paths(const std::filesystem::path& root, const std::vector<std::string>& keep,
                                 const std::vector<std::string>& lib_dirs, const std::string& what);

/// Removes every file and symlink under `root` not in `kept` (kept_paths()), then the
/// directories left empty. Returns the bytes of regular files removed.
std::uintmax_t remove_all_but(const std::filesystem::path& root, const std::set<std::string>& kept);

/// Where an arm64 Debian userland keeps its shared libraries (multiarch first).
inline const std::vector<std::string> kArm64LibDirs = {"lib/aarch64-linux-gnu", "usr/lib/aarch64-linux-gnu",
                                                       "lib", "usr/lib"};

}  // namespace rlab::image
