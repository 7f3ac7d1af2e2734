// The link against the real rlab-agent, built host-native and serving a unix socket.
#include "link/agent_session.hpp"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
namespace proto = rlab::protocol;

extern char** environ;

namespace {

/// rlab-agent --listen unix:<path> as a child process, killed at the end.
class AgentProcess {
 public:
  explicit AgentProcess(const fs::path& sock) {
    fs::path bin = fs::path(RLAB_BINARY_DIR) / "guest-agent" / "rlab-agent";
    if (!fs::exists(bin)) throw std::runtime_error(bin.string() + " not built");
    std::string listen = "unix:" + sock.string();
    std::vector<char*> argv{const_cast<char*>(bin.c_str()), const_cast<char*>("--listen"),
                            listen.data(), nullptr};
    if (posix_spawn(&pid_, bin.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
      throw std::runtime_error("cannot start " + bin.string());
  }
  ~AgentProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  /// Waits up to `timeout` for the agent to exit; its exit status, or -1.
  int wait_exit(std::chrono::milliseconds timeout) {
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(20ms);
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  bool exited_ = false;
};

}  // namespace

TEST(RealAgentLink, HelloRunShutdownAgainstHostNativeAgent) {
  fs::path dir = fs::temp_directory_path() / ("rlab-link-real-" + std::to_string(getpid()));
  fs::create_directories(dir / "work");
  fs::path sock = dir / "agent.sock";
  AgentProcess agent(sock);

  boost::asio::io_context io;
  rlab::link::AgentSession s(io);
  s.connect(sock, 10s);
  const proto::Hello h = s.wait_hello(10s);
  const auto host_page = static_cast<unsigned>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(h.page_size, host_page);
  EXPECT_EQ(h.protocol, proto::kProtocolVersion);
  EXPECT_EQ(rlab::link::check_hello(h, host_page), "");
  // A 64K cell must refuse this (4K x86) agent.
  if (host_page != 65536) EXPECT_NE(rlab::link::check_hello(h, 65536), "");

  proto::Run run;
  run.workload = "shell1";
  run.copies = 1;
  run.passes = 1;
  run.duration_s = 2;
  run.workdir = (dir / "work").string();
  run.sample_interval_s = 0.5;
  run.pause_s = 0;
  int samples = 0, passes = 0;
  auto r = s.run(run, {[&](const proto::Sample&) { ++samples; },
                       [&](const proto::PassReport& p) {
                         ++passes;
                         EXPECT_GT(p.loops, 0u);
                       }},
                 {.quiet = 10s, .probe = 10s, .total = 60s});
  EXPECT_GT(r.score, 0);
  EXPECT_EQ(r.passes.size(), 1u);
  EXPECT_EQ(passes, 1);
  EXPECT_GE(samples, 1);
  s.shutdown(10s);
  EXPECT_EQ(agent.wait_exit(10s), 0);
  fs::remove_all(dir);
}
