// Host facts with every sample, on the real stack: one 64K 6.12 guest, one 8 s pass through
// the shared libvirtd; every sample after the first of its pass carries the host's busy and
// steal shares, its CPU frequency (where this machine shows one) and the guest's vCPU share.
// Through a private libvirtd on qemu+tcp (a remote host to rlab) busy, steal and the vCPU
// share come from that host's libvirt; the frequency (this machine's sysfs) is not stored.
// And libvirt's busy and steal match /proc/stat's over the same interval.
#include "image/guest_images.hpp"
#include "private_libvirtd.hpp"
#include "host/host_load.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "vm/libvirt.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

std::string matrix_text(const std::string& uri) {
  rlab::testing::SmallMatrix m;
  m.workloads = {"{type: shell1, copies: 1, passes: 1, duration_s: 8, sample_interval_s: 1}"};  // a sample each second
  m.hosts = {{uri, 1, ""}};
  return rlab::testing::small_matrix(m);
}

/// A fresh run directory under /var/tmp (QEMU's user must reach it next to the store).
/// Runs the one-cell matrix on `uri` in `dir`; returns the run's output and exit code.
rlab::util::ProcessResult run_on(const std::string& uri, const fs::path& dir) {
  std::ofstream(dir / "matrix.yaml") << matrix_text(uri);
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);  // includes a first kernel build when not cached
  return rlab::util::run(rlab::testing::rlab_argv({"run", (dir / "matrix.yaml").string(), "--agent",
                                                   rlab::testing::agent_binary().string()}),
                         o);
}

}  // namespace

TEST(RealSampleHost, EverySampleCarriesTheHostSideOfItsInterval) {
  auto lv = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(lv.ok()) << lv.output;
  const rlab::testing::RunDir run_dir("sample-host-local");
  const fs::path& dir = run_dir.dir;
  auto r = run_on("qemu:///system", dir);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);

  auto st = rlab::store::Store::open(dir / "rlab.db");
  const auto run = st->latest_run();
  ASSERT_TRUE(run);
  const auto boots = st->boot_results(*run);
  ASSERT_EQ(boots.size(), 1u);
  ASSERT_EQ(boots[0].status, rlab::store::BootStatus::done) << boots[0].failure;
  const auto samples = st->samples(boots[0].boot_id);
  ASSERT_GE(samples.size(), 6u) << "an 8 s pass sampled every second";
  const bool freq_readable = rlab::host::read_host_frequency().has_value();
  unsigned with_facts = 0;
  double covered_s = 0;  // host seconds the facts describe
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto& s = samples[i];
    SCOPED_TRACE("sample at t=" + std::to_string(s.t_s));
    EXPECT_EQ(s.host_mhz.has_value(), freq_readable);
    if (s.host_mhz) {
      EXPECT_GT(*s.host_mhz, 100);
    }
    if (i == 0) {  // the pass's first sample: no interval
      EXPECT_FALSE(s.host_s || s.host_busy || s.vcpu_share);
      continue;
    }
    if (!s.host_s) continue;  // delivered together with the previous one: no interval
    ASSERT_TRUE(s.host_busy && s.host_steal && s.vcpu_share);
    ++with_facts;
    covered_s += *s.host_s;
    EXPECT_GT(*s.host_s, 0.3);
    EXPECT_LT(*s.host_s, 5.0);
    EXPECT_GE(*s.host_busy, 0.0);
    EXPECT_LE(*s.host_busy, 1.0);
    EXPECT_GE(*s.host_steal, 0.0);
    EXPECT_LE(*s.host_steal, 1.0);
    EXPECT_GT(*s.vcpu_share, 0.0);
    EXPECT_LE(*s.vcpu_share, 1.05);
    // The guest's own vCPU thread is part of the host's busy time (1 vCPU of all host CPUs).
    EXPECT_GE(*s.host_busy + 0.05, *s.vcpu_share / double(::sysconf(_SC_NPROCESSORS_ONLN)));
  }
  // Samples delivered together merge their intervals; together they still cover the pass
  // from its first sample (t 0, the window's start) to its last (t ~ 8 s, its end).
  EXPECT_GE(with_facts, 3u);
  EXPECT_GT(covered_s, 4.5);
  const auto timings = st->boot_timings(*run);
  ASSERT_EQ(timings.size(), 1u);
  ASSERT_EQ(timings[0].pass_vcpu_share.size(), 1u);
  ASSERT_TRUE(timings[0].pass_vcpu_share[0]);
  EXPECT_GT(*timings[0].pass_vcpu_share[0], 0.0);
  EXPECT_LE(*timings[0].pass_vcpu_share[0], 1.05);
  // The boot's timeline: PID 1's start (the agent itself, started by the kernel: the same
  // instant as the agent's), the agent's start and its hello in order on the guest's clock,
  // all within the host's seconds from domain start to hello (real time here).
  const auto phases = st->boot_phases(*run);
  ASSERT_EQ(phases.size(), 1u);
  const auto& p = phases[0];
  ASSERT_TRUE(p.boot_s && p.init_s && p.agent_s && p.hello_s);
  EXPECT_GT(*p.init_s, 0.0);
  EXPECT_GE(*p.agent_s, *p.init_s);
  EXPECT_GE(*p.hello_s, *p.agent_s);
  EXPECT_LT(*p.hello_s, *p.boot_s + 1.0) << "the guest's clock starts after the domain does";
  std::cout << "boot: " << *p.boot_s << " s to hello; guest: init " << *p.init_s << " s, agent " << *p.agent_s
            << " s, hello " << *p.hello_s << " s\n";
}

TEST(RealSampleHost, LibvirtsBusyAndStealMatchProcStat) {
  auto lv = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(lv.ok()) << lv.output;
  rlab::vm::Connection conn("qemu:///system");
  const auto p0 = rlab::host::read_host();
  const auto l0 = rlab::host::read_host(conn);
  // One busy thread for 3 s: the host is neither idle nor saturated.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  volatile unsigned long spin = 0;
  while (std::chrono::steady_clock::now() < until) spin = spin + 1;
  const auto p1 = rlab::host::read_host();
  const auto l1 = rlab::host::read_host(conn);
  const auto proc = rlab::host::host_between(p0, p1);
  const auto virt = rlab::host::host_between(l0, l1);
  EXPECT_EQ(virt.cpus, proc.cpus);
  EXPECT_NEAR(virt.seconds, proc.seconds, 0.05);
  // /proc counts 10 ms ticks: 3 s x 2 CPUs is 600 of them, so a share is known to ~0.5%;
  // the two readings are a few ms apart.
  EXPECT_NEAR(virt.busy_fraction, proc.busy_fraction, 0.04) << "proc " << proc.busy_fraction;
  EXPECT_NEAR(virt.steal_fraction, proc.steal_fraction, 0.04) << "proc " << proc.steal_fraction;
  EXPECT_GT(virt.busy_fraction, 0.3) << "one of the CPUs was kept busy";
  std::printf("busy: libvirt %.4f /proc %.4f; steal: libvirt %.4f /proc %.4f over %.2f s\n",
              virt.busy_fraction, proc.busy_fraction, virt.steal_fraction, proc.steal_fraction, virt.seconds);
}

TEST(RealSampleHost, ARemoteHostStoresItsOwnLoadFromItsLibvirt) {
  const rlab::testing::RunDir run_dir("sample-host-remote");  // first: removed after the daemon stopped
  const fs::path& dir = run_dir.dir;
  rlab::testing::PrivateLibvirtd remote(dir / "libvirtd");
  ASSERT_TRUE(remote.up()) << remote.log();
  auto r = run_on(remote.uri(), dir);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);
  auto st = rlab::store::Store::open(dir / "rlab.db");
  const auto boots = st->boot_results(*st->latest_run());
  ASSERT_EQ(boots.size(), 1u);
  ASSERT_EQ(boots[0].status, rlab::store::BootStatus::done) << boots[0].failure;
  const auto samples = st->samples(boots[0].boot_id);
  ASSERT_GE(samples.size(), 6u);
  unsigned with_share = 0;
  double covered_s = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto& s = samples[i];
    SCOPED_TRACE("sample at t=" + std::to_string(s.t_s));
    EXPECT_FALSE(s.host_mhz) << "this machine's sysfs is not the remote host's";
    if (i == 0) continue;
    if (!s.host_s) continue;  // delivered together with the previous one: no interval
    ASSERT_TRUE(s.vcpu_share) << "libvirt gives the vCPU time of a remote guest";
    ASSERT_TRUE(s.host_busy && s.host_steal) << "and the remote host's CPU time";
    EXPECT_GE(*s.host_busy, 0.0);
    EXPECT_LE(*s.host_busy, 1.0);
    EXPECT_LE(*s.host_steal, 1.0);
    ++with_share;
    covered_s += *s.host_s;
    EXPECT_GT(*s.vcpu_share, 0.0);
    EXPECT_LE(*s.vcpu_share, 1.05);
  }
  EXPECT_GE(with_share, 3u);
  EXPECT_GT(covered_s, 4.5);
}
