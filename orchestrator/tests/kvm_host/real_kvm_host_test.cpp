// The KVM path for real: `rlab kvm-host start` boots an arm64 host under QEMU with EL2 (its
// 64K-page kernel brings up KVM, its libvirt runs guests with `accel: kvm`), rlab runs a
// matrix on it as on any remote host (libvirt over ssh, volumes, the agent channel through
// libvirt), every boot's platform is read back and stored, `rlab compare` reads the run, and
// `rlab kvm-host stop` leaves no process, port or domain behind.
//
// RealKvmHost.* (the README's test command, ~5 min): two pinned 2-vCPU KVM boots, one per
// kernel; then rlab itself, built for aarch64, runs inside the host as on an arm64 server:
// setup.sh's package logic (with RLAB_LONG_TESTS=1 also apt's resolution of the list there),
// scripts/run.sh's dry run of the shipped matrix, and two KVM boots through the host's own
// libvirt. RealKvmMatrix.* (RLAB_LONG_TESTS=1, ~15 min):
// matrices/kvm-host.yaml as shipped, 16 boots at 1 and 2 vCPUs; the default-tier test covers
// every component it touches.
#include "build/kernel_build.hpp"
#include "image/guest_images.hpp"
#include "kvm_host/host_images.hpp"
#include "kvm_host_matrix.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <map>
#include <set>

namespace fs = std::filesystem;
using rlab::testing::on_the_host;
using rlab::testing::rlab_argv;

namespace {

rlab::util::ProcessResult rlab_run(std::vector<std::string> args, const std::map<std::string, std::string>& env,
                                   std::chrono::minutes timeout) {
  rlab::util::ProcessOptions o;
  o.env = env;
  o.timeout = timeout;
  o.cwd = RLAB_SOURCE_DIR;
  return rlab::util::run(rlab_argv(std::move(args)), o);
}

/// Whether `pid` is a process that runs (not gone, not a zombie its new parent has yet to reap:
/// QEMU daemonized, so this machine's init reaps it).
bool runs(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

bool port_open(unsigned port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool open = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(s);
  return open;
}

/// Local addresses listening on TCP `port` (/proc/net/tcp and tcp6, state 0A), as hex.
std::set<std::string> listeners(unsigned port) {
  std::set<std::string> out;
  char want[8];
  std::snprintf(want, sizeof want, ":%04X", port);
  for (const char* f : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(f);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string sl, local, remote, state;
      ls >> sl >> local >> remote >> state;
      if (state == "0A" && local.size() > 5 && local.substr(local.size() - 5) == want)
        out.insert(local.substr(0, local.size() - 5));
    }
  }
  return out;
}

/// setup.sh's package logic run natively in the clone at /root/rlab on the host (arm64 Debian
/// 12): no foreign architecture, the list it resolves for itself is `packages.sh list arm64`
/// here, none of it installed through dpkg. With RLAB_LONG_TESTS=1 also: apt there can install
/// every name of it (`apt-get -s`, after `apt-get update` from the host's own sources). That
/// part is long-tier because its time is not bounded: the host's disk starts without package
/// lists, and on a fresh machine (2026-12-07) apt-get update there had written 12 of the 49 MB
/// of bookworm's arm64 Packages list after 16 min (apt's `store` method at 100% of a vCPU under
/// TCG), where earlier runs of this test took seconds for it; in the default tier
/// RealBookwormPackages.EveryArm64NameExistsAndInstallsOnArm64 resolves the same list against
/// the same real arm64 lists with `apt-get -s` on this machine.
void check_setup_logic_inside(unsigned port, const fs::path& state) {
  const auto arch = on_the_host(port, state, "dpkg --print-architecture");
  EXPECT_EQ(rlab::util::trim_end(arch.output), "arm64");
  const auto foreign = on_the_host(port, state, "cd /root/rlab && bash scripts/packages.sh foreign");
  EXPECT_TRUE(foreign.ok()) << foreign.output;
  EXPECT_EQ(rlab::util::trim_end(foreign.output), "") << "no foreign architecture on arm64";
  const auto native = on_the_host(port, state, "cd /root/rlab && bash scripts/packages.sh list");
  rlab::util::ProcessOptions here;
  here.cwd = RLAB_SOURCE_DIR;
  EXPECT_EQ(native.output, rlab::util::run_checked({"bash", "scripts/packages.sh", "list", "arm64"}, here).output);
  const auto missing = on_the_host(port, state, "cd /root/rlab && bash scripts/packages.sh missing");
  EXPECT_TRUE(missing.ok()) << missing.output;
  EXPECT_EQ(missing.output, native.output) << "nothing of it is installed through dpkg on the host";
  const char* long_tests = std::getenv("RLAB_LONG_TESTS");
  if (!long_tests || std::string(long_tests) != "1") return;
  const auto sim = on_the_host(port, state,
                               "cd /root/rlab && apt-get update -q -o Acquire::Languages=none >/dev/null && "
                               "apt-get install -s -q --no-install-recommends $(bash scripts/packages.sh missing)");
  EXPECT_EQ(sim.exit_code, 0) << rlab::util::tail(sim.output, 40);
  for (const char* p : {"Inst build-essential ", "Inst libvirt-daemon-system ", "Inst qemu-system-arm ", "Inst libbpf-dev "})
    EXPECT_NE(sim.output.find(p), std::string::npos) << p << "\n" << rlab::util::tail(sim.output, 40);
}

/// rlab at home on an arm64 server: a copy of this repository at /root/rlab with the aarch64
/// rlab (scripts/build-aarch64-rlab.sh, the fixture rlab_aarch64_bundle) where setup.sh's native
/// build puts it, the default matrix's two kernels as prebuilt Images (the bring-your-own-kernel
/// path: the host's native gcc is not the cross gcc they were built with, docs/operations.md
/// "What has run natively on arm64") and the agent's initramfs (the host has no mmdebstrap).
/// Natively there: setup.sh's package logic (no foreign architecture, the native list, every
/// name installable per `apt-get -s` against bookworm's arm64 lists the host fetches itself),
/// the README's main command in its dry-run form (scripts/run.sh: libvirtd's start script and
/// the shipped matrix, unedited, choosing KVM and real time), and a run of the two kernels
/// through the host's own qemu:///system (socket agent link, local paths) to scores.
void run_natively_inside(unsigned port, const fs::path& state, const fs::path& work) {
  // Seconds of each step, printed: what this part of the test waits for (docs/benchmarks.md).
  auto last = std::chrono::steady_clock::now();
  const auto lap = [&last](const char* step) {
    const auto now = std::chrono::steady_clock::now();
    std::cout << "inside the host: " << step << " in " << std::chrono::duration<double>(now - last).count() << " s\n";
    last = now;
  };
  const fs::path stage = work / "native";
  fs::remove_all(stage);
  rlab::testing::copy_sources(stage / "root/rlab");
  rlab::testing::stage_aarch64_rlab(stage / "root/rlab/build/host/orchestrator");
  if (::testing::Test::HasFatalFailure()) return;
  const auto m = rlab::matrix::load_matrix(fs::path(RLAB_SOURCE_DIR) / "matrix.yaml");
  for (const auto& [name, dir] : {std::pair{"6.12", "k612"}, {"6.12+inline-inactivation", "kinl"}}) {
    const auto k = rlab::build::ensure_kernel(m.kernels.at(name));
    fs::create_directories(stage / "root/lab" / dir);
    fs::copy_file(k.image, stage / "root/lab" / dir / "Image");
    fs::copy_file(k.config, stage / "root/lab" / dir / "config");
  }
  const auto images = rlab::image::ensure_guest_images(m.kernels.at("6.12"), rlab::testing::agent_binary());
  fs::create_directories(stage / "root/.cache/rlab/images");
  fs::copy(images.initramfs.parent_path(), stage / "root/.cache/rlab/images" / images.image_key, fs::copy_options::recursive);
  std::ofstream(stage / "root/lab/matrix.yaml") << R"(kernels:
  "6.12": {source: {image: k612/Image, config: k612/config}}
  6.12+inline-inactivation: {source: {image: kinl/Image, config: kinl/config}}
axes:
  kernel: ["6.12", 6.12+inline-inactivation]
  filesystem: [{fs: xfs}]
  vcpus: [1]
  workload: [{type: shell1, copies: vcpus, passes: 1, duration_s: 5}]
  repeats: {icount: 1, realtime: 1}
guest: {memory_mib: 1024, cpu: auto, accel: auto, clock: auto, disk_gib: 2}
results: results/rlab.db
)";
  lap("staged");
  rlab::testing::copy_to_the_host(port, state, stage);
  if (::testing::Test::HasFatalFailure()) return;
  lap("copied in");
  const std::string rlab = "/root/rlab/build/host/orchestrator/rlab";

  const auto version = on_the_host(port, state, rlab + " --version; uname -m");
  EXPECT_NE(version.output.find("aarch64"), std::string::npos) << version.output;
  check_setup_logic_inside(port, state);
  lap("setup.sh's package logic");
  const auto dry = on_the_host(port, state, "cd /root/rlab && bash scripts/run.sh matrix.yaml --dry-run");
  EXPECT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_NE(dry.output.find("clock: auto -> realtime"), std::string::npos) << "the shipped matrix, unedited\n" << dry.output;
  EXPECT_NE(dry.output.find("boots get KVM"), std::string::npos) << dry.output;
  lap("scripts/run.sh --dry-run");
  const auto r = on_the_host(port, state, "cd /root/lab && " + rlab + " run matrix.yaml");
  std::cout << rlab::util::tail(r.output, 30) << "\n";
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("aarch64 host"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("run 1: 2 boots, 2 done, 0 failed"), std::string::npos) << r.output;
  const auto results = on_the_host(port, state, rlab + " results --db /root/lab/results/rlab.db --csv");
  EXPECT_EQ(results.exit_code, 0) << results.output;
  EXPECT_NE(results.output.find("6.12+inline-inactivation"), std::string::npos) << results.output;
  lap("rlab run and rlab results");
}

/// What one run on the emulated host must give.
struct Expected {
  std::size_t boots = 0;
  std::size_t cells = 0;
};

/// Starts the emulated host, runs a matrix on it with a store of its own — `matrix_text`
/// written into the run's directory, or when empty the shipped `shipped` (relative to the
/// source tree) — checks every boot ran under KVM on a 64 KiB host with distinct pinned vCPUs,
/// compares the two kernels, and stops the host leaving nothing behind.
void run_on_the_kvm_host(const std::string& name, const std::string& matrix_text, const std::string& shipped,
                         const Expected& want, bool native_too = false) {
  rlab::testing::agent_binary();
  rlab::testing::RunDir run(name);
  std::string matrix = shipped;
  if (!matrix_text.empty()) {
    run.write(matrix_text);
    matrix = run.matrix.string();
  }
  const fs::path state = run.dir / "state";
  const std::map<std::string, std::string> env{{"RLAB_STATE_DIR", state.string()}};

  // Start: the host boots, its libvirt answers with KVM.
  auto started = rlab_run({"kvm-host", "start"}, env, std::chrono::minutes(60));
  ASSERT_TRUE(started.ok()) << started.output;
  const auto st = nlohmann::json::parse(rlab::util::read_file(state / "kvm-host" / "state.json"));
  const unsigned port = st.at("port").get<unsigned>();
  const long pid = st.at("pid").get<long>();
  const std::string uri = st.at("uri").get<std::string>();
  std::cout << "KVM host ready in " << st.at("ready_s").get<double>() << " s\n";
  // Its ssh is on this machine's loopback only.
  EXPECT_EQ(listeners(port), (std::set<std::string>{"0100007F"})) << "port " << port;
  auto printed = rlab_run({"kvm-host", "uri"}, env, std::chrono::minutes(1));
  ASSERT_TRUE(printed.ok()) << printed.output;
  EXPECT_EQ(rlab::util::trim_end(printed.output), uri);

  auto m = rlab_run({"run", matrix, "--db", (run.dir / "kvm.db").string()},
                    {{"RLAB_STATE_DIR", state.string()}, {"RLAB_KVM_HOST_URI", uri}}, std::chrono::minutes(60));
  std::cout << rlab::util::tail(m.output, 40) << "\n";
  EXPECT_EQ(m.exit_code, 0) << m.output;

  {
    auto store = rlab::store::Store::open(run.dir / "kvm.db");
    const auto runs = store->runs();
    ASSERT_FALSE(runs.empty());
    const auto run_id = runs.back().id;
    const auto boots = store->boot_results(run_id);
    std::set<std::string> cells;
    for (const auto& b : boots) {
      EXPECT_TRUE(b.score.has_value()) << b.cell_id << " repeat " << b.repeat << ": " << b.failure;
      if (b.score) cells.insert(b.cell_id);
      EXPECT_EQ(b.guest_page_size, 65536u) << b.cell_id;
    }
    EXPECT_EQ(boots.size(), want.boots);
    EXPECT_EQ(cells.size(), want.cells) << "a result per cell";
    const auto platforms = store->boot_platforms(run_id);
    EXPECT_EQ(platforms.size(), boots.size());
    for (const auto& p : platforms) {
      SCOPED_TRACE(p.cell_id + " repeat " + std::to_string(p.repeat));
      EXPECT_EQ(p.platform.domain_type, "kvm");
      EXPECT_EQ(p.platform.guest_hypervisor, "kvm");
      EXPECT_EQ(p.platform.host_page_kib, 64u);
      // Pinned: each vCPU to one host CPU of its own, the emulator threads beside them.
      const auto vcpus = nlohmann::json::parse(p.platform.vcpu_cpus);
      std::set<std::string> distinct;
      for (const auto& c : vcpus) {
        const std::string cpu = c.get<std::string>();
        EXPECT_TRUE(cpu == "0" || cpu == "1") << cpu;
        distinct.insert(cpu);
      }
      EXPECT_EQ(distinct.size(), vcpus.size());
      EXPECT_FALSE(p.platform.emulator_cpus.empty());
    }
  }

  // compare reads the run: a row per cell of either kernel.
  auto cmp = rlab_run({"compare", "--kernels", "6.12", "6.12+inline-inactivation", "--db", (run.dir / "kvm.db").string()},
                      env, std::chrono::minutes(5));
  EXPECT_TRUE(cmp.exit_code == 0 || cmp.exit_code == 1) << cmp.output;
  EXPECT_NE(cmp.output.find("xfs"), std::string::npos) << cmp.output;

  // No rlab guest is left on the host.
  {
    rlab::vm::Connection conn(uri);
    EXPECT_TRUE(conn.active_domains(rlab::vm::kDomainPrefix).empty());
  }

  if (native_too) run_natively_inside(port, state, run.dir);

  // Stop: no process, no port.
  auto stopped = rlab_run({"kvm-host", "stop"}, env, std::chrono::minutes(2));
  EXPECT_TRUE(stopped.ok()) << stopped.output;
  EXPECT_FALSE(runs(pid)) << "QEMU " << pid << " still runs";
  EXPECT_FALSE(port_open(port));
  EXPECT_TRUE(listeners(port).empty());
  EXPECT_FALSE(fs::exists(state / "kvm-host" / "state.json"));
}

}  // namespace

// The host's root filesystem (mmdebstrap of images/kvm-host/packages.txt, ssh keys, mkfs.ext4
// -d), made once and then taken from the cache by its recipe's key. Also the ctest fixture
// kvm_host_disk (cmake/test_resources.cmake): on a fresh machine the disk is made here, beside
// the kernel build, rather than inside RealKvmHost, which runs alone.
TEST(RealKvmHostDisk, IsMadeOnceThenTakenFromTheCacheByItsRecipesKey) {
  const auto made = rlab::kvm_host::ensure_host_disk();
  const auto again = rlab::kvm_host::ensure_host_disk();
  EXPECT_TRUE(again.cache_hit);
  const auto recipe = rlab::kvm_host::load_disk_recipe(fs::path(RLAB_SOURCE_DIR) / "images" / "kvm-host");
  EXPECT_EQ(made.key, rlab::kvm_host::disk_key(recipe));
  EXPECT_EQ(again.key, made.key);
  EXPECT_EQ(again.image, made.image);
  // ext4: the superblock's magic 0xEF53 at byte 1024 + 56, little-endian.
  std::ifstream img(made.image, std::ios::binary);
  img.seekg(1024 + 56);
  unsigned char magic[2] = {0, 0};
  img.read(reinterpret_cast<char*>(magic), 2);
  EXPECT_EQ(magic[0], 0x53);
  EXPECT_EQ(magic[1], 0xEF);
  EXPECT_EQ(made.host_key.rfind("ssh-ed25519 ", 0), 0u) << made.host_key;
  ASSERT_TRUE(fs::is_regular_file(made.client_key));
  EXPECT_EQ(fs::status(made.client_key).permissions() & (fs::perms::group_all | fs::perms::others_all), fs::perms::none);
}

// Both kernels of the default matrix, XFS (agcount=4), 2 pinned vCPUs, one 10 s pass each,
// under KVM with the shipped KVM matrix's guest and host settings.
TEST(RealKvmHost, TwoPinnedKvmBootsRunCompareAndLeaveNothingBehind) {
  auto m = rlab::testing::kvm_host_matrix();
  m.extra_kernels = std::string("  6.12+inline-inactivation:\n    extends: \"6.12\"\n    patches: [") +
                    RLAB_SOURCE_DIR + "/images/patches/xfs-inline-inactivation.patch]\n";
  m.kernel_axis = "[\"6.12\", 6.12+inline-inactivation]";
  m.filesystems = {"{fs: xfs, mkfs: [[-d, agcount=4]]}"};
  m.vcpus = 2;
  run_on_the_kvm_host("kvm-host", rlab::testing::small_matrix(m), "", {.boots = 2, .cells = 2}, true);
}

// The shipped KVM matrix (matrices/kvm-host.yaml): 2 kernels x XFS, ext4 x 1, 2 vCPUs x 2 repeats.
TEST(RealKvmMatrix, RunsTheShippedKvmMatrixComparesItAndLeavesNothingBehind) {
  run_on_the_kvm_host("kvm-matrix", "", "matrices/kvm-host.yaml", {.boots = 16, .cells = 8});
}
