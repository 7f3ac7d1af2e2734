#pragma once
// Test harness: starts the real rlab-agent binary and talks the protocol to it.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "rlab/protocol/protocol.hpp"

namespace rlab::agent::test {

/// A fresh temporary directory, removed (recursively) on destruction.
struct TempDir {
  TempDir();
  ~TempDir();
  std::filesystem::path path;
};

/// A child process started from argv; SIGKILLed and reaped on destruction.
class Process {
 public:
  explicit Process(const std::vector<std::string>& argv);
  ~Process();
  /// Waits up to `timeout` for exit; the wait status, or nullopt on timeout.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  pid_t pid() const { return pid_; }
  /// VmHWM (peak RSS) in KiB from /proc/<pid>/status, 0 when unreadable.
  std::uint64_t peak_rss_kib() const;

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
};

/// Runs argv to completion; returns its stdout+stderr and stores the wait status. With `err`,
/// stderr goes there instead and the return value is stdout alone.
std::string run_capture(const std::vector<std::string>& argv, int* status = nullptr, std::string* err = nullptr);

/// A protocol client over a connected file descriptor (unix socket or pty master).
class Client {
 public:
  explicit Client(int fd) : fd_(fd) {}
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  /// Connects to a unix socket, retrying until `timeout` (the agent may still be starting).
  static Client connect_unix(const std::filesystem::path& path, std::chrono::milliseconds timeout);

  void send_raw(const std::string& bytes);
  void send(const protocol::HostMessage& m) { send_raw(protocol::encode(m)); }
  /// The next line from the agent, or nullopt after `timeout` / EOF.
  std::optional<std::string> next_line(std::chrono::milliseconds timeout);
  /// The next message, parsed; fails the test (ADD_FAILURE) and returns nullopt on timeout or
  /// a line that does not parse.
  std::optional<protocol::AgentMessage> next(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// Skips messages until one of type T arrives (within `timeout` overall).
  template <class T>
  std::optional<T> next_of(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      auto m = next(std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now()));
      if (!m) return std::nullopt;
      if (auto* t = std::get_if<T>(&*m)) return *t;
    }
    return std::nullopt;
  }

 private:
  int fd_;
  protocol::LineFramer framer_;
  std::vector<std::string> lines_;
};

/// The host-native agent binary under test.
std::string agent_binary();

}  // namespace rlab::agent::test
