#include "common/fileio.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace rlab::agent {

std::optional<std::string> read_file(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

bool write_file(const std::filesystem::path& path, std::string_view data, bool append, bool quiet) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_CREAT | O_TRUNC), 0644);
  bool ok = fd >= 0;
  if (ok) {
    ssize_t n = ::write(fd, data.data(), data.size());
    ok = n == static_cast<ssize_t>(data.size());
    ::close(fd);
  }
  if (!ok && !quiet) std::fprintf(stderr, "rlab-agent: write %s: %s\n", path.c_str(), std::strerror(errno));
  return ok;
}

}  // namespace rlab::agent
