#pragma once
// A writer for the "newc" cpio format the kernel unpacks as an initramfs
// (Documentation/driver-api/early-userspace/buffer-format.rst). Written here rather than
// through cpio(1) so entries can be owned by root and device nodes added without root
// privileges, and so output is reproducible (fixed mtimes, sorted order).
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace rlab::image {

/// One archive member.
struct CpioEntry {
  enum class Type { kFile, kDirectory, kSymlink, kCharDevice };
  std::string name;  ///< path inside the archive, no leading "/" (e.g. "usr/bin/sort")
  Type type = Type::kFile;
  std::uint32_t mode = 0644;  ///< permission bits (the type bits are added)
  std::string data;           ///< kFile: contents; kSymlink: target
  std::uint32_t dev_major = 0, dev_minor = 0;  ///< kCharDevice
};

/// Writes `entries` in order, then the TRAILER!!! record. uid/gid are 0, mtime 0, each entry
/// gets its own inode number. Throws std::invalid_argument for an empty or absolute name.
void write_newc(std::ostream& out, const std::vector<CpioEntry>& entries);

/// Entries for every file, directory and symlink below `root` (names relative to it),
/// parents before children, sorted by name. Hard links become separate files. Throws
/// std::runtime_error naming a file that cannot be read or is of an unsupported type
/// (sockets, FIFOs, device nodes on disk are skipped with no error).
std::vector<CpioEntry> entries_from_tree(const std::filesystem::path& root);

}  // namespace rlab::image
