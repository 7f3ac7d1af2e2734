#include "vm/disk.hpp"

#include "util/process.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

namespace rlab::vm {

void create_sparse_disk(const std::filesystem::path& path, std::uint64_t size_bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
  if (fd < 0)
    throw std::system_error(errno, std::generic_category(), "create disk " + path.string());
  if (::ftruncate(fd, static_cast<off_t>(size_bytes)) != 0) {
    int e = errno;
    ::close(fd);
    throw std::system_error(e, std::generic_category(), "size disk " + path.string());
  }
  ::close(fd);
}

std::string console_tail(const std::filesystem::path& path, std::size_t lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text;
  for (char c : ss.str())
    if (c != '\r') text += c;
  return util::tail(text, lines);
}

std::string console_panic(const std::string& console) {
  static constexpr std::string_view kMark = "Kernel panic - not syncing: ";
  auto at = console.find(kMark);
  if (at == std::string::npos) return "";
  at += kMark.size();
  auto end = console.find('\n', at);
  std::string why = console.substr(at, end == std::string::npos ? std::string::npos : end - at);
  while (!why.empty() && (why.back() == ' ' || why.back() == '\t')) why.pop_back();
  return why.empty() ? "(no reason given)" : why;
}

}  // namespace rlab::vm
