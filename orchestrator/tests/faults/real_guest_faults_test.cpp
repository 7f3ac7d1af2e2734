// Guest-side faults, each in its own real `rlab run` (shared libvirtd, 64K 6.12 TCG guests,
// 1 vCPU, shell1 one 8 s pass) of two cells side by side: an xfs cell that must complete and
// an ext4 cell whose disk label names its fault. The fault agent (data/fault_agent.c) panics
// the kernel of an rlab-panic cell and kills the agent of an rlab-crash cell 6 s into the
// load; for the hang the test SIGSTOPs the QEMU of the ext4 cell once it has sent samples.
// The faulty cell must fail with its cause and keep what it stored; nothing else may suffer
// and nothing may leak.
#include "fault_lab.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdio>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace rlab::faults;

namespace {

/// Per-cell query on run 1: `column` of the boot whose cell's mkfs label is `label`.
std::string cell_sql(const std::string& column, const std::string& label) {
  return "SELECT " + column +
         " FROM boots b JOIN cells c ON c.id = b.cell_id LEFT JOIN failures f ON f.boot_id = b.id"
         " WHERE c.mkfs_label = '" + label + "'";
}

std::string samples_sql(const std::string& label) {
  return "SELECT count(*) FROM samples s JOIN boots b ON b.id = s.boot_id JOIN cells c ON "
         "c.id = b.cell_id WHERE c.mkfs_label = '" + label + "'";
}

/// Runs the xfs cell and the ext4 cell labelled rlab-<label> with the fault agent; with
/// `sigstop`, stops the ext4 guest's QEMU once it has sent samples. Checks what every guest
/// fault must leave: exit 1, run "failed", the xfs cell done with a score, the faulty cell
/// failed with its samples kept, nothing leaked. Returns the faulty cell's failure message.
std::string run_fault(Lab& lab, const std::string& label, bool sigstop) {
  ensure_libvirtd();
  const auto t0 = std::chrono::steady_clock::now();
  Rlab rlab({"run", lab.matrix.string(), "--agent", fault_agent(lab.dir).string()},
            lab.dir / "rlab.log");
  if (sigstop) {
    EXPECT_TRUE(wait_for(lab.db, samples_sql(label), 900s)) << rlab.log_tail();
    auto dom = wait_domain(lab.db, "ext4-" + label, 10s);
    auto pid = dom ? qemu_pid(*dom) : std::nullopt;
    EXPECT_TRUE(pid && ::kill(*pid, SIGSTOP) == 0) << "cannot stop the guest's QEMU";
  }
  const int code = rlab.wait(1200s);
  const auto log = rlab.log_tail(80);
  std::printf("%s fault run: %.0f s wall\n", label.c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  EXPECT_EQ(code, 1) << "exit 1: some boots failed\n" << log;
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 1"), "failed");
  EXPECT_EQ(query(lab.db, cell_sql("b.status", "defaults")), "done") << log;
  EXPECT_EQ(query(lab.db, cell_sql("(SELECT score FROM results r WHERE r.boot_id = b.id) > 0",
                                   "defaults")),
            "1");
  EXPECT_EQ(query(lab.db, cell_sql("b.status", label)), "failed") << log;
  EXPECT_NE(query(lab.db, samples_sql(label)), "0") << "samples sent before the fault are kept";
  expect_no_leaks(lab.db, 1);
  return query(lab.db, cell_sql("f.phase || ': ' || f.message", label));
}

/// The xfs cell and the ext4 cell labelled rlab-<label>, side by side; `liveness_timeout_s`
/// the host's (0: the default, 30 s).
std::string matrix_for(const std::string& label, unsigned liveness_timeout_s = 0) {
  auto m = fault_matrix({"xfs", "{fs: ext4, mkfs: [{label: " + label + ", options: [-L, rlab-" + label + "]}]}"});
  m.liveness_timeout_s = liveness_timeout_s;
  return rlab::testing::small_matrix(m);
}

}  // namespace

TEST(RealGuestFaults, KernelPanicFailsOnlyItsCellWithTheConsoleTail) {
  Lab lab("panic", matrix_for("panic"));
  const auto msg = run_fault(lab, "panic", false);
  EXPECT_NE(msg.find("guest kernel panic: sysrq triggered crash"), std::string::npos) << msg;
  const auto tail = query(lab.db, cell_sql("f.console_tail", "panic"));
  EXPECT_NE(tail.find("Kernel panic - not syncing"), std::string::npos) << tail;
}

TEST(RealGuestFaults, AgentCrashFailsOnlyItsCellWithItsCause) {
  Lab lab("crash", matrix_for("crash"));
  const auto msg = run_fault(lab, "crash", false);
  EXPECT_NE(msg.find("the agent (PID 1) died"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Attempted to kill init"), std::string::npos) << msg;
  const auto tail = query(lab.db, cell_sql("f.console_tail", "crash"));
  EXPECT_NE(tail.find("rlab-agent killed by signal 11"), std::string::npos) << tail;
}

// The host's liveness_timeout_s at 10 s: 10 s of silence, then a probe unanswered for 10 s
// (the default waits 30 + 30 s). The fault matrices' guests run in real time (the default
// clock), so the host seconds are exactly these.
TEST(RealGuestFaults, HungGuestIsDestroyedAfterTheLivenessTimeout) {
  Lab lab("hang", matrix_for("hang", 10));
  const auto msg = run_fault(lab, "hang", true);
  EXPECT_EQ(msg.rfind("timeout: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("liveness probe unanswered"), std::string::npos) << msg;
  const auto at = msg.find(" s without a message");
  ASSERT_NE(at, std::string::npos) << msg;
  const auto open = msg.rfind('(', at);
  const int waited = std::stoi(msg.substr(open + 1, at - open - 1));
  EXPECT_EQ(waited, 20) << "twice the host's liveness_timeout_s: " << msg;
}
