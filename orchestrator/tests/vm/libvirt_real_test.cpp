// The VM layer against the real libvirtd (started by scripts/start-libvirtd.sh when needed):
// a transient domain from our XML starts (so QEMU accepts every option, including
// -global max-arm-cpu.pauth=off), is listed, logs its console, and is destroyed.
#include "loopback_port.hpp"
#include "private_libvirtd.hpp"
#include "util/process.hpp"
#include "vm/disk.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
using namespace rlab::vm;

namespace {
void ensure_libvirtd() {
  auto r = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(r.ok()) << r.output;
}
}  // namespace

TEST(RealLibvirt, TransientDomainStartsListsAndIsDestroyed) {
  ensure_libvirtd();
  // QEMU runs as its own user: the directory must be reachable by others.
  fs::path dir = fs::path("/var/tmp") / ("rlab-vm-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::all);
  // Not a kernel: the guest executes garbage, but QEMU and libvirt do not care, and the
  // test needs no kernel build. Boots of real kernels are tested in tests/run.
  std::ofstream(dir / "Image") << std::string(4096, '\0');
  std::ofstream(dir / "initramfs") << "070701";
  create_sparse_disk(dir / "fs.raw", 64ull << 20);
  EXPECT_EQ(fs::file_size(dir / "fs.raw"), 64ull << 20);

  Connection conn("qemu:///system");
  auto owner = conn.qemu_owner();
  ASSERT_TRUE(owner.has_value());

  DomainSpec s;
  s.name = domain_name("test" + std::to_string(getpid()), "lifecycle/xfs/2vcpu");
  s.vcpus = 2;
  s.memory_mib = 256;
  s.kernel = dir / "Image";
  s.initramfs = dir / "initramfs";
  s.cmdline = "console=ttyAMA0";
  s.console_log = dir / "console.log";
  s.agent_socket = dir / "agent.sock";
  s.disk = dir / "fs.raw";
  Domain d = conn.create_transient(domain_xml(s));
  EXPECT_EQ(d.name(), s.name);
  EXPECT_TRUE(d.is_active());
  auto listed = conn.active_domains(kDomainPrefix);
  EXPECT_NE(std::find(listed.begin(), listed.end(), s.name), listed.end());
  EXPECT_TRUE(fs::exists(s.agent_socket)) << "QEMU listens on the agent channel's socket";
  EXPECT_TRUE(fs::exists(s.console_log));
  d.destroy();
  EXPECT_FALSE(d.is_active());
  d.destroy();  // idempotent
  listed = conn.active_domains(s.name);
  EXPECT_TRUE(listed.empty());
  // A transient domain leaves no definition behind.
  EXPECT_FALSE(conn.destroy_by_name(s.name));
  fs::remove_all(dir);
}

TEST(RealLibvirt, BadXmlIsALibvirtErrorWithItsMessage) {
  ensure_libvirtd();
  Connection conn("qemu:///system");
  try {
    conn.create_transient("<domain type='qemu'><name>rlab-bad</name></domain>");
    FAIL() << "libvirt accepted a domain without memory or os";
  } catch (const LibvirtError& e) {
    const std::string m = e.what();
    const auto at = m.find("cannot start domain: ");
    ASSERT_NE(at, std::string::npos) << m;
    EXPECT_GT(m.size(), at + 21) << "libvirt's own reason follows (the liveness check after a failed call "
                                    "must not erase it): " << m;
  }
}

TEST(RealLibvirt, UnreachableUriNamesIt) {
  try {
    Connection conn("qemu+unix:///system?socket=/nonexistent/libvirt-sock");
    FAIL();
  } catch (const LibvirtError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/libvirt-sock"), std::string::npos);
  }
}

TEST(RealLibvirt, AHostThatStaysGoneCostsOneGraceNotOnePerCall) {
  const fs::path dir = fs::path("/var/tmp") / ("rlab-gone-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  {
    rlab::testing::PrivateLibvirtd daemon(dir, /*keep_state=*/true);
    ASSERT_TRUE(daemon.up()) << daemon.log();
    rlab::vm::Connection conn(daemon.uri(), std::chrono::seconds(3));
    EXPECT_NO_THROW(conn.active_domains("rlab-"));
    daemon.stop();
    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    EXPECT_THROW(conn.active_domains("rlab-"), rlab::vm::LibvirtError);
    const double first = std::chrono::duration<double>(Clock::now() - t0).count();
    EXPECT_GE(first, 2.5) << "the first call waits the grace for a restart";
    t0 = Clock::now();
    for (int i = 0; i < 5; ++i) EXPECT_THROW(conn.active_domains("rlab-"), rlab::vm::LibvirtError);
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 1.0) << "later calls fail at once";
    // Back after the grace: the next call tries once and reconnects.
    ASSERT_TRUE(daemon.start()) << daemon.log();
    std::this_thread::sleep_for(std::chrono::seconds(3));
    EXPECT_NO_THROW(conn.active_domains("rlab-"));
    EXPECT_EQ(conn.reopens(), 1u);
  }
  fs::remove_all(dir);
}

TEST(RealLibvirt, AHostThatNeverAnswersIsGivenUpAfterTheConnectTimeout) {
  // A TCP port that completes the handshake and then says nothing (never accepted): libvirt's
  // first call waits for an answer that never comes, as over a hung ssh.
  const rlab::testing::SilentListener silent;
  ASSERT_GT(silent.port, 0);
  const std::string uri = "qemu+tcp://127.0.0.1:" + std::to_string(silent.port) + "/system";
  const auto t0 = std::chrono::steady_clock::now();
  try {
    rlab::vm::Connection c(uri, std::chrono::seconds(30), std::chrono::seconds(2));
    FAIL() << "connected to a silent port";
  } catch (const rlab::vm::LibvirtError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot connect to '" + uri + "': no answer within 2 s"), std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("start-libvirtd.sh"), std::string::npos) << "no local hint for a remote host";
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(s, 1.9);
  EXPECT_LT(s, 10.0);
}
