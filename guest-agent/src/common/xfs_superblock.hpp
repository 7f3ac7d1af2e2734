#pragma once
// An XFS filesystem's geometry, read from its primary superblock (the first sector of the
// device; big-endian fields, fs/xfs/libxfs/xfs_format.h struct xfs_dsb): what the agent needs
// to map inode numbers (load/placement.hpp) and buffer addresses (attribution/xfs_ag.hpp) to
// allocation groups (AGs).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace rlab::agent {

/// The geometry of one XFS filesystem.
struct XfsGeometry {
  std::uint32_t blocksize = 0;  ///< bytes per filesystem block (sb_blocksize), 512..65536
  std::uint32_t agblocks = 0;   ///< blocks per AG (sb_agblocks; the last AG may be shorter)
  std::uint32_t agcount = 0;    ///< AGs (sb_agcount)
  std::uint16_t sectsize = 0;   ///< bytes per sector (sb_sectsize), 512..32768
  /// Bits of an AG-relative inode number (sb_agblklog + sb_inopblog): XFS numbers inodes
  /// (agno << agino_log) | agino.
  unsigned agino_log = 0;
  /// The AG of inode number `ino`.
  std::uint32_t ag_of_inode(std::uint64_t ino) const { return static_cast<std::uint32_t>(ino >> agino_log); }
};

/// The geometry from the first 512 bytes of an XFS device or image: magic "XFSB" at 0,
/// sb_blocksize at 4, sb_agblocks at 84, sb_agcount at 88, sb_sectsize at 102, sb_inopblog
/// at 123, sb_agblklog at 124. nullopt when `sb` is shorter, not XFS, or a size is zero, not
/// a power of two or out of range.
std::optional<XfsGeometry> parse_superblock(std::string_view sb);

/// parse_superblock of the first 512 bytes of `device`; nullopt when it cannot be read.
std::optional<XfsGeometry> read_superblock(const std::filesystem::path& device);

/// The block device (/dev/<name>, named by /sys/dev/block/<major>:<minor> of st_dev) of the
/// XFS filesystem that holds `path`; nullopt when `path` is not on XFS or has no such device.
std::optional<std::filesystem::path> xfs_device_of(const std::filesystem::path& path);

}  // namespace rlab::agent
