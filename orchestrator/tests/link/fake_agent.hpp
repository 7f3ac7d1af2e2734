#pragma once
// A scripted agent on a unix socket, for unit tests of the link only (the real agent is
// tested in agent_real_test.cpp). `script(fd)` runs in a thread on the accepted connection.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <thread>

namespace rlab::test {

class FakeAgent {
 public:
  FakeAgent(std::filesystem::path path, std::function<void(int)> script,
            std::chrono::milliseconds listen_delay = {})
      : path_(std::move(path)) {
    thread_ = std::thread([this, script = std::move(script), listen_delay] {
      std::this_thread::sleep_for(listen_delay);
      int l = ::socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un a{};
      a.sun_family = AF_UNIX;
      std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path_.c_str());
      ::unlink(path_.c_str());
      if (::bind(l, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(l, 1) != 0) return;
      int fd = ::accept(l, nullptr, nullptr);
      ::close(l);
      if (fd < 0) return;
      script(fd);
      ::close(fd);
    });
  }
  ~FakeAgent() {
    thread_.join();
    std::filesystem::remove(path_);
  }

  /// Writes one line (adds '\n').
  static void send(int fd, const std::string& line) {
    std::string l = line + "\n";
    (void)!::write(fd, l.data(), l.size());
  }
  /// Reads one line (without '\n'); "" at EOF.
  static std::string read_line(int fd) {
    std::string s;
    char c;
    while (::read(fd, &c, 1) == 1) {
      if (c == '\n') return s;
      s += c;
    }
    return s;
  }

 private:
  std::filesystem::path path_;
  std::thread thread_;
};

}  // namespace rlab::test
