#include "util/file_lock.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

namespace rlab::util {

FileLock::FileLock(const std::filesystem::path& path) : FileLock(path, true) {}

FileLock::FileLock(const std::filesystem::path& path, bool block) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw std::runtime_error("cannot open lock " + path.string() + ": " + std::strerror(errno));
  while (::flock(fd_, LOCK_EX | (block ? 0 : LOCK_NB)) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK && !block) return;
    throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(err));
  }
}

std::optional<FileLock> FileLock::try_lock(const std::filesystem::path& path) {
  FileLock l(path, false);
  if (l.fd_ < 0) return std::nullopt;
  return l;
}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace rlab::util
