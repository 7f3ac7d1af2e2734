#include "image/cpio.hpp"

#include "util/paths.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <stdexcept>

namespace rlab::image {
namespace fs = std::filesystem;

namespace {

void pad4(std::ostream& out, std::uint64_t written) {
  static const char zeros[4] = {0, 0, 0, 0};
  out.write(zeros, static_cast<std::streamsize>((4 - written % 4) % 4));
}

void write_one(std::ostream& out, std::uint32_t ino, std::uint32_t mode, std::uint32_t nlink,
               std::uint32_t rmajor, std::uint32_t rminor, const std::string& name,
               const std::string& data) {
  // 110-byte header: magic + 13 fields of 8 hex digits.
  std::string header = fmt::format(
      "070701{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}", ino,
      mode, 0, 0, nlink, 0, data.size(), 0, 0, rmajor, rminor, name.size() + 1, 0);
  out << header << name << '\0';
  pad4(out, header.size() + name.size() + 1);
  out << data;
  pad4(out, data.size());
}

}  // namespace

void write_newc(std::ostream& out, const std::vector<CpioEntry>& entries) {
  std::uint32_t ino = 1;
  for (const auto& e : entries) {
    if (e.name.empty() || e.name.front() == '/')
      throw std::invalid_argument("cpio entry name '" + e.name + "' must be relative and non-empty");
    std::uint32_t type = 0;
    switch (e.type) {
      case CpioEntry::Type::kFile: type = S_IFREG; break;
      case CpioEntry::Type::kDirectory: type = S_IFDIR; break;
      case CpioEntry::Type::kSymlink: type = S_IFLNK; break;
      case CpioEntry::Type::kCharDevice: type = S_IFCHR; break;
    }
    bool has_data = e.type == CpioEntry::Type::kFile || e.type == CpioEntry::Type::kSymlink;
    write_one(out, ino++, type | (e.mode & 07777), e.type == CpioEntry::Type::kDirectory ? 2 : 1,
              e.dev_major, e.dev_minor, e.name, has_data ? e.data : std::string());
  }
  write_one(out, 0, 0, 1, 0, 0, "TRAILER!!!", "");
  if (!out) throw std::runtime_error("writing the cpio archive failed");
}

std::vector<CpioEntry> entries_from_tree(const fs::path& root) {
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it)
    paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  std::vector<CpioEntry> out;
  for (const auto& p : paths) {
    CpioEntry e;
    e.name = p.lexically_relative(root).string();
    auto st = fs::symlink_status(p);
    e.mode = static_cast<std::uint32_t>(st.permissions()) & 07777;
    if (fs::is_symlink(st)) {
      e.type = CpioEntry::Type::kSymlink;
      e.data = fs::read_symlink(p).string();
      e.mode = 0777;
    } else if (fs::is_directory(st)) {
      e.type = CpioEntry::Type::kDirectory;
    } else if (fs::is_regular_file(st)) {
      e.type = CpioEntry::Type::kFile;
      e.data = util::read_file(p);
    } else {
      continue;  // device nodes, FIFOs, sockets: the guest's devtmpfs provides devices
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace rlab::image
