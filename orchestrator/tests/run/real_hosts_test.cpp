// Many hosts on the real stack: the machine's libvirtd (qemu:///system) plus a second, private
// libvirtd reached over TCP on loopback (qemu+tcp://127.0.0.1:<port>/system) as a remote host
// would be. Cells spread over both; a host that dies under a boot is drained and the boot
// runs on the other; a run whose hosts never answer is a lab error that keeps its boots.
#include "image/guest_images.hpp"
#include "private_libvirtd.hpp"
#include "run/run.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"
#include "real_lab.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include "sql.hpp"
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;


namespace {

using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

using rlab::testing::PrivateLibvirtd;

int free_port() { return rlab::testing::free_loopback_port(); }

std::string tcp_uri(int port) { return "qemu+tcp://127.0.0.1:" + std::to_string(port) + "/system"; }

/// Two 1-vCPU cells (xfs, ext4) of the cached 64K 6.12 kernel, a short shell1 pass, on `hosts`.
std::string matrix_text(const std::vector<std::pair<std::string, unsigned>>& hosts) {
  rlab::testing::SmallMatrix m;
  m.filesystems = {"xfs", "ext4"};
  for (const auto& [uri, budget] : hosts) m.hosts.emplace_back(uri, budget, "");
  return rlab::testing::small_matrix(m);
}

struct Fixture : rlab::testing::RunDir {
  explicit Fixture(const char* name) : RunDir(std::string("hosts-") + name) {}
};

/// One row per boot of the store's latest run: status, attempts, host_uri.
struct BootRow {
  std::string status;
  long attempts = 0;
  std::string host;
};
std::map<long, BootRow> boot_rows(const fs::path& db) {
  std::map<long, BootRow> out;
  if (!fs::exists(db)) return out;
  try {
    for (const auto& r : rlab::test::sql_rows(db,
             "SELECT b.id, b.status, b.attempts, COALESCE(b.host_uri, '') FROM boots b"
             " JOIN cells c ON c.id = b.cell_id WHERE c.run_id = (SELECT MAX(id) FROM runs)"))
      out[std::stol(r[0])] = {r[1], std::stol(r[2]), r[3]};
  } catch (const std::runtime_error&) {
    // the run has not made its tables yet
  }
  return out;
}

/// "phase: message" of every stored failure of `boot`, oldest first.
std::vector<std::string> failures(const fs::path& db, long boot) {
  return rlab::test::sql_column(db, "SELECT phase || ': ' || message FROM failures WHERE boot_id = " +
                                        std::to_string(boot) + " ORDER BY id");
}

/// Whether a boot running on `uri` has had its agent's hello (the guest is up and measuring);
/// false while the store or its tables are not there yet.
bool hello_on(const fs::path& db, const std::string& uri) {
  try {
    return rlab::test::sql_column(db, "SELECT COUNT(*) FROM boots WHERE host_uri = '" + uri +
                                          "' AND status = 'running' AND guest_page_size IS NOT NULL")
               .at(0) != "0";
  } catch (const std::exception&) {
    return false;
  }
}

/// Waits until the guest of a boot on `daemon`'s host has said hello (stored in `db`), then
/// kills the daemon and that guest's QEMU (a machine that lost power). Returns the guest's
/// domain name ("" when none came within 30 minutes) and sets `qemu` to its pid.
std::string kill_host_under_guest(PrivateLibvirtd& daemon, const fs::path& db, pid_t& qemu) {
  std::string victim;
  for (auto until = std::chrono::steady_clock::now() + 1800s;
       victim.empty() && std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(200ms)) {
    if (!hello_on(db, daemon.uri())) continue;
    try {
      auto names = daemon.domains("rlab-");
      if (!names.empty()) victim = names.front();
    } catch (const std::exception&) {
      break;
    }
  }
  qemu = victim.empty() ? -1 : daemon.qemu_pid(victim);
  daemon.stop(SIGKILL);
  if (qemu > 0) ::kill(qemu, SIGKILL);
  return victim;
}

void ensure_libvirtd() {
  auto r = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(r.ok()) << r.output;
}

}  // namespace

TEST(RealHosts, CellsSpreadOverTheLocalAndATcpHost) {
  ensure_libvirtd();
  Fixture f("spread");
  PrivateLibvirtd second(f.dir / "libvirtd");
  ASSERT_TRUE(second.up()) << second.log();
  f.write(matrix_text({{"qemu:///system", 1}, {second.uri(), 1}}));
  auto agent = agent_binary();
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);  // a first kernel build when not cached
  o.echo = true;
  auto r = rlab::util::run(rlab_argv({"run", f.matrix.string(), "--agent", agent.string()}), o);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);

  // Budget 1 on each host and two 1-vCPU cells: one cell on each host, both measured.
  auto rows = boot_rows(f.dir / "rlab.db");
  ASSERT_EQ(rows.size(), 2u);
  std::set<std::string> hosts;
  for (const auto& [id, b] : rows) {
    EXPECT_EQ(b.status, "done") << "boot " << id << ": " << ::testing::PrintToString(failures(f.dir / "rlab.db", id));
    EXPECT_EQ(b.attempts, 1);
    hosts.insert(b.host);
  }
  EXPECT_EQ(hosts, (std::set<std::string>{"qemu:///system", second.uri()}));
  EXPECT_EQ(r.output.find("drained"), std::string::npos) << "no host failed";
  EXPECT_TRUE(second.domains("rlab-").empty()) << "no guest left on the TCP host";
}

TEST(RealHosts, HostGoneUnderABootIsDrainedAndTheBootRunsOnTheOtherHost) {
  ensure_libvirtd();
  Fixture f("drain");
  PrivateLibvirtd second(f.dir / "libvirtd");
  ASSERT_TRUE(second.up()) << second.log();
  const std::string gone = second.uri();
  // The TCP host first: the first cell starts there.
  f.write(matrix_text({{gone, 1}, {"qemu:///system", 1}}));
  auto agent = agent_binary();
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);
  o.echo = true;
  rlab::util::ProcessResult r;
  std::thread runner([&] {
    r = rlab::util::run(rlab_argv({"run", f.matrix.string(), "--agent", agent.string()}), o);
  });

  // Once the guest on the TCP host has said hello, that host dies. The boot then fails in the
  // guest's phase, and the host no longer answering makes it the host's failure.
  pid_t qemu = -1;
  const std::string victim = kill_host_under_guest(second, f.dir / "rlab.db", qemu);
  runner.join();
  ASSERT_FALSE(victim.empty()) << "no guest ever started on the TCP host\n" << rlab::util::tail(r.output, 60);
  ASSERT_GT(qemu, 0) << "the guest's QEMU pid was not found";

  // Every cell measured (exit 0), the boot moved to the local host, the drained host named.
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 80);
  EXPECT_NE(r.output.find("host " + gone + " was drained"), std::string::npos)
      << rlab::util::tail(r.output, 30);
  auto rows = boot_rows(f.dir / "rlab.db");
  ASSERT_EQ(rows.size(), 2u);
  int moved = 0;
  for (const auto& [id, b] : rows) {
    auto fails = failures(f.dir / "rlab.db", id);
    EXPECT_EQ(b.status, "done") << "boot " << id << ": " << ::testing::PrintToString(fails);
    EXPECT_EQ(b.host, "qemu:///system") << "boot " << id << " ended on the host that is left";
    if (b.attempts == 2) {
      ++moved;
      // Nothing hidden: the failed attempt and the drain are stored with the boot.
      ASSERT_GE(fails.size(), 2u);
      // The channel ended with the host's connection: no phase waited for its timeout.
      EXPECT_EQ(fails.front().find("did not answer in time"), std::string::npos) << fails.front();
      EXPECT_EQ(fails.back().rfind("host: host " + gone + " drained: libvirt stopped answering", 0), 0u)
          << fails.back();
    }
  }
  EXPECT_EQ(moved, 1) << "exactly the boot on the dead host ran twice";
  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  const auto run = *st->latest_run();
  EXPECT_EQ(st->run(run)->status, rlab::store::RunStatus::done);
  // The machine's libvirtd has none of the run's guests left.
  rlab::vm::Connection local("qemu:///system");
  EXPECT_TRUE(local.active_domains(rlab::vm::domain_name(rlab::run::run_label(run, f.dir / "rlab.db"), "")).empty());
}

TEST(RealHosts, NoHostAnsweringIsALabErrorThatKeepsTheRunForResume) {
  Fixture f("none");
  const int port = free_port();  // nothing listens there
  f.write(matrix_text({{tcp_uri(port), 2}}));
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(120);
  auto r = rlab::util::run(rlab_argv({"run", f.matrix.string()}), o);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find(tcp_uri(port)), std::string::npos) << "the error names the host\n" << r.output;
  EXPECT_NE(r.output.find("no host answers"), std::string::npos) << r.output;
  // The run and its boots are stored, untouched, for `rlab run --resume`.
  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  auto run = st->latest_run();
  ASSERT_TRUE(run);
  EXPECT_EQ(st->run(*run)->status, rlab::store::RunStatus::failed);
  EXPECT_EQ(st->unfinished_boots(*run).size(), 2u);
}

TEST(RealHosts, EveryHostDrainedMidRunStopsWithALabErrorAndKeepsTheRest) {
  ensure_libvirtd();
  Fixture f("alldrained");
  PrivateLibvirtd only(f.dir / "libvirtd");
  ASSERT_TRUE(only.up()) << only.log();
  f.write(matrix_text({{only.uri(), 1}}));
  auto agent = agent_binary();
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);
  o.echo = true;
  rlab::util::ProcessResult r;
  std::thread runner([&] {
    r = rlab::util::run(rlab_argv({"run", f.matrix.string(), "--agent", agent.string()}), o);
  });
  pid_t qemu = -1;
  const std::string victim = kill_host_under_guest(only, f.dir / "rlab.db", qemu);
  runner.join();
  ASSERT_FALSE(victim.empty()) << rlab::util::tail(r.output, 60);

  // The only host is gone: a lab failure, the host named, the second cell never started.
  EXPECT_EQ(r.exit_code, 3) << rlab::util::tail(r.output, 60);
  EXPECT_NE(r.output.find("every host was drained"), std::string::npos) << rlab::util::tail(r.output, 30);
  EXPECT_NE(r.output.find(only.uri()), std::string::npos);
  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  const auto run = *st->latest_run();
  EXPECT_EQ(st->run(run)->status, rlab::store::RunStatus::failed);
  // Kept for `--resume`: the boot that was on the host (failed, with the host row) and the
  // one never started (pending).
  EXPECT_EQ(st->unfinished_boots(run).size(), 1u) << "one boot still pending";
  EXPECT_EQ(st->unfinished_boots(run, true).size(), 2u) << "and the failed one with --retry-failed";
  auto rows = boot_rows(f.dir / "rlab.db");
  int failed = 0;
  for (const auto& [id, b] : rows)
    if (b.status == "failed") {
      ++failed;
      auto fails = failures(f.dir / "rlab.db", id);
      ASSERT_FALSE(fails.empty());
      EXPECT_EQ(fails.back().rfind("host: host " + only.uri() + " drained", 0), 0u) << fails.back();
    }
  EXPECT_EQ(failed, 1);
}

TEST(RealHosts, ACellNoHostCanRunIsRefusedBeforeAnythingIsBuilt) {
  ensure_libvirtd();
  Fixture f("unrunnable");
  // A CPU model no QEMU offers: this machine's libvirt says which it has.
  std::string text = matrix_text({{"qemu:///system", 2}});
  const std::string guest = "guest: {memory_mib: 1024, cpu: auto, accel: auto, disk_gib: 2}";
  ASSERT_NE(text.find(guest), std::string::npos);
  text.replace(text.find(guest), guest.size(), "guest: {memory_mib: 1024, cpu: no-such-cpu, accel: tcg, disk_gib: 2}");
  f.write(text);
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(120);
  o.env = {{"RLAB_CACHE_DIR", (f.dir / "empty-cache").string()}};  // a build would show here
  auto r = rlab::util::run(rlab_argv({"run", f.matrix.string()}), o);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("2 of 2 cells can run on none of the matrix's hosts"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cell 6.12/xfs-defaults/1vcpu/shell1: no host can run it"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("qemu:///system: CPU model 'no-such-cpu', which the host's QEMU"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(f.dir / "empty-cache" / "kernels")) << "nothing was built";
  // The dry run shows the same and exits as the run would.
  auto d = rlab::util::run(rlab_argv({"run", "--dry-run", f.matrix.string()}), o);
  EXPECT_EQ(d.exit_code, 2) << d.output;
  EXPECT_NE(d.output.find("NO HOST can run 6.12/xfs-defaults/1vcpu/shell1"), std::string::npos) << d.output;
  EXPECT_NE(d.output.find("not 6.12/ext4-defaults/1vcpu/shell1: CPU model 'no-such-cpu'"), std::string::npos) << d.output;
  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  const auto run = st->latest_run();
  ASSERT_TRUE(run);
  EXPECT_EQ(st->run(*run)->status, rlab::store::RunStatus::failed);
  EXPECT_EQ(st->unfinished_boots(*run).size(), 2u) << "no boot started";
}

TEST(RealHosts, AMissingPoolIsAConfigurationErrorBeforeAnyBoot) {
  ensure_libvirtd();
  Fixture f("nopool");
  std::string text = matrix_text({{"qemu:///system", 2}});
  const std::string host = "  - {uri: \"qemu:///system\", vcpus: 2}";
  ASSERT_NE(text.find(host), std::string::npos) << text;
  text.replace(text.find(host), host.size(),
               "  - {uri: \"qemu:///system\", vcpus: 2, agent_link: libvirt, files: volumes, pool: rlab-no-such-pool}");
  f.write(text);
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(120);
  o.env = {{"RLAB_CACHE_DIR", (f.dir / "empty-cache").string()}};
  auto d = rlab::util::run(rlab_argv({"run", "--dry-run", f.matrix.string()}), o);
  EXPECT_EQ(d.exit_code, 2) << d.output;
  EXPECT_NE(d.output.find("CANNOT TAKE FILES: host qemu:///system: no storage pool 'rlab-no-such-pool'"), std::string::npos)
      << d.output;
  EXPECT_NE(d.output.find(" CPUs, "), std::string::npos) << "the host's capabilities are still shown: " << d.output;
  auto r = rlab::util::run(rlab_argv({"run", f.matrix.string()}), o);
  EXPECT_EQ(r.exit_code, 2) << "a typo in the pool is bad input, not a dead host: " << r.output;
  EXPECT_NE(r.output.find("virsh -c qemu:///system pool-define-as rlab-no-such-pool dir"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("drained"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(f.dir / "empty-cache" / "kernels")) << "nothing was built";
  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  EXPECT_EQ(st->unfinished_boots(*st->latest_run()).size(), 2u) << "no boot started";
}
