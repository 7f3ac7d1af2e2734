// The host side of each sample: CPU frequency parsing (cpufreq and /proc/cpuinfo fixtures),
// local URIs, the vCPU share arithmetic and the meter that differences readings by pass.
#include "host/sample_host.hpp"
#include "host/vcpu_time.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using Clock = std::chrono::steady_clock;

fs::path scratch(const std::string& name) {
  auto d = fs::temp_directory_path() / ("rlab-sample-host-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(HostFrequency, CpuinfoMeanOfItsCpuMhzLines) {
  const std::string x86 =
      "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2445.430\ncache size\t: 512 KB\n\n"
      "processor\t: 1\ncpu MHz\t\t: 1200.000\n";
  auto mhz = host::parse_cpuinfo_mhz(x86);
  ASSERT_TRUE(mhz);
  EXPECT_NEAR(*mhz, (2445.43 + 1200.0) / 2, 1e-9);
  // arm64's cpuinfo has no frequency; a malformed line is not one either.
  EXPECT_FALSE(host::parse_cpuinfo_mhz("processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n"));
  EXPECT_FALSE(host::parse_cpuinfo_mhz("cpu MHz\t\t: unknown\n"));
}

TEST(HostFrequency, CpufreqFirstThenCpuinfoThenNothing) {
  const auto d = scratch("freq");
  const auto sys = d / "sys", proc = d / "proc";
  write(proc / "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 3000.000\n");
  fs::create_directories(sys);
  // No cpufreq directory: /proc/cpuinfo.
  fs::create_directories(sys / "cpu0");
  auto f = host::read_host_frequency(sys, proc);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->source, "cpuinfo");
  EXPECT_DOUBLE_EQ(f->mhz, 3000.0);
  // cpufreq on two CPUs (kHz), one without; cpufreq and cpuidle are not CPUs.
  write(sys / "cpu0" / "cpufreq" / "scaling_cur_freq", "2000000\n");
  write(sys / "cpu1" / "cpufreq" / "scaling_cur_freq", "1000000\n");
  fs::create_directories(sys / "cpu2");
  write(sys / "cpufreq" / "scaling_cur_freq", "9999999\n");
  fs::create_directories(sys / "cpuidle");
  f = host::read_host_frequency(sys, proc);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->source, "cpufreq");
  EXPECT_DOUBLE_EQ(f->mhz, 1500.0);
  // Neither: unknown.
  EXPECT_FALSE(host::read_host_frequency(d / "none", d / "none"));
  fs::remove_all(d);
}

TEST(HostFrequency, ThisMachineIsReadableOrSaysNot) {
  if (auto f = host::read_host_frequency()) {
    EXPECT_TRUE(f->source == "cpufreq" || f->source == "cpuinfo") << f->source;
    EXPECT_GT(f->mhz, 100);
    EXPECT_LT(f->mhz, 10000);
  }
}

TEST(HostUri, OnlyAUriWithoutAHostIsLocal) {
  EXPECT_TRUE(host::local_host_uri("qemu:///system"));
  EXPECT_TRUE(host::local_host_uri("qemu:///session"));
  EXPECT_TRUE(host::local_host_uri("test:///default"));
  EXPECT_FALSE(host::local_host_uri("qemu+tcp://127.0.0.1:16510/system"));
  EXPECT_FALSE(host::local_host_uri("qemu+ssh://lab2/system"));
  EXPECT_FALSE(host::local_host_uri("garbage"));
}

TEST(VcpuShare, TimeOverVcpusTimesInterval) {
  // 2 vCPUs over 2 s got 3 s of host CPU: 75% (the guest's steal is 25%).
  auto s = host::vcpu_share(1'000'000'000, 4'000'000'000, 2, 2.0);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(*s, 0.75);
  EXPECT_FALSE(host::vcpu_share(5, 4, 2, 1.0)) << "a counter that went back is no reading";
  EXPECT_FALSE(host::vcpu_share(0, 4, 0, 1.0));
  EXPECT_FALSE(host::vcpu_share(0, 4, 1, 0.0));
}

// A scripted host: each reading advances the clock by 1 s, /proc/stat by the given ticks and
// the vCPU time by the given ns.
struct Script {
  Clock::time_point t = Clock::time_point() + std::chrono::hours(1);
  host::HostSnapshot host;
  std::uint64_t vcpu_ns = 0;
  std::uint64_t busy_ticks = 150, idle_ticks = 50, steal_ticks = 0, vcpu_step_ns = 1'500'000'000;
  bool libvirt_answers = true;

  host::HostReaders readers(bool local) {
    host::HostReaders r;
    r.now = [this] { return t; };
    r.vcpu_ns = [this]() -> std::optional<std::uint64_t> {
      t += std::chrono::seconds(1);
      host.cpu.total += busy_ticks + idle_ticks + steal_ticks;
      host.cpu.idle += idle_ticks;
      host.cpu.steal += steal_ticks;
      vcpu_ns += vcpu_step_ns;
      if (!libvirt_answers) return std::nullopt;
      return vcpu_ns;
    };
    if (local) {
      r.host = [this] { return host; };
      r.frequency = [] { return host::HostFrequency{2445.43, "cpuinfo"}; };
    }
    return r;
  }
};

store::Sample sample(unsigned pass, double t) {
  store::Sample s;
  s.pass = pass;
  s.t_s = t;
  return s;
}

TEST(SampleHostMeter, LocalHostEveryFactAfterThePassFirstSample) {
  Script sc;
  // The meter reads /proc before libvirt, and this script advances the host when libvirt is
  // read: each sample's /proc facts cover the script's previous step, its vCPU share this one.
  host::SampleHostMeter m(2, sc.readers(true));
  auto s0 = sample(0, 1.0);
  m.fill(s0);
  EXPECT_FALSE(s0.host_s || s0.host_busy || s0.host_steal || s0.vcpu_share) << "the first sample of a pass has no interval";
  ASSERT_TRUE(s0.host_mhz);
  EXPECT_DOUBLE_EQ(*s0.host_mhz, 2445.43);
  auto s1 = sample(0, 2.0);
  m.fill(s1);
  auto s2 = sample(0, 3.0);
  sc.steal_ticks = 20;
  sc.vcpu_step_ns = 2'100'000'000;
  m.fill(s2);
  auto s3 = sample(0, 4.0);
  m.fill(s3);
  for (auto* s : {&s1, &s2, &s3}) {
    ASSERT_TRUE(s->host_s && s->host_busy && s->host_steal && s->vcpu_share && s->host_mhz);
    EXPECT_DOUBLE_EQ(*s->host_s, 1.0);
  }
  EXPECT_DOUBLE_EQ(*s1.host_busy, 0.75);  // 150 busy of 200 ticks
  EXPECT_DOUBLE_EQ(*s1.host_steal, 0.0);
  EXPECT_DOUBLE_EQ(*s1.vcpu_share, 0.75);  // 1.5 s of CPU for 2 vCPUs x 1 s
  EXPECT_DOUBLE_EQ(*s2.vcpu_share, 1.05);  // two clocks' jitter: not clamped
  // s3 covers ticks of the interval with steal: 20 of 220 stolen, 170 not idle.
  EXPECT_DOUBLE_EQ(*s3.host_steal, 20.0 / 220.0);
  EXPECT_DOUBLE_EQ(*s3.host_busy, 170.0 / 220.0);

  // A new pass starts over: its first sample has no interval, its second has one.
  auto n0 = sample(1, 1.0);
  m.fill(n0);
  EXPECT_FALSE(n0.host_s || n0.vcpu_share);
  auto n1 = sample(1, 2.0);
  m.fill(n1);
  EXPECT_TRUE(n1.vcpu_share && n1.host_busy);
}

TEST(SampleHostMeter, TwoSamplesDeliveredTogetherShareOneInterval) {
  // Samples arrive at 0 s, 2 s, 2.001 s (the link delivered two at once), 3 s; the guest's
  // vCPU (1 of them) ran 0.9 s in every host second.
  double t = 0;
  host::HostReaders r;
  r.now = [&] { return Clock::time_point() + std::chrono::microseconds(static_cast<long long>(t * 1e6)); };
  r.vcpu_ns = [&]() -> std::optional<std::uint64_t> { return static_cast<std::uint64_t>(t * 0.9e9); };
  host::SampleHostMeter m(1, std::move(r));
  auto a = sample(0, 1.0), b = sample(0, 2.0), c = sample(0, 3.0), d = sample(0, 4.0);
  m.fill(a);
  t = 2.0;
  m.fill(b);
  ASSERT_TRUE(b.host_s && b.vcpu_share);
  EXPECT_NEAR(*b.host_s, 2.0, 1e-9);
  EXPECT_NEAR(*b.vcpu_share, 0.9, 1e-9);
  t = 2.001;
  m.fill(c);
  EXPECT_FALSE(c.host_s || c.vcpu_share) << "1 ms is no interval: a share of it would be noise";
  t = 3.0;
  m.fill(d);
  ASSERT_TRUE(d.host_s && d.vcpu_share);
  EXPECT_NEAR(*d.host_s, 1.0, 1e-9) << "the interval runs from b, the last sample measured";
  EXPECT_NEAR(*d.vcpu_share, 0.9, 1e-9);
}

TEST(SampleHostMeter, RemoteHostOnlyLibvirtsVcpuTime) {
  Script sc;
  sc.vcpu_step_ns = 900'000'000;
  host::SampleHostMeter m(1, sc.readers(false));
  auto a = sample(0, 1.0), b = sample(0, 2.0);
  m.fill(a);
  m.fill(b);
  EXPECT_FALSE(b.host_busy || b.host_steal || b.host_mhz) << "a remote host's /proc is not ours";
  ASSERT_TRUE(b.vcpu_share && b.host_s);
  EXPECT_DOUBLE_EQ(*b.vcpu_share, 0.9);
}

TEST(SampleHostMeter, LibvirtSilentMeansNoVcpuShareButTheSampleKeepsTheRest) {
  Script sc;
  sc.libvirt_answers = false;
  host::SampleHostMeter m(2, sc.readers(true));
  auto a = sample(0, 1.0), b = sample(0, 2.0), c = sample(0, 3.0);
  m.fill(a);
  m.fill(b);
  m.fill(c);
  EXPECT_FALSE(c.vcpu_share);
  EXPECT_TRUE(c.host_busy && c.host_mhz && c.host_s);
}

TEST(SampleHostMeter, ThrowingReadersLoseOnlyTheirFacts) {
  host::HostReaders r;
  r.vcpu_ns = []() -> std::optional<std::uint64_t> { throw std::runtime_error("boom"); };
  host::SampleHostMeter m(2, std::move(r));
  auto a = sample(0, 1.0), b = sample(0, 2.0);
  EXPECT_NO_THROW(m.fill(a));
  EXPECT_NO_THROW(m.fill(b));
  EXPECT_FALSE(b.vcpu_share);
}

}  // namespace
