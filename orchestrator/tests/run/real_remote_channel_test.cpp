// The agent link through libvirt (hosts[].agent_link: libvirt, vm/channel.hpp) on the real
// stack: a private libvirtd reached as qemu+tcp://127.0.0.1:<port>/system stands for another
// machine. Its /var/lib/libvirt is a tmpfs of its own mount namespace, so the unix socket
// libvirt binds for the channel there cannot be reached from rlab's side at all: what the
// agents say reaches rlab only through virDomainOpenChannel on the TCP connection.
#include "image/guest_images.hpp"
#include "link/agent_link.hpp"
#include "private_libvirtd.hpp"
#include "run/boot.hpp"
#include "run/run_dir.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rlab::testing::PrivateLibvirtd;

namespace {

using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

struct ChannelFixture : rlab::testing::RunDir {
  explicit ChannelFixture(const char* name) : RunDir(std::string("channel-") + name) {}
};

std::size_t count_entries(const char* dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

/// Waits up to 10 s for /proc/self/`what` to hold `n` entries; returns the last count.
/// What this process's descriptors are (readlink of each), for a failure message.
std::string fd_targets() {
  std::string out;
  for (const auto& e : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    out += " " + e.path().filename().string() + "->" + fs::read_symlink(e.path(), ec).string();
  }
  return out;
}

std::size_t settle(const char* what, std::size_t n) {
  std::size_t now = count_entries(what);
  for (auto until = std::chrono::steady_clock::now() + 10s; now != n && std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(50ms))
    now = count_entries(what);
  return now;
}

/// The source path of `domain`'s org.rlab.agent.0 channel in its live XML on `uri` ("" when
/// the domain is gone or has none).
std::string live_channel_path(const std::string& uri, const std::string& domain) {
  auto r = rlab::util::run({"virsh", "-c", uri, "dumpxml", domain});
  if (!r.ok()) return "";
  static const std::regex re(
      R"(<channel type='unix'>\s*<source mode='bind' path='([^']+)'/>\s*<target type='virtio' name='org\.rlab\.agent\.0')");
  std::smatch m;
  return std::regex_search(r.output, m, re) ? m[1].str() : "";
}

/// A cell of the fake kernel (no guest ever answers) for in-process boots.
rlab::matrix::Cell fake_cell() {
  rlab::matrix::Cell cell;
  cell.id = "fake/xfs-defaults/1vcpu/shell1";
  cell.kernel.name = "fake";
  cell.filesystem.fs = rlab::matrix::Fs::kXfs;
  cell.filesystem.label = "defaults";
  cell.vcpus = 1;
  cell.workload.name = "shell1";
  cell.workload.kind = "shell1";
  cell.copies = 1;
  return cell;
}

}  // namespace

TEST(RealRemoteChannel, RunOnATcpHostTalksToItsAgentsThroughLibvirt) {
  ChannelFixture f("run");
  PrivateLibvirtd host(f.dir / "libvirtd");
  ASSERT_TRUE(host.up()) << host.log();
  // Two 1-vCPU cells at once on one host: two channels on one libvirt connection.
  const fs::path matrix = f.dir / "matrix.yaml";
  rlab::testing::SmallMatrix shape;
  shape.filesystems = {"xfs", "ext4"};
  shape.seed = 5;
  shape.hosts = {{host.uri(), 2, "libvirt"}};
  std::ofstream(matrix) << rlab::testing::small_matrix(shape);

  // While the run goes on: the channel path of every guest in its live XML, and whether an
  // agent.sock ever appears under the run's directory.
  std::atomic<bool> over{false};
  std::mutex mu;
  std::map<std::string, std::string> paths;  // domain -> channel source path
  bool socket_seen = false;
  std::thread watcher([&] {
    while (!over) {
      std::vector<std::string> names;
      try {
        names = host.domains("rlab-");
      } catch (const std::exception&) {
      }
      for (const auto& n : names) {
        auto p = live_channel_path(host.uri(), n);
        std::lock_guard lk(mu);
        if (!p.empty()) paths[n] = p;
      }
      std::error_code ec;
      for (fs::recursive_directory_iterator it(f.dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename() == "agent.sock") {
          std::lock_guard lk(mu);
          socket_seen = true;
        }
      std::this_thread::sleep_for(300ms);
    }
  });
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);  // a first kernel build when not cached
  o.echo = true;
  auto r = rlab::util::run(rlab_argv({"run", matrix.string(), "--agent", agent_binary().string()}), o);
  over = true;
  watcher.join();
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);

  // Both cells measured on the TCP host, their agents' hello and passes stored.
  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  const auto run = *st->latest_run();
  auto rows = st->boot_results(run);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& b : rows) {
    EXPECT_EQ(b.status, rlab::store::BootStatus::done) << b.cell_id << ": " << b.failure;
    EXPECT_GT(b.score.value_or(0), 0) << b.cell_id;
    EXPECT_EQ(b.guest_page_size, 65536u) << b.cell_id;
  }
  // The link went through libvirt: each guest's channel is a socket libvirt chose in its own
  // channel directory, which exists only in the daemon's mount namespace, and rlab made none.
  std::lock_guard lk(mu);
  EXPECT_EQ(paths.size(), 2u) << "both guests were seen running";
  for (const auto& [domain, path] : paths) {
    EXPECT_EQ(path.rfind("/var/lib/libvirt/qemu/channel/target/domain-", 0), 0u) << domain << ": " << path;
    // libvirt names the directory domain-<id>-<the domain name cut to 20 bytes>.
    EXPECT_NE(path.find("-" + domain.substr(0, 20) + "/org.rlab.agent.0"), std::string::npos) << path;
    EXPECT_FALSE(fs::exists(path)) << path << " is reachable from rlab's side";
  }
  EXPECT_FALSE(socket_seen) << "an agent.sock appeared under " << f.dir;
  EXPECT_TRUE(host.domains("rlab-").empty()) << "no guest left on the TCP host";
}

TEST(RealRemoteChannel, SilentGuestOverTheLibvirtLinkTimesOutAndLeavesNothing) {
  ChannelFixture f("silent");
  PrivateLibvirtd host(f.dir / "libvirtd");
  ASSERT_TRUE(host.up()) << host.log();
  const rlab::matrix::Cell cell = fake_cell();
  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  auto run = st->create_run({"fake.yaml", "fake", 1, "matrix", ""});
  st->add_cells(run, rlab::matrix::cell_rows({cell}), 2);

  rlab::vm::Connection conn(host.uri());
  rlab::run::RunDir dir(f.dir / "rlab.db", run, conn.qemu_owner());
  std::ofstream(f.dir / "Image") << std::string(4096, '\0');  // not a kernel: no guest answers
  std::ofstream(f.dir / "initramfs") << "070701";
  rlab::image::GuestImages img;
  img.kernel_image = f.dir / "Image";
  img.initramfs = f.dir / "initramfs";
  img.kernel_key = std::string(64, 'a');
  img.image_key = std::string(64, 'b');
  img = dir.stage(img);
  rlab::run::GuestSettings g;
  g.memory_mib = 256;
  g.cpu_model = "max";
  g.timeouts.hello_s = 3;

  const auto boots = st->boots(run);
  ASSERT_EQ(boots.size(), 2u);
  std::size_t fds0 = 0, threads0 = 0;
  for (std::size_t i = 0; i < boots.size(); ++i) {
    rlab::run::BootJob job;
    job.cell = &cell;
    job.repeat = static_cast<unsigned>(i);
    job.boot = boots[i].id;
    job.domain_name = rlab::vm::domain_name(std::to_string(getpid()) + "-silent", cell.id + std::to_string(i));
    job.images = &img;
    job.dir = dir.boot_dir(boots[i].id);
    job.agent_link = rlab::matrix::AgentLink::kLibvirt;
    // Counted from the second boot on: the first one's lazily made state (libvirt's, the
    // store's) stays for the process.
    if (i == 1) {
      fds0 = count_entries("/proc/self/fd"), threads0 = count_entries("/proc/self/task");
      std::cerr << "descriptors before the second boot:" << fd_targets() << "\n";
    }
    g.timeouts.hello_retries = static_cast<unsigned>(i);  // the second is booted twice
    auto out = rlab::run::run_boot(job, g, conn, *st);
    EXPECT_FALSE(out.ok);
    EXPECT_EQ(out.phase, rlab::store::FailurePhase::hello_timeout) << out.message << " (the channel opened, the agent never spoke)";
    EXPECT_GE(out.wall_s, 3.0 * (1 + i));
    EXPECT_LT(out.wall_s, 60.0);
    EXPECT_TRUE(conn.active_domains(job.domain_name).empty()) << "the silent guest was destroyed";
    EXPECT_FALSE(fs::exists(job.dir / "agent.sock"));
    EXPECT_FALSE(fs::exists(job.dir / "fs.raw")) << "the scratch disk is removed";
  }
  EXPECT_EQ(settle("/proc/self/task", threads0), threads0) << "the channel's pump threads ended";
  EXPECT_EQ(settle("/proc/self/fd", fds0), fds0) << "no socket or stream fd left open:" << fd_targets();
  const auto after = st->boots(run);
  EXPECT_EQ(after.at(0).attempts, 1u);
  EXPECT_EQ(after.at(1).attempts, 2u) << "hello_retries 1: booted once more";
  auto results = st->boot_results(run);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& b : results) {
    EXPECT_EQ(b.status, rlab::store::BootStatus::failed);
    EXPECT_NE(b.failure.find("hello-timeout"), std::string::npos) << b.failure;
  }
  EXPECT_TRUE(host.domains("rlab-").empty());
}

TEST(RealRemoteChannel, ChannelOfAMissingDomainIsAConnectErrorNamingIt) {
  ChannelFixture f("missing");
  PrivateLibvirtd host(f.dir / "libvirtd");
  ASSERT_TRUE(host.up()) << host.log();
  rlab::vm::Connection conn(host.uri());
  rlab::vm::DomainSpec spec;
  spec.name = "rlab-no-such-domain";
  spec.agent_via_libvirt = true;
  boost::asio::io_context io;
  rlab::link::AgentSession session(io);
  try {
    rlab::link::connect_agent(session, conn, spec, 5s);
    FAIL() << "a channel of a domain that does not exist was opened";
  } catch (const rlab::link::LinkError& e) {
    EXPECT_EQ(e.phase, "connect");
    EXPECT_FALSE(e.timed_out);
    const std::string what = e.what();
    EXPECT_NE(what.find("rlab-no-such-domain"), std::string::npos) << what;
    EXPECT_NE(what.find(host.uri()), std::string::npos) << what;
  }
}
