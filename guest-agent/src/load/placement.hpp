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

#include "common/xfs_superblock.hpp"
#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

/// The geometry of the XFS filesystem holding `path`, read from the superblock of its block
/// device (common/xfs_superblock.hpp). nullopt when `path` is not on XFS or the device cannot
/// be read.
std::optional<XfsGeometry> xfs_geometry_of(const std::filesystem::path& path);

/// Inodes seen in the load's directories over one pass, and their allocation groups.
class PlacementScan {
 public:
  /// `dirs`: the directories whose entries are the load's files; entries named in `skip`
  /// (the input, placed by the agent) are not the load's.
  PlacementScan(XfsGeometry geometry, std::vector<std::filesystem::path> dirs, std::set<std::string> skip)
      : geo_(geometry), dirs_(std::move(dirs)), skip_(std::move(skip)) {}
  void reset() { seen_.clear(); }
  /// Lists the directories now and notes every entry's inode number.
  void scan();
  /// What the scans since reset() saw.
  protocol::Placement result() const;

 private:
  XfsGeometry geo_;
  std::vector<std::filesystem::path> dirs_;
  std::set<std::string> skip_;
  std::set<std::uint64_t> seen_;
};

}  // namespace rlab::agent
