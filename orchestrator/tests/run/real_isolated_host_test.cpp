// A host that shares nothing with rlab but libvirt's protocol: a libvirtd in its own network
// namespace (reached by qemu+tcp over a veth pair) and mount namespace (rlab's checkout, build,
// caches, /tmp and /var/tmp empty there). A matrix runs on it end to end with its files as
// storage volumes: kernel and initramfs uploaded once and reused by the next run, each boot's
// disk and console log volumes of their own, the console copied back. Then, mid-run, the
// host loses power: its boot moves to this machine's libvirtd, which opens rlab's paths.
#include "isolated_libvirtd.hpp"
#include "real_lab.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include "sql.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

/// Two 1-vCPU cells (xfs, ext4) of the cached 64K 6.12 kernel on `hosts`, `files: volumes`
/// for the isolated host (its URI's default, written out).
std::string isolated_matrix_text(const std::vector<std::pair<std::string, unsigned>>& hosts, unsigned duration_s) {
  rlab::testing::SmallMatrix m;
  m.filesystems = {"xfs", "ext4"};
  m.duration_s = duration_s;
  m.remote_files = "volumes";
  for (const auto& [uri, budget] : hosts) m.hosts.emplace_back(uri, budget, "");
  return rlab::testing::small_matrix(m);
}

/// SELECT of one column over the latest run's boots.
std::vector<std::string> column(const fs::path& db, const std::string& expr) {
  if (!fs::exists(db)) return {};
  try {
    return rlab::test::sql_column(db, "SELECT " + expr + " FROM boots b JOIN cells c ON c.id = b.cell_id"
                                      " WHERE c.run_id = (SELECT MAX(id) FROM runs) ORDER BY b.id", "");
  } catch (const std::exception&) {
    return {};  // the run has not made its tables yet
  }
}

bool said_hello_on(const fs::path& db, const std::string& uri) {
  for (const auto& row : column(db, "b.status || ' ' || COALESCE(b.host_uri, '') || ' ' || "
                                    "(b.guest_page_size IS NOT NULL)"))
    if (row == "running " + uri + " 1") return true;
  return false;
}

rlab::util::ProcessResult rlab_run(const fs::path& matrix) {
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);  // a first kernel build when not cached
  o.echo = true;
  return rlab::util::run(rlab::testing::rlab_argv({"run", matrix.string(), "--agent",
                                                   rlab::testing::agent_binary().string()}),
                         o);
}

}  // namespace

TEST(RealIsolatedHost, AMatrixRunsThroughVolumesThenTheHostDiesAndItsBootMoves) {
  auto lv = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(lv.ok()) << lv.output;
  const auto agent = rlab::testing::agent_binary();  // built before the daemon hides the tree
  rlab::testing::RunDir f("isolated");
  const fs::path db = f.dir / "rlab.db";
  rlab::testing::IsolatedLibvirtd host(f.dir / "libvirtd",
                                       {RLAB_SOURCE_DIR, RLAB_BINARY_DIR, rlab::util::cache_dir()});
  ASSERT_TRUE(host.up()) << host.why();
  ASSERT_EQ(host.define_pool(), "");

  // Nothing of rlab's is at its path there (hidden directories are empty mount points).
  for (const fs::path& p : {f.dir, fs::path(RLAB_SOURCE_DIR) / "README.md", agent,
                            rlab::util::cache_dir() / "kernels"}) {
    EXPECT_TRUE(fs::exists(p)) << p;
    EXPECT_FALSE(host.sees(p)) << p << " is visible to the isolated host";
  }
  EXPECT_TRUE(host.sees("/usr/bin/qemu-system-aarch64"));

  // 1. The whole matrix on the isolated host.
  f.write(isolated_matrix_text({{host.uri(), 2}}, 8));
  auto r = rlab_run(f.matrix);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 80) << host.log();
  EXPECT_EQ(column(db, "b.status"), (std::vector<std::string>{"done", "done"}));
  EXPECT_EQ(column(db, "b.host_uri"), (std::vector<std::string>{host.uri(), host.uri()}));
  EXPECT_NE(r.output.find("uploaded"), std::string::npos) << "kernel and initramfs went up as volumes";
  // The consoles came back from the host into the boot directories.
  for (const auto& console : column(db, "b.console_log")) {
    ASSERT_TRUE(fs::exists(console)) << console;
    const std::string text = rlab::util::read_file(console);
    EXPECT_NE(text.find("Linux version"), std::string::npos) << console;
    EXPECT_NE(text.find("reboot: Power down"), std::string::npos) << console << ": the whole console, to the power-off";
    EXPECT_FALSE(host.sees(console)) << console << ": rlab's own copy, which the host never saw";
  }
  // Nor did it see the run's directory, where the kernel and initramfs were staged for hosts
  // that take paths.
  ASSERT_TRUE(fs::is_directory(f.dir / "runs"));
  EXPECT_FALSE(host.sees(f.dir / "runs"));
  // What stays on the host: the two content volumes and their completion markers, no
  // scratch disk, no console.
  auto vols = host.volumes();
  std::sort(vols.begin(), vols.end());
  ASSERT_EQ(vols.size(), 4u) << ::testing::PrintToString(vols);
  for (const auto& v : vols) EXPECT_EQ(v.rfind("rlab-", 0), 0u) << v;
  EXPECT_EQ(std::count_if(vols.begin(), vols.end(), [](const std::string& v) { return v.ends_with(".ok"); }), 2);
  EXPECT_TRUE(host.domains("rlab-").empty());

  // 2. The isolated host first (budget 1), this machine second: one cell starts there, the
  // other here. Once the isolated guest said hello, that host loses power.
  f.write(isolated_matrix_text({{host.uri(), 1}, {"qemu:///system", 1}}, 20));
  rlab::util::ProcessResult r2;
  std::thread runner([&] { r2 = rlab_run(f.matrix); });
  bool killed = false;
  for (auto until = std::chrono::steady_clock::now() + 1800s; !killed && std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(200ms))
    if (said_hello_on(db, host.uri())) {
      std::this_thread::sleep_for(2s);
      host.kill_all();
      killed = true;
    }
  runner.join();
  ASSERT_TRUE(killed) << "no guest said hello on the isolated host\n" << rlab::util::tail(r2.output, 60);
  EXPECT_EQ(r2.output.find("uploaded"), std::string::npos) << "the volumes of run 1 were reused";
  ASSERT_EQ(r2.exit_code, 0) << rlab::util::tail(r2.output, 80);
  EXPECT_NE(r2.output.find("host " + host.uri() + " was drained"), std::string::npos);
  EXPECT_EQ(column(db, "b.status"), (std::vector<std::string>{"done", "done"}));
  EXPECT_EQ(column(db, "b.host_uri"), (std::vector<std::string>{"qemu:///system", "qemu:///system"}));
  auto attempts = column(db, "b.attempts");
  std::sort(attempts.begin(), attempts.end());
  EXPECT_EQ(attempts, (std::vector<std::string>{"1", "2"})) << "the boot of the dead host ran again here";
}
