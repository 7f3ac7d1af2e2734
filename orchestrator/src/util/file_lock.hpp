#pragma once
// An exclusive advisory lock (flock(2)) on a file, held for the object's life and released by
// the kernel when the process dies, however it dies: what tells a live owner from a dead one.
#include <filesystem>
#include <optional>

namespace rlab::util {

/// An exclusive flock on `path` (created 0644 with its parent directories if missing).
class FileLock {
 public:
  /// Blocks until the lock is held. Throws std::runtime_error naming the path when the file
  /// cannot be created or locked.
  explicit FileLock(const std::filesystem::path& path);
  /// The lock if no other open file description holds it now, else nullopt; never blocks.
  /// Throws as the constructor does.
  static std::optional<FileLock> try_lock(const std::filesystem::path& path);

  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileLock& operator=(FileLock&& o) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  FileLock(const std::filesystem::path& path, bool block);
  int fd_ = -1;
};

}  // namespace rlab::util
