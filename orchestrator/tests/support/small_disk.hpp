#pragma once
// A real, small file system for disk-full tests: a tmpfs of a few MiB (ENOSPC as a full disk
// gives it), mounted for the object's life. Needs root (mount).
#include "util/process.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace rlab::testing {

/// A tmpfs of `mib` MiB mounted on `dir` (created) until destruction (lazy unmount).
struct SmallDisk {
  std::filesystem::path dir;
  SmallDisk(const std::filesystem::path& d, unsigned mib) : dir(d) {
    std::filesystem::create_directories(dir);
    auto r = util::run({"mount", "-t", "tmpfs", "-o", "size=" + std::to_string(mib) + "m,mode=0755",
                        "rlab-small-disk", dir.string()});
    if (!r.ok()) throw std::runtime_error("mount tmpfs on " + dir.string() + ": " + r.output);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  ~SmallDisk() { util::run({"umount", "-l", dir.string()}); }
  /// Writes `name` until the file system has no space left.
  void fill(const std::string& name) const {
    std::ofstream out(dir / name, std::ios::binary);
    const std::string mib(1 << 20, 'x');
    while (out.write(mib.data(), static_cast<std::streamsize>(mib.size())) && out.flush()) {
    }
  }
};

}  // namespace rlab::testing
