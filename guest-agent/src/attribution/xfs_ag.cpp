#include "attribution/xfs_ag.hpp"

namespace rlab::agent {
namespace {

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
