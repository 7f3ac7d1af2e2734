// Benchmark: boot-to-hello through rlab's VM layer (libvirt transient domain, agent session)
// divided by a raw qemu-system-aarch64 boot of the same kernel and initramfs to the same
// point (the agent's hello on the channel socket). Alternating pairs (rlab, raw, raw, rlab,
// ...) spread host drift; the figure is the ratio of the medians. Recorded in
// docs/benchmarks.md ("rlab run"); the assertion is only a sanity bound.
#include "image/guest_images.hpp"
#include "link/agent_session.hpp"
#include "matrix/matrix.hpp"
#include "run/run_dir.hpp"
#include "util/process.hpp"
#include "vm/disk.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

extern char** environ;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double wait_hello(const fs::path& sock, Clock::time_point t0) {
  boost::asio::io_context io;
  rlab::link::AgentSession s(io);
  s.connect(sock, 60s);
  auto h = s.wait_hello(300s);
  EXPECT_EQ(h.page_size, 65536u);
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double boot_rlab(rlab::vm::Connection& conn, const rlab::image::GuestImages& img,
                 const fs::path& dir, int i) {
  rlab::vm::DomainSpec s;
  s.name = rlab::vm::domain_name("bench" + std::to_string(getpid()), std::to_string(i));
  s.vcpus = 2;
  s.memory_mib = 1024;
  s.kernel = img.kernel_image;
  s.initramfs = img.initramfs;
  s.cmdline = "console=ttyAMA0 panic=-1";
  s.console_log = dir / "console.log";
  s.agent_socket = dir / "agent.sock";
  s.disk = dir / "fs.raw";
  rlab::vm::create_sparse_disk(s.disk, 2ull << 30);
  auto t0 = Clock::now();
  auto d = conn.create_transient(rlab::vm::domain_xml(s));
  double t = wait_hello(s.agent_socket, t0);
  d.destroy();
  return t;
}

double boot_raw(const rlab::image::GuestImages& img, const fs::path& dir) {
  fs::path sock = dir / "raw.sock";
  fs::remove(sock);
  rlab::vm::create_sparse_disk(dir / "raw.raw", 2ull << 30);
  std::vector<std::string> argv{
      "qemu-system-aarch64", "-M", "virt,gic-version=3", "-accel", "tcg", "-cpu", "max,pauth=off",
      "-smp", "2", "-m", "1024", "-nodefaults", "-display", "none", "-no-reboot",
      "-serial", "file:" + (dir / "raw-console.log").string(),
      "-device", "virtio-serial-pci,id=vser0",
      "-chardev", "socket,id=agent0,path=" + sock.string() + ",server=on,wait=off",
      "-device", "virtserialport,bus=vser0.0,chardev=agent0,name=org.rlab.agent.0",
      "-drive", "file=" + (dir / "raw.raw").string() + ",if=none,id=d0,format=raw",
      "-device", "virtio-blk-pci,drive=d0,serial=rlab-fs",
      "-kernel", img.kernel_image.string(), "-initrd", img.initramfs.string(),
      "-append", "console=ttyAMA0 panic=-1"};
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  auto t0 = Clock::now();
  pid_t pid;
  if (posix_spawnp(&pid, cargv[0], nullptr, nullptr, cargv.data(), environ) != 0)
    throw std::runtime_error("cannot start qemu-system-aarch64");
  double t = wait_hello(sock, t0);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return t;
}

}  // namespace

TEST(RealBench, BootToHelloThroughRlabVersusRawQemu) {
  ASSERT_TRUE(rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"}).ok());
  auto m = rlab::matrix::load_matrix(fs::path(RLAB_SOURCE_DIR) / "matrix.yaml");
  auto built = rlab::image::ensure_guest_images(m.kernels.at("6.12"),
                                                rlab::image::default_agent_binary());
  rlab::vm::Connection conn("qemu:///system");
  fs::path root = fs::path("/var/tmp") / ("rlab-bench-" + std::to_string(getpid()));
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
  rlab::run::RunDir dir(root / "rlab.db", 1, conn.qemu_owner());
  auto img = dir.stage(built);
  const int pairs = std::getenv("RLAB_BENCH_PAIRS") ? std::atoi(std::getenv("RLAB_BENCH_PAIRS")) : 3;
  std::vector<double> via_rlab, raw;
  for (int i = 0; i < pairs; ++i) {
    // ABBA: rlab first on even pairs, raw first on odd ones.
    for (int k = 0; k < 2; ++k) {
      if ((i + k) % 2 == 0) via_rlab.push_back(boot_rlab(conn, img, dir.boot_dir(2 * i + k), i));
      else raw.push_back(boot_raw(img, dir.boot_dir(2 * i + k)));
    }
  }
  double ratio = median(via_rlab) / median(raw);
  std::string all;
  for (std::size_t i = 0; i < via_rlab.size(); ++i)
    all += " " + std::to_string(via_rlab[i]) + "/" + std::to_string(raw[i]);
  std::printf("boot-to-hello: rlab median %.2f s, raw qemu median %.2f s, ratio %.3f (pairs rlab/raw:%s)\n",
              median(via_rlab), median(raw), ratio, all.c_str());
  RecordProperty("ratio", std::to_string(ratio));
  EXPECT_LT(ratio, 1.5);
  fs::remove_all(root);
}
