#pragma once
// Where the load's inodes land on XFS: the allocation group (AG) of each inode found in the
// load's directories, from the inode number and the superblock's geometry. XFS numbers inodes
// as (agno << (sb_agblklog + sb_inopblog)) | agino (the on-disk format's inode numbering).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

/// The part of an XFS superblock that maps inode numbers to allocation groups.
struct AgGeometry {
  std::uint32_t agcount = 0;   ///< sb_agcount
  unsigned agino_log = 0;      ///< sb_agblklog + sb_inopblog: bits of the AG-relative inode number
  std::uint32_t ag_of(std::uint64_t ino) const { return static_cast<std::uint32_t>(ino >> agino_log); }
};

/// Parses the start of an XFS primary superblock (big-endian: magic "XFSB" at 0, sb_agcount
/// at 88, sb_inopblog at 123, sb_agblklog at 124). nullopt when shorter than 125 bytes or the
/// magic differs.
std::optional<AgGeometry> parse_xfs_superblock(std::string_view bytes);

/// The geometry of the XFS filesystem holding `path`, read from the superblock of its block
/// device (/sys/dev/block/<maj>:<min> names it, /dev/<name> is read). nullopt when `path` is
/// not on XFS or the device cannot be read.
std::optional<AgGeometry> xfs_geometry_of(const std::filesystem::path& path);

/// Inodes seen in the load's directories over one pass, and their allocation groups.
class PlacementScan {
 public:
  /// `dirs`: the directories whose entries are the load's files; entries named in `skip`
  /// (the input, placed by the agent) are not the load's.
  PlacementScan(AgGeometry geometry, std::vector<std::filesystem::path> dirs, std::set<std::string> skip)
      : geo_(geometry), dirs_(std::move(dirs)), skip_(std::move(skip)) {}
  void reset() { seen_.clear(); }
  /// Lists the directories now and notes every entry's inode number.
  void scan();
  /// What the scans since reset() saw.
  protocol::Placement result() const;

 private:
  AgGeometry geo_;
  std::vector<std::filesystem::path> dirs_;
  std::set<std::string> skip_;
  std::set<std::uint64_t> seen_;
};

}  // namespace rlab::agent
