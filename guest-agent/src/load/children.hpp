#pragma once
// Child processes of the agent: spawned from argv vectors (never a shell command line built
// from strings), reaped on SIGCHLD with waitpid(-1), so orphans re-parented to the agent
// (when it is PID 1) are reaped too.
#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rlab::agent {

/// How to start one child.
struct SpawnOptions {
  std::vector<std::string> argv;   ///< argv[0] must be a path (see find_program)
  std::filesystem::path cwd;       ///< empty: inherit
  std::vector<std::string> env;    ///< the complete environment, "NAME=value"
  int stdout_fd = -1;              ///< -1: /dev/null
  int stderr_fd = -1;              ///< -1: /dev/null
  bool new_process_group = true;   ///< so the whole tree can be killed
};

/// "exit 1", "killed by signal 9 (Killed)" for a wait(2) status.
std::string describe_status(int wait_status);

/// The absolute path of `name` in the agent's PATH or the standard system directories, or
/// `name` itself when not found (spawn then fails with ENOENT).
std::string find_program(const std::string& name);

/// Owns the SIGCHLD handler. One instance per process; all children must be spawned here.
class Children {
 public:
  using ExitHandler = std::function<void(int wait_status)>;
  explicit Children(boost::asio::io_context& io);

  /// Starts a child; `on_exit` runs on the io_context once it has been reaped.
  /// Throws std::system_error (naming argv[0]) when it cannot be started.
  pid_t spawn(const SpawnOptions& opts, ExitHandler on_exit);

  /// Sends `sig` to the process group of every running child.
  void signal_all(int sig);
  std::size_t running() const { return handlers_.size(); }
  /// Orphans reaped (not our children when spawned; only when PID 1 or a subreaper).
  std::size_t orphans_reaped() const { return orphans_; }

 private:
  void wait();
  void reap();
  boost::asio::signal_set sigchld_;
  std::map<pid_t, ExitHandler> handlers_;
  std::size_t orphans_ = 0;
};

/// A memfd-backed capture buffer for a child's stdout/stderr: does not touch any filesystem.
class MemFile {
 public:
  explicit MemFile(const char* name);
  ~MemFile();
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  int fd() const { return fd_; }
  void clear();
  /// Up to `max_bytes` from the start.
  std::string contents(std::size_t max_bytes = 64 * 1024) const;

 private:
  int fd_;
};

}  // namespace rlab::agent
