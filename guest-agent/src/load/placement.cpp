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

std::optional<XfsGeometry> xfs_geometry_of(const fs::path& path) {
  const auto device = xfs_device_of(path);
  return device ? read_superblock(*device) : std::nullopt;
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
  for (auto ino : seen_) ags.insert(geo_.ag_of_inode(ino));
  protocol::Placement p;
  p.agcount = geo_.agcount;
  p.ags = static_cast<std::uint32_t>(ags.size());
  p.inodes = seen_.size();
  return p;
}

}  // namespace rlab::agent
