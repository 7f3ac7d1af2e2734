#pragma once
// Test support: a second libvirtd of the test's own, reached as
// qemu+tcp://127.0.0.1:<port>/system without authentication. It runs in its own mount
// namespace (orchestrator/tests/run/data/private-libvirtd.sh under `unshare -m`) with its own
// config, sockets and pid file, so the machine's libvirtd and its guests are never touched.
// With `keep_state`, its /run/libvirt, /var/lib/libvirt and /var/cache/libvirt live in
// `dir`/state and survive stop() + start(): the daemon started again reconnects to the QEMU it
// left running. Header-only: each test binary that needs it includes it.
#include "daemon_spawn.hpp"
#include "loopback_port.hpp"
#include "vm/libvirt.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace rlab::testing {

/// The private libvirtd described above. Files under `dir`: etc/ (libvirtd.conf, qemu.conf),
/// libvirtd.pid, libvirtd.log (appended by every start), state/ (with keep_state).
class PrivateLibvirtd {
 public:
  /// Writes the config and starts the daemon (see up()).
  explicit PrivateLibvirtd(const std::filesystem::path& dir, bool keep_state = false)
      : dir_(dir), port_(free_loopback_port()), keep_state_(keep_state) {
    std::filesystem::create_directories(dir_ / "etc");
    if (keep_state_) std::filesystem::create_directories(dir_ / "state");
    std::ofstream(dir_ / "etc" / "libvirtd.conf")
        << "listen_tls = 0\nlisten_tcp = 1\nlisten_addr = \"127.0.0.1\"\n"
        << "tcp_port = \"" << port_ << "\"\nauth_tcp = \"none\"\nunix_sock_dir = \"/run/libvirt\"\n";
    // No virtlogd in its namespace: QEMU writes the console log itself.
    std::ofstream(dir_ / "etc" / "qemu.conf") << "stdio_handler = \"file\"\n";
    up_ = start();
  }
  /// Destroys the rlab guests a failed test may have left on it, then stops it.
  ~PrivateLibvirtd() {
    if (pid_ > 0) {
      try {
        vm::Connection c(uri());
        for (const auto& n : c.active_domains("rlab-")) c.destroy_by_name(n);
      } catch (const std::exception&) {
      }
    }
    stop();
  }
  PrivateLibvirtd(const PrivateLibvirtd&) = delete;
  PrivateLibvirtd& operator=(const PrivateLibvirtd&) = delete;

  /// Whether the first start answered.
  bool up() const { return up_; }
  bool running() const { return pid_ > 0; }
  std::string uri() const { return "qemu+tcp://127.0.0.1:" + std::to_string(port_) + "/system"; }
  std::string log() const {
    std::ifstream in(dir_ / "libvirtd.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  /// Starts the daemon; true once it answers on TCP (at most 90 s: the first start probes
  /// QEMU's capabilities).
  bool start() {
    std::vector<std::string> argv{
        "unshare", "-m", "bash",
        (std::filesystem::path(RLAB_SOURCE_DIR) / "orchestrator/tests/run/data/private-libvirtd.sh").string(),
        (dir_ / "etc").string(), (dir_ / "libvirtd.pid").string()};
    if (keep_state_) argv.push_back((dir_ / "state").string());
    pid_ = spawn_logged(argv, dir_ / "libvirtd.log");
    return wait_answering(pid_, uri());
  }

  /// Stops the daemon with `sig` (SIGTERM leaves its guests running) and reaps it.
  void stop(int sig = SIGTERM) {
    if (pid_ <= 0) return;
    ::kill(pid_, sig);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  /// Active domains of the daemon whose names start with `prefix`. Throws vm::LibvirtError
  /// when it does not answer.
  std::vector<std::string> domains(const std::string& prefix) const {
    vm::Connection c(uri());
    return c.active_domains(prefix);
  }

  /// QEMU's pid of `domain` from the daemon's own /run/libvirt/qemu (seen through its root);
  /// -1 when there is none.
  pid_t qemu_pid(const std::string& domain) const {
    std::ifstream in(std::filesystem::path("/proc") / std::to_string(pid_) / "root/run/libvirt/qemu" /
                     (domain + ".pid"));
    pid_t p = -1;
    in >> p;
    return p;
  }

 private:
  std::filesystem::path dir_;
  int port_;
  bool keep_state_;
  pid_t pid_ = -1;
  bool up_ = false;
};

}  // namespace rlab::testing
