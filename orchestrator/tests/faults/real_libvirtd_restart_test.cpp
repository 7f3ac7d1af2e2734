// libvirtd restarted mid-run, against the real stack: a private libvirtd (its own mount
// namespace and config, orchestrator/tests/run/data/private-libvirtd.sh) whose /run/libvirt,
// /var/lib/libvirt and /var/cache/libvirt are bind-mounted from the test's directory, so the
// daemon started again reconnects to the QEMU it left running. Three 64K 6.12 TCG cells
// (1 vCPU, shell1 one 8 s pass) run one after the other on it; while the second guest
// measures, the daemon gets SIGTERM and is started again. The machine's libvirtd is never
// touched.
#include "fault_lab.hpp"

#include "util/process.hpp"
#include "vm/libvirt.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

extern char** environ;

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace rlab::faults;

namespace {

/// A TCP port on 127.0.0.1 that nothing listens on right now.
int free_port() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = -1;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

/// A private libvirtd on qemu+tcp://127.0.0.1:<port>/system whose state lives in
/// `dir`/state and survives restart(): etc/ (its config), state/{run,lib,cache}, libvirtd.log
/// (appended by every start).
class RestartableLibvirtd {
 public:
  explicit RestartableLibvirtd(const fs::path& dir) : dir_(dir), port_(free_port()) {
    fs::create_directories(dir_ / "etc");
    fs::create_directories(dir_ / "state");
    std::ofstream(dir_ / "etc" / "libvirtd.conf")
        << "listen_tls = 0\nlisten_tcp = 1\nlisten_addr = \"127.0.0.1\"\n"
        << "tcp_port = \"" << port_ << "\"\nauth_tcp = \"none\"\nunix_sock_dir = \"/run/libvirt\"\n";
    // No virtlogd in its namespace: QEMU writes the console log itself.
    std::ofstream(dir_ / "etc" / "qemu.conf") << "stdio_handler = \"file\"\n";
    up_ = start();
  }
  ~RestartableLibvirtd() {
    if (pid_ > 0) {
      try {  // a failed test may leave a guest: never leave it running
        rlab::vm::Connection c(uri());
        for (const auto& n : c.active_domains("rlab-")) c.destroy_by_name(n);
      } catch (const std::exception&) {
      }
    }
    stop();
  }

  /// Whether the first start answered.
  bool up() const { return up_; }
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
        (fs::path(RLAB_SOURCE_DIR) / "orchestrator/tests/run/data/private-libvirtd.sh").string(),
        (dir_ / "etc").string(), (dir_ / "libvirtd.pid").string(), (dir_ / "state").string()};
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const std::string logf = (dir_ / "libvirtd.log").string();
    posix_spawn_file_actions_addopen(&fa, 1, logf.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (posix_spawnp(&pid_, "unshare", &fa, nullptr, cargv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
    for (auto until = std::chrono::steady_clock::now() + 90s;
         pid_ > 0 && std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(300ms)) {
      try {
        rlab::vm::Connection c(uri());
        return true;
      } catch (const rlab::vm::LibvirtError&) {
      }
    }
    return false;
  }

  /// SIGTERM to the daemon (it leaves its guests running) and reaps it.
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  /// Active domains of the daemon whose names start with `prefix`.
  std::vector<std::string> domains(const std::string& prefix) const {
    rlab::vm::Connection c(uri());
    return c.active_domains(prefix);
  }

 private:
  fs::path dir_;
  int port_;
  pid_t pid_ = -1;
  bool up_ = false;
};

/// The matrix of this test: three 1-vCPU cells (xfs with the default and with 4 allocation
/// groups, ext4) on `uri` only, budget 1 so they run one after the other.
std::string restart_matrix(const std::string& uri) {
  std::string m = matrix_text("    - fs: xfs\n"
                              "      mkfs: [[], [-d, agcount=4]]\n"
                              "    - fs: ext4\n",
                              1);
  const std::string local = "  - {uri: \"qemu:///system\", vcpus: 1}\n";
  m.replace(m.find(local), local.size(), "  - {uri: \"" + uri + "\", vcpus: 1}\n");
  return m;
}

/// Whether a QEMU process of a domain starting with `prefix` still runs (any namespace).
bool qemu_left(const std::string& prefix) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmd.find("qemu-system") != std::string::npos &&
        cmd.find("guest=" + prefix) != std::string::npos)
      return true;
  }
  return false;
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(RealLibvirtdRestart, RestartMidRunKeepsEverythingAndResumeFinishesWithoutLeaks) {
  Lab lab("restart", "");
  RestartableLibvirtd daemon(lab.dir / "libvirtd");
  ASSERT_TRUE(daemon.up()) << daemon.log();
  ASSERT_TRUE(daemon.domains("rlab-").empty()) << "a fresh daemon has no guest";
  std::ofstream(lab.matrix) << restart_matrix(daemon.uri());
  const auto agent = plain_agent().string();
  const auto t0 = std::chrono::steady_clock::now();
  std::string done_before;
  int code = -1;
  std::string log;
  {
    Rlab rlab({"run", lab.matrix.string(), "--agent", agent}, lab.dir / "run.log");
    // The first cell is done and the second guest is measuring: restart the daemon under it.
    ASSERT_TRUE(wait_for(lab.db, "SELECT count(*) FROM boots WHERE status = 'done'", 900s))
        << rlab.log_tail();
    ASSERT_TRUE(wait_for(lab.db,
                         "SELECT count(*) FROM samples s JOIN boots b ON b.id = s.boot_id "
                         "WHERE b.status = 'running'",
                         300s))
        << rlab.log_tail();
    done_before = query(lab.db, "SELECT boot_id || ' ' || score FROM results");
    const auto running = query(lab.db, "SELECT id FROM boots WHERE status = 'running'");
    daemon.stop();
    ASSERT_TRUE(qemu_left(domain_prefix(1, lab.db))) << "SIGTERM leaves the guest running";
    ASSERT_TRUE(daemon.start()) << daemon.log();
    // The daemon came back with its guest: it reconnected to the running QEMU.
    EXPECT_EQ(daemon.domains(domain_prefix(1, lab.db)).size(), 1u) << daemon.log();
    code = rlab.wait(300s);
    log = rlab.log_tail(80);
    // The guest under the restart finished its pass over its own agent link.
    EXPECT_EQ(query(lab.db, "SELECT status FROM boots WHERE id = " + running), "done") << log;
  }
  std::printf("restart: first run ended with %d after %.0f s\n", code, since(t0));
  // rlab's connection died with the daemon: the next boot could not be created, the only host
  // is drained, the run is the lab's failure (exit 3) with everything measured kept.
  EXPECT_EQ(code, 3) << log;
  EXPECT_NE(log.find("every host was drained"), std::string::npos) << log;
  EXPECT_NE(log.find(daemon.uri()), std::string::npos) << log;
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM boots WHERE status = 'done'"), "2") << log;
  ASSERT_FALSE(done_before.empty());
  EXPECT_NE(query(lab.db, "SELECT group_concat(boot_id || ' ' || score, ',') FROM results")
                .find(done_before),
            std::string::npos);
  EXPECT_EQ(query(lab.db, "PRAGMA integrity_check"), "ok");
  // The guest under the restart was told to power off and does so on its own (rlab's dead
  // connection cannot wait for it): gone from the daemon within seconds.
  bool gone = false;
  for (int i = 0; i < 60 && !gone; ++i, std::this_thread::sleep_for(500ms))
    gone = daemon.domains(domain_prefix(1, lab.db)).empty() && !qemu_left(domain_prefix(1, lab.db));
  EXPECT_TRUE(gone) << "no guest left after the run";

  // With the daemon back, --resume runs only the boot that did not run.
  auto [rcode, out] = run_rlab({"run", "--resume", "1", "--retry-failed", lab.matrix.string(),
                                "--agent", agent},
                               600s);
  EXPECT_EQ(rcode, 0) << rlab::util::tail(out, 60);
  EXPECT_NE(out.find("run 1: 1 boots"), std::string::npos) << "only the missing cell runs\n" << out;
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 1"), "done");
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM boots WHERE status = 'done'"), "3");
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM results"), "3");
  EXPECT_NE(query(lab.db, "SELECT group_concat(boot_id || ' ' || score, ',') FROM results")
                .find(done_before),
            std::string::npos)
      << "the result stored before the restart is kept as it was";

  // Nothing leaks: no domain or QEMU of the run, no disk or agent socket, integrity ok.
  EXPECT_TRUE(daemon.domains(domain_prefix(1, lab.db)).empty());
  EXPECT_FALSE(qemu_left(domain_prefix(1, lab.db)));
  expect_no_leaks(lab.db, 1);
  std::printf("libvirtd restart + resume: %.0f s wall\n", since(t0));
}
