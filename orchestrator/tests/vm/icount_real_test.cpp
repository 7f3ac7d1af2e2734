// Deterministic mode against the real thing: a 64K 6.12 guest booted through libvirt from
// rlab's domain XML with icount_shift set runs in a QEMU process that really has
// `-icount shift=N,sleep=off` (live domain XML and /proc/<pid>/cmdline), and its agent's
// hello arrives on the channel. Needs the cached 6.12 kernel (matrix.yaml) and the agent.
#include "image/guest_images.hpp"
#include "link/agent_session.hpp"
#include "matrix/matrix.hpp"
#include "run/run_dir.hpp"
#include "util/process.hpp"
#include "vm/disk.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <libvirt/libvirt.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

/// The command line of the QEMU process running domain `name` (libvirt names it with
/// `-name guest=<name>,...`), NUL separators turned into spaces; "" when none is found.
std::string qemu_cmdline(const std::string& name) {
  const std::string tag = "guest=" + name + ",";
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    if (!in) continue;
    std::stringstream ss;
    ss << in.rdbuf();
    std::string c = ss.str();
    if (c.find("qemu-system-aarch64") == std::string::npos || c.find(tag) == std::string::npos)
      continue;
    for (char& ch : c)
      if (ch == '\0') ch = ' ';
    return c;
  }
  return "";
}

std::string live_xml(rlab::vm::Connection& conn, const std::string& name) {
  virDomainPtr d = virDomainLookupByName(static_cast<virConnectPtr>(conn.raw()), name.c_str());
  if (!d) return "";
  char* x = virDomainGetXMLDesc(d, 0);
  std::string out = x ? x : "";
  free(x);
  virDomainFree(d);
  return out;
}

}  // namespace

TEST(RealIcount, GuestBootsWithIcountAndTheAgentSaysHello) {
  ASSERT_TRUE(rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"}).ok());
  auto m = rlab::matrix::load_matrix(fs::path(RLAB_SOURCE_DIR) / "matrix.yaml");
  auto built = rlab::image::ensure_guest_images(m.kernels.at("6.12"),
                                                rlab::image::default_agent_binary());
  rlab::vm::Connection conn("qemu:///system");
  fs::path root = fs::path("/var/tmp") / ("rlab-icount-" + std::to_string(getpid()));
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
  rlab::run::RunDir dir(root / "rlab.db", 1, conn.qemu_owner());
  const auto img = dir.stage(built);
  const fs::path bd = dir.boot_dir(1);

  rlab::vm::DomainSpec s;
  s.name = rlab::vm::domain_name("icount" + std::to_string(getpid()), "6.12/xfs/2vcpu");
  s.vcpus = 2;
  s.memory_mib = 1024;
  s.kernel = img.kernel_image;
  s.initramfs = img.initramfs;
  s.cmdline = "console=ttyAMA0 panic=-1";
  s.console_log = bd / "console.log";
  s.agent_socket = bd / "agent.sock";
  s.disk = bd / "fs.raw";
  s.icount_shift = 2;
  rlab::vm::create_sparse_disk(s.disk, 2ull << 30);
  auto d = conn.create_transient(rlab::vm::domain_xml(s));

  const std::string xml = live_xml(conn, s.name);
  EXPECT_NE(xml.find("<qemu:arg value='-icount'/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<qemu:arg value='shift=2,sleep=off'/>"), std::string::npos) << xml;
  const std::string cmd = qemu_cmdline(s.name);
  EXPECT_NE(cmd.find(" -icount shift=2,sleep=off"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(" -global max-arm-cpu.pauth=off"), std::string::npos) << cmd;

  boost::asio::io_context io;
  rlab::link::AgentSession session(io);
  session.connect(s.agent_socket, 60s);
  const auto hello = session.wait_hello(300s);
  EXPECT_EQ(hello.page_size, 65536u);
  EXPECT_EQ(hello.nr_cpus, 2u) << "both vCPUs come up under single-threaded icount TCG";
  d.destroy();
  EXPECT_FALSE(d.is_active());
  fs::remove_all(root);
}
