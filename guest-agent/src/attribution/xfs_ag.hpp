#pragma once
// Which allocation group's header a disk address is: the map from an XFS buffer's address
// (its daddr, in 512-byte basic blocks from the start of the device, as the xfs_buf_*
// tracepoints give it) to {AG number, header}. Source: the XFS on-disk format
// (fs/xfs/libxfs/xfs_format.h, Documentation/filesystems/xfs/xfs-ondisk-format): every AG
// starts at daddr agno x agblocks x (blocksize / 512) with, one sector each, a superblock
// copy, the AGF (free space), the AGI (inodes) and the AGFL (free list) — sector 0, 1, 2, 3 of
// the AG, a sector being sectsize bytes.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace rlab::agent {

/// The AG headers, in on-disk order (sector 0..3 of an AG).
enum class AgHeader { sb, agf, agi, agfl };

/// "sb", "AGF", "AGI", "AGFL".
std::string_view to_string(AgHeader h);

/// The geometry an address maps through, read from the primary superblock.
struct XfsGeometry {
  std::uint32_t blocksize = 0;  ///< bytes per filesystem block (sb_blocksize), 512..65536
  std::uint32_t agblocks = 0;   ///< blocks per AG (sb_agblocks; the last AG may be shorter)
  std::uint32_t agcount = 0;    ///< AGs (sb_agcount)
  std::uint16_t sectsize = 0;   ///< bytes per sector (sb_sectsize), 512..32768
};

/// An AG header at an address.
struct AgHeaderAt {
  std::uint32_t ag = 0;  ///< AG number, 0..agcount-1
  AgHeader header = AgHeader::sb;
  bool operator==(const AgHeaderAt&) const = default;
};

/// The geometry from the first 512 bytes of an XFS device or image (the primary superblock,
/// big-endian: magic "XFSB" at 0, sb_blocksize at 4, sb_agblocks at 84, sb_agcount at 88,
/// sb_sectsize at 102). nullopt when `sb` is shorter, not XFS, or its sizes are not powers of
/// two in range.
std::optional<XfsGeometry> parse_superblock(std::string_view sb);

/// parse_superblock of the first 512 bytes of `device`; nullopt when it cannot be read.
std::optional<XfsGeometry> read_superblock(const std::filesystem::path& device);

/// The AG header at `daddr` (512-byte units), or nullopt when `daddr` is no AG header's first
/// sector (any other metadata buffer, or past the last AG). O(1).
std::optional<AgHeaderAt> ag_header_at(const XfsGeometry& g, std::uint64_t daddr);

/// The daddr of AG `ag`'s `header` (the inverse of ag_header_at).
std::uint64_t ag_header_daddr(const XfsGeometry& g, std::uint32_t ag, AgHeader header);

}  // namespace rlab::agent
