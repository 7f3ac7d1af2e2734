#include "load/placement.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <array>

namespace rlab::agent {
namespace fs = std::filesystem;

namespace {
constexpr long kXfsMagic = 0x58465342;  // "XFSB", statfs f_type and superblock magic
}

std::optional<AgGeometry> parse_xfs_superblock(std::string_view b) {
  if (b.size() < 125 || b.substr(0, 4) != "XFSB") return std::nullopt;
  auto u8 = [&](std::size_t at) { return static_cast<unsigned>(static_cast<unsigned char>(b[at])); };
  AgGeometry g;
  g.agcount = u8(88) << 24 | u8(89) << 16 | u8(90) << 8 | u8(91);
  g.agino_log = u8(123) + u8(124);
  if (g.agcount == 0 || g.agino_log == 0 || g.agino_log >= 64) return std::nullopt;
  return g;
}

std::optional<AgGeometry> xfs_geometry_of(const fs::path& path) {
  struct statfs sfs {};
  struct stat st {};
  if (::statfs(path.c_str(), &sfs) != 0 || sfs.f_type != kXfsMagic || ::stat(path.c_str(), &st) != 0)
    return std::nullopt;
  std::error_code ec;
  const fs::path link = "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  const fs::path target = fs::read_symlink(link, ec);
  if (ec) return std::nullopt;
  const int fd = ::open((fs::path("/dev") / target.filename()).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::array<char, 512> sb{};
  const ssize_t n = ::pread(fd, sb.data(), sb.size(), 0);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  return parse_xfs_superblock(std::string_view(sb.data(), static_cast<std::size_t>(n)));
}

void PlacementScan::scan() {
  for (const auto& d : dirs_) {
    DIR* dir = ::opendir(d.c_str());
    if (!dir) continue;
    while (const dirent* e = ::readdir(dir)) {
      const std::string_view name = e->d_name;
      if (name == "." || name == ".." || skip_.count(std::string(name))) continue;
      seen_.insert(e->d_ino);  // the directory entry's inode number is the file's (XFS, ext4)
    }
    ::closedir(dir);
  }
}

protocol::Placement PlacementScan::result() const {
  std::set<std::uint32_t> ags;
  for (auto ino : seen_) ags.insert(geo_.ag_of(ino));
  protocol::Placement p;
  p.agcount = geo_.agcount;
  p.ags = static_cast<std::uint32_t>(ags.size());
  p.inodes = seen_.size();
  return p;
}

}  // namespace rlab::agent
