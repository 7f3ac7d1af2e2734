#pragma once
// Which allocation group's header a disk address is: the map from an XFS buffer's address
// (its daddr, in 512-byte basic blocks from the start of the device, as the xfs_buf_*
// tracepoints give it) to {AG number, header}. Source: the XFS on-disk format
// (fs/xfs/libxfs/xfs_format.h, Documentation/filesystems/xfs/xfs-ondisk-format): every AG
// starts at daddr agno x agblocks x (blocksize / 512) with, one sector each, a superblock
// copy, the AGF (free space), the AGI (inodes) and the AGFL (free list) — sector 0, 1, 2, 3 of
// the AG, a sector being sectsize bytes.
#include "common/xfs_superblock.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace rlab::agent {

/// The AG headers, in on-disk order (sector 0..3 of an AG).
enum class AgHeader { sb, agf, agi, agfl };

/// "sb", "AGF", "AGI", "AGFL".
std::string_view to_string(AgHeader h);

/// An AG header at an address.
struct AgHeaderAt {
  std::uint32_t ag = 0;  ///< AG number, 0..agcount-1
  AgHeader header = AgHeader::sb;
  bool operator==(const AgHeaderAt&) const = default;
};

/// The AG header at `daddr` (512-byte units), or nullopt when `daddr` is no AG header's first
/// sector (any other metadata buffer, or past the last AG). O(1).
std::optional<AgHeaderAt> ag_header_at(const XfsGeometry& g, std::uint64_t daddr);

/// The daddr of AG `ag`'s `header` (the inverse of ag_header_at).
std::uint64_t ag_header_daddr(const XfsGeometry& g, std::uint32_t ag, AgHeader header);

}  // namespace rlab::agent
