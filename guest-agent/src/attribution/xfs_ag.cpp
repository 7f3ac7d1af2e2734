#include "attribution/xfs_ag.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <string>

namespace rlab::agent {
namespace {

std::uint32_t be32(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(s[at + i]);
  return v;
}

std::uint16_t be16(std::string_view s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(s[at]) << 8 | static_cast<unsigned char>(s[at + 1]));
}

/// 512-byte units per AG.
std::uint64_t ag_daddrs(const XfsGeometry& g) { return std::uint64_t{g.agblocks} * (g.blocksize / 512); }

}  // namespace

std::string_view to_string(AgHeader h) {
  switch (h) {
    case AgHeader::sb: return "sb";
    case AgHeader::agf: return "AGF";
    case AgHeader::agi: return "AGI";
    case AgHeader::agfl: return "AGFL";
  }
  return "?";
}

std::optional<XfsGeometry> parse_superblock(std::string_view sb) {
  if (sb.size() < 512 || sb.substr(0, 4) != "XFSB") return std::nullopt;
  XfsGeometry g{be32(sb, 4), be32(sb, 84), be32(sb, 88), be16(sb, 102)};
  const bool sizes = std::has_single_bit(g.blocksize) && g.blocksize >= 512 && g.blocksize <= 65536 &&
                     std::has_single_bit(unsigned{g.sectsize}) && g.sectsize >= 512 && g.sectsize <= 32768;
  if (!sizes || g.agblocks == 0 || g.agcount == 0) return std::nullopt;
  return g;
}

std::optional<XfsGeometry> read_superblock(const std::filesystem::path& device) {
  const int fd = ::open(device.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string head(512, '\0');
  const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
  ::close(fd);
  if (n != static_cast<ssize_t>(head.size())) return std::nullopt;
  return parse_superblock(head);
}

std::optional<AgHeaderAt> ag_header_at(const XfsGeometry& g, std::uint64_t daddr) {
  const std::uint64_t per_ag = ag_daddrs(g), sector = g.sectsize / 512;
  const std::uint64_t ag = daddr / per_ag, in_ag = daddr % per_ag;
  if (ag >= g.agcount || in_ag % sector != 0 || in_ag / sector > 3) return std::nullopt;
  return AgHeaderAt{static_cast<std::uint32_t>(ag), static_cast<AgHeader>(in_ag / sector)};
}

std::uint64_t ag_header_daddr(const XfsGeometry& g, std::uint32_t ag, AgHeader header) {
  return ag * ag_daddrs(g) + static_cast<std::uint64_t>(header) * (g.sectsize / 512);
}

}  // namespace rlab::agent
