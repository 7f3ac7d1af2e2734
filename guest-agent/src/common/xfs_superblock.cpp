#include "common/xfs_superblock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bit>
#include <string>

namespace rlab::agent {
namespace {

constexpr long kXfsMagic = 0x58465342;  // "XFSB": statfs f_type and superblock magic

std::uint32_t be32(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(s[at + i]);
  return v;
}

std::uint16_t be16(std::string_view s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(s[at]) << 8 | static_cast<unsigned char>(s[at + 1]));
}

}  // namespace

std::optional<XfsGeometry> parse_superblock(std::string_view sb) {
  if (sb.size() < 512 || sb.substr(0, 4) != "XFSB") return std::nullopt;
  XfsGeometry g{be32(sb, 4), be32(sb, 84), be32(sb, 88), be16(sb, 102),
                unsigned{static_cast<unsigned char>(sb[123])} + static_cast<unsigned char>(sb[124])};
  const bool sizes = std::has_single_bit(g.blocksize) && g.blocksize >= 512 && g.blocksize <= 65536 &&
                     std::has_single_bit(unsigned{g.sectsize}) && g.sectsize >= 512 && g.sectsize <= 32768;
  if (!sizes || g.agblocks == 0 || g.agcount == 0 || g.agino_log == 0 || g.agino_log >= 64) return std::nullopt;
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

std::optional<std::filesystem::path> xfs_device_of(const std::filesystem::path& path) {
  struct statfs sfs {};
  struct stat st {};
  if (::statfs(path.c_str(), &sfs) != 0 || sfs.f_type != kXfsMagic || ::stat(path.c_str(), &st) != 0)
    return std::nullopt;
  std::error_code ec;
  const auto link = "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  const std::filesystem::path target = std::filesystem::read_symlink(link, ec);
  if (ec) return std::nullopt;
  return std::filesystem::path("/dev") / target.filename();
}

}  // namespace rlab::agent
