// Pinning: the matrix keys (validated with file:line:col), the host topology from libvirt's
// capabilities, the refusal of oversubscription, the CPU pool, and host load readings.
#include "matrix/matrix.hpp"
#include "host/host_load.hpp"
#include "host/pinning.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace rlab;

namespace {

std::string matrix_with(const std::string& guest) {
  return "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\naxes:\n  kernel: [a]\n"
         "  vcpus: [2]\n  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n" + guest;
}

matrix::Matrix parse(const std::string& text) {
  matrix::LoadOptions o;
  o.check_paths = false;
  return matrix::parse_matrix(text, "m.yaml", o);
}

void expect_error(const std::string& text, int line, int col, const std::string& part) {
  try {
    parse(text);
    FAIL() << "accepted:\n" << text;
  } catch (const matrix::MatrixError& e) {
    EXPECT_EQ(e.line, line) << e.what();
    EXPECT_EQ(e.col, col) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// Two NUMA cells, two cores each with two threads; ids interleaved as Linux numbers them.
constexpr const char* kCaps = R"(<capabilities><host><topology><cells num='2'>
<cell id='0'><cpus num='4'>
<cpu id='0' socket_id='0' die_id='0' core_id='0' siblings='0,4'/>
<cpu id='1' socket_id='0' die_id='0' core_id='1' siblings='1,5'/>
<cpu id='4' socket_id='0' die_id='0' core_id='0' siblings='0,4'/>
<cpu id='5' socket_id='0' die_id='0' core_id='1' siblings='1,5'/>
</cpus></cell>
<cell id='1'><cpus num='4'>
<cpu id='2' socket_id='1' die_id='0' core_id='0' siblings='2,6'/>
<cpu id='3' socket_id='1' die_id='0' core_id='1' siblings='3,7'/>
<cpu id='6' socket_id='1' die_id='0' core_id='0' siblings='2,6'/>
<cpu id='7' socket_id='1' die_id='0' core_id='1' siblings='3,7'/>
</cpus></cell></cells></topology></host></capabilities>)";

}  // namespace

TEST(PinningMatrix, DefaultsAndKeys) {
  EXPECT_FALSE(parse(matrix_with("")).guest.pinning.vcpus);
  auto p = parse(matrix_with("guest:\n  pinning: {vcpus: auto}\n")).guest.pinning;
  EXPECT_TRUE(p.vcpus);
  EXPECT_TRUE(p.emulator);
  EXPECT_FALSE(p.allow_oversubscription);
  p = parse(matrix_with("guest:\n  pinning: {emulator: none, host_cpus: [1, 0], allow_oversubscription: true}\n"))
          .guest.pinning;
  EXPECT_TRUE(p.vcpus);
  EXPECT_FALSE(p.emulator);
  EXPECT_EQ(p.host_cpus, (std::vector<unsigned>{1, 0}));
  EXPECT_TRUE(p.allow_oversubscription);
}

TEST(PinningMatrix, BadValuesNameTheirPlace) {
  expect_error(matrix_with("guest:\n  pinning: {vcpus: all}\n"), 9, 20, "guest.pinning.vcpus: 'all'");
  expect_error(matrix_with("guest:\n  pinning: {vcpu: auto}\n"), 9, 13, "unknown key 'vcpu'");
  expect_error(matrix_with("guest:\n  pinning: {host_cpus: [0, 0]}\n"), 9, 28, "CPU 0 appears twice");
  expect_error(matrix_with("guest:\n  pinning: {host_cpus: [-1]}\n"), 9, 25, "host_cpus[0]");
  expect_error(matrix_with("guest:\n  pinning: {allow_oversubscription: yes}\n"), 9, 37, "true or false");
  expect_error(matrix_with("guest:\n  pinning: {vcpus: none, emulator: vcpus}\n"), 9, 36, "needs vcpus: auto");
  expect_error(matrix_with("guest:\n  pinning: [0, 1]\n"), 9, 12, "guest.pinning");
}

TEST(WarmupMatrix, KeyAndRange) {
  auto m = parse("kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\naxes:\n  kernel: [a]\n"
                 "  vcpus: [2]\n  filesystem: [{fs: xfs}]\n  workload: [{type: shell1, warmup_passes: 1, passes: 3}]\n");
  EXPECT_EQ(m.workload_axis[0].warmup_passes, 1u);
  EXPECT_EQ(m.workload_axis[0].passes, 3u);
  EXPECT_EQ(parse(matrix_with("")).workload_axis[0].warmup_passes, 0u);
  expect_error("kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\naxes:\n  kernel: [a]\n"
               "  vcpus: [2]\n  filesystem: [{fs: xfs}]\n  workload: [{type: shell1, warmup_passes: 11}]\n",
               7, 44, "warmup_passes: 11 is out of range [0, 10]");
}

TEST(Topology, CoresAndNumaCellsInOrder) {
  auto t = host::parse_topology(kCaps);
  std::vector<unsigned> ids;
  for (const auto& c : t) ids.push_back(c.id);
  // Cell 0 first; within it core 0's threads (0, 4) then core 1's (1, 5).
  EXPECT_EQ(ids, (std::vector<unsigned>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(t[4].numa_cell, 1u);
  EXPECT_EQ(t[4].socket, 1u);
  EXPECT_THROW(host::parse_topology("<capabilities/>"), std::runtime_error);
  EXPECT_THROW(host::parse_topology("<topology><cells num='0'></cells></topology>"), std::runtime_error);
}

TEST(Topology, OversubscriptionIsRefusedUnlessAllowed) {
  auto t = host::parse_topology(kCaps);
  matrix::Pinning p;
  p.vcpus = true;
  EXPECT_EQ(host::pinning_cpus(p, t, "qemu:///system", 8, 2).size(), 8u);
  try {
    host::pinning_cpus(p, t, "qemu:///system", 9, 2);
    FAIL() << "a budget of 9 vCPUs on 8 CPUs was accepted";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("allow_oversubscription"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("9 vCPUs"), std::string::npos) << e.what();
  }
  p.host_cpus = {2, 3};
  EXPECT_EQ(host::pinning_cpus(p, t, "u", 2, 2), (std::vector<unsigned>{2, 3}));
  EXPECT_THROW(host::pinning_cpus(p, t, "u", 2, 3), rlab::UsageError);  // a 3-vCPU cell
  p.allow_oversubscription = true;
  EXPECT_EQ(host::pinning_cpus(p, t, "u", 4, 3).size(), 2u);
  p.host_cpus = {9};
  EXPECT_THROW(host::pinning_cpus(p, t, "u", 1, 1), rlab::UsageError);  // no CPU 9
}

TEST(CpuPool, RunningGuestsGetDistinctCpusAndShareEvenlyWhenOversubscribed) {
  host::CpuPool pool({0, 1, 2, 3});
  auto a = pool.acquire(2), b = pool.acquire(2);
  std::set<unsigned> all(a.begin(), a.end());
  all.insert(b.begin(), b.end());
  EXPECT_EQ(all.size(), 4u);
  pool.release(a);
  auto c = pool.acquire(2);
  EXPECT_EQ(std::set<unsigned>(c.begin(), c.end()), std::set<unsigned>(a.begin(), a.end()));
  auto d = pool.acquire(4);  // oversubscribed: one more guest on each CPU
  EXPECT_EQ(std::set<unsigned>(d.begin(), d.end()).size(), 4u);
  EXPECT_EQ(host::cpuset({0, 1}), "0,1");
}

TEST(HostLoad, ParsesProcFilesAndComputesShares) {
  auto a = host::parse_proc_stat("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3 4\n");
  EXPECT_EQ(a.total, 1000u);
  EXPECT_EQ(a.idle, 850u);
  auto b = host::parse_proc_stat("cpu  300 0 100 1300 100 0 0 200\n");
  EXPECT_EQ(b.steal, 200u);
  host::HostSnapshot s0, s1;
  s0.cpu = a, s0.load1 = 0.5, s0.cpus = 2;
  s1.cpu = b, s1.load1 = 1.5, s1.cpus = 2;
  s1.at = s0.at + std::chrono::seconds(10);
  auto h = host::host_between(s0, s1);
  // 1000 ticks passed, 550 of them idle or iowait, 200 stolen.
  EXPECT_NEAR(h.busy_fraction, 0.45, 1e-12);
  EXPECT_DOUBLE_EQ(h.steal_fraction, 0.2);
  EXPECT_DOUBLE_EQ(h.load1_before, 0.5);
  EXPECT_DOUBLE_EQ(h.load1_after, 1.5);
  EXPECT_NEAR(h.seconds, 10, 1e-9);
  EXPECT_DOUBLE_EQ(host::parse_loadavg("0.52 0.58 0.59 1/467 12345\n"), 0.52);
  EXPECT_THROW(host::parse_proc_stat("intr 1 2 3"), std::runtime_error);
  EXPECT_THROW(host::parse_proc_stat("cpu 1 2\n"), std::runtime_error);
  EXPECT_THROW(host::parse_loadavg("x"), std::runtime_error);
}

TEST(HostLoad, LibvirtsNodeStatsGiveStealAsWhatWallTimeLeaves) {
  // virNodeGetCPUStats in ns: 2 CPUs over 10 s are 20 s of CPU time; the four states account
  // for 16 s, so 4 s were stolen; 6 s of them idle or iowait.
  const auto a = host::parse_node_cpu_stats({{"kernel", 0}, {"user", 0}, {"idle", 0}, {"iowait", 0}}, "h");
  const auto b = host::parse_node_cpu_stats(
      {{"kernel", 4'000'000'000}, {"user", 6'000'000'000}, {"idle", 5'000'000'000}, {"iowait", 1'000'000'000}}, "h");
  EXPECT_TRUE(b.steal_from_wall);
  EXPECT_EQ(b.total, 16'000'000'000u);
  EXPECT_EQ(b.idle, 6'000'000'000u);
  host::HostSnapshot s0, s1;
  s0.cpu = a, s0.cpus = 2;
  s1.cpu = b, s1.cpus = 2;
  s1.at = s0.at + std::chrono::seconds(10);
  const auto h = host::host_between(s0, s1);
  EXPECT_NEAR(h.steal_fraction, 0.2, 1e-12);
  EXPECT_NEAR(h.busy_fraction, 0.7, 1e-12) << "busy = 1 - idle/all, steal included, as from /proc";
  // More state time than wall time (clock jitter between the two calls): no negative steal.
  s1.at = s0.at + std::chrono::seconds(7);
  EXPECT_EQ(host::host_between(s0, s1).steal_fraction, 0);
  EXPECT_THROW(host::parse_node_cpu_stats({{"user", 1}}, "qemu+tcp://h/system"), std::runtime_error);
}

TEST(HostLoad, ReadsThisMachine) {
  auto s = host::read_host();
  EXPECT_GE(s.cpus, 1u);
  EXPECT_GT(s.cpu.total, 0u);
  EXPECT_GE(s.load1, 0);
}
