// libvirtd restarted mid-run, against the real stack: a private libvirtd (its own mount
// namespace and config, orchestrator/tests/run/data/private-libvirtd.sh) whose /run/libvirt,
// /var/lib/libvirt and /var/cache/libvirt are bind-mounted from the test's directory, so the
// daemon started again reconnects to the QEMU it left running. Three 64K 6.12 TCG cells
// (1 vCPU, shell1 one 8 s pass) run one after the other on it; while the second guest
// measures, the daemon gets SIGTERM and is started again (tests/support/private_libvirtd.hpp);
// rlab reopens its connection and the run goes on. The machine's libvirtd is never touched.
// A long test (RLAB_LONG_TESTS=1): the default tier restarts a lab's libvirtd under a run in
// night 3 of RealSoak.ThreeNights, which checks the same: the night ends, nothing is leaked.
#include "fault_lab.hpp"
#include "private_libvirtd.hpp"

#include "util/process.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>


namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace rlab::faults;

namespace {

/// The matrix of this test: three 1-vCPU cells (xfs with the default and with 4 allocation
/// groups, ext4) on `uri` only, budget 1 so they run one after the other.
std::string restart_matrix(const std::string& uri) {
  std::string m = matrix_text({"{fs: xfs, mkfs: [[], [-d, agcount=4]]}", "ext4"}, 1);
  const std::string local = "  - {uri: \"qemu:///system\", vcpus: 1}\n";
  // QEMU runs on this machine: the agent's socket, which (unlike libvirt's stream) outlives
  // the daemon.
  m.replace(m.find(local), local.size(), "  - {uri: \"" + uri + "\", vcpus: 1, agent_link: socket}\n");
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

TEST(RealLibvirtdRestart, RunGoesOnAcrossARestartWithNothingLostOrLeaked) {
  Lab lab("restart", "");
  rlab::testing::PrivateLibvirtd daemon(lab.dir / "libvirtd", /*keep_state=*/true);
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
  std::printf("restart: run ended with %d after %.0f s\n", code, since(t0));
  // rlab reopened its connection to the restarted daemon: the run went on as if nothing had
  // happened — every boot measured, no host drained, exit 0.
  EXPECT_EQ(code, 0) << log;
  EXPECT_NE(log.find("reopened"), std::string::npos) << log;
  EXPECT_EQ(log.find("drained"), std::string::npos) << log;
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 1"), "done");
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM boots WHERE status = 'done'"), "3") << log;
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM results"), "3");
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM failures"), "0")
      << query(lab.db, "SELECT group_concat(phase || ': ' || message, char(10)) FROM failures");
  EXPECT_EQ(query(lab.db, "SELECT max(attempts) FROM boots"), "1") << "no boot had to move";
  ASSERT_FALSE(done_before.empty());
  EXPECT_NE(query(lab.db, "SELECT group_concat(boot_id || ' ' || score, ',') FROM results")
                .find(done_before),
            std::string::npos)
      << "the result stored before the restart is kept as it was";
  EXPECT_EQ(query(lab.db, "PRAGMA integrity_check"), "ok");

  // Nothing leaks: no domain or QEMU of the run, no disk or agent socket, integrity ok.
  EXPECT_TRUE(daemon.domains(domain_prefix(1, lab.db)).empty());
  EXPECT_FALSE(qemu_left(domain_prefix(1, lab.db)));
  expect_no_leaks(lab.db, 1);
  std::printf("libvirtd restart: %.0f s wall\n", since(t0));
}
