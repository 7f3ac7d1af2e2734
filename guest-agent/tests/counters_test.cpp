// Counter parsers against captured real files (data/README.md) and the delta arithmetic.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "counters/counters.hpp"
#include "common/fileio.hpp"
#include "serve/sysinfo.hpp"

using namespace rlab::agent;

namespace {
std::string fixture(const std::string& name) {
  auto t = read_file(std::string(RLAB_AGENT_TEST_DATA) + "/" + name);
  if (!t) throw std::runtime_error("missing fixture " + name);
  return *t;
}
}  // namespace

TEST(Counters, ProcStatFixture) {
  const auto s = parse_proc_stat(fixture("proc_stat"));
  // cpu  91187 0 18505 54934 1464 0 324 1540 0 0
  EXPECT_EQ(s.cpu.at("user"), 91187u);
  EXPECT_EQ(s.cpu.at("nice"), 0u);
  EXPECT_EQ(s.cpu.at("system"), 18505u);
  EXPECT_EQ(s.cpu.at("idle"), 54934u);
  EXPECT_EQ(s.cpu.at("iowait"), 1464u);
  EXPECT_EQ(s.cpu.at("softirq"), 324u);
  EXPECT_EQ(s.cpu.at("steal"), 1540u);
  EXPECT_EQ(s.cpu.size(), 8u) << "guest/guest_nice are already inside user/nice";
  EXPECT_GT(s.ctxt, 0u);
  EXPECT_GT(s.forks, 0u);
  // The per-CPU lines must not overwrite the aggregate.
  EXPECT_NE(s.cpu.at("user"), 44826u);
}

TEST(Counters, ProcStatRejectsGarbage) {
  EXPECT_THROW(parse_proc_stat("intr 1 2 3\nctxt 5\n"), std::runtime_error);
  EXPECT_THROW(parse_proc_stat("cpu 1 2 x 4 5\nctxt 5\n"), std::runtime_error);
  try {
    parse_proc_stat("cpu 1 2 3 4 5\nctxt five\n");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/stat line 2"), std::string::npos) << e.what();
  }
}

TEST(Counters, VmstatFixture) {
  const auto text = fixture("proc_vmstat");
  const auto m = parse_vmstat(text);
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(m.size(), lines);
  EXPECT_TRUE(m.count("pgfault"));
  EXPECT_TRUE(m.count("nr_free_pages"));
  EXPECT_GT(m.at("pgfault"), 0u);
  EXPECT_THROW(parse_vmstat("pgfault\n"), std::runtime_error);
}

TEST(Counters, PressureFixtures) {
  auto cpu = parse_pressure(fixture("pressure_cpu"), "cpu");
  EXPECT_EQ(cpu.at("cpu.some"), 428860127u);
  EXPECT_EQ(cpu.at("cpu.full"), 0u);
  auto io = parse_pressure(fixture("pressure_io"), "io");
  EXPECT_EQ(io.at("io.some"), 14894090u);
  EXPECT_EQ(io.at("io.full"), 11629325u);
  auto mem = parse_pressure(fixture("pressure_memory"), "memory");
  EXPECT_EQ(mem.size(), 2u);
  EXPECT_THROW(parse_pressure("some avg10=0.00\n", "cpu"), std::runtime_error);
}

TEST(Counters, XfsStatsPerDeviceFixture) {
  const auto m = parse_xfs_stats(fixture("xfs_stats_loop0"));
  // extent_alloc 5 26 5 26 / blk_map 652 202 402 2 202 1260 0 / dir 200 200 200 2
  EXPECT_EQ(m.at("extent_alloc.0"), 5u);
  EXPECT_EQ(m.at("extent_alloc.3"), 26u);
  EXPECT_EQ(m.at("blk_map.5"), 1260u);
  EXPECT_EQ(m.at("dir.0"), 200u);
  EXPECT_EQ(m.at("dir.3"), 2u);
  EXPECT_TRUE(m.count("vnodes.7"));
  EXPECT_TRUE(m.count("xpc.2"));
  EXPECT_FALSE(m.count("vnodes.8"));
}

TEST(Counters, XfsStatsGlobalFixture) {
  const auto m = parse_xfs_stats(fixture("proc_fs_xfs_stat"));
  EXPECT_TRUE(m.count("ig.6"));
  EXPECT_TRUE(m.count("debug.0"));
  EXPECT_THROW(parse_xfs_stats(""), std::runtime_error);
}

TEST(Counters, HistFixtures) {
  EXPECT_EQ(parse_hist_hits(fixture("tracefs_hist_xfs_inodegc_queue")), 608u);
  EXPECT_EQ(parse_hist_hits(fixture("tracefs_hist_empty")), 0u);
  EXPECT_FALSE(parse_hist_hits("# event histogram\n").has_value());
}

TEST(Counters, MeminfoFixture) {
  EXPECT_GT(parse_mem_total_kib(fixture("proc_meminfo")), 1000u);
  EXPECT_EQ(parse_mem_total_kib("MemTotal:       24684092 kB\n"), 24684092u);
  // /init's RLAB_INIT_UPTIME: /proc/uptime's first field, nothing else.
  EXPECT_DOUBLE_EQ(parse_uptime("0.81").value_or(-1), 0.81);
  EXPECT_DOUBLE_EQ(parse_uptime("12").value_or(-1), 12);
  for (const char* bad : {"", "-1", "0.8s", "nan", "inf", "1e999"}) EXPECT_FALSE(parse_uptime(bad)) << bad;
  EXPECT_FALSE(parse_uptime(nullptr));
  EXPECT_EQ(parse_mem_total_kib("Foo: 1 kB\n"), 0u);
}

// The guest's view of its hypervisor: KVM's vendor services answer an arm64 guest kernel, and
// it says so in its log; TCG has none.
TEST(Counters, HypervisorFromTheKernelLog) {
  EXPECT_EQ(hypervisor_from_log("[    0.000000] psci: PSCIv1.1 detected in firmware.\n"
                                "[    0.000000] smccc: KVM: hypervisor services detected (0x00000000 "
                                "0x00000000 0x00000000 0x00000003)\n"),
            "kvm");
  EXPECT_EQ(hypervisor_from_log("[    0.000000] psci: PSCIv1.1 detected in firmware.\n"), "none");
  // This machine's own log reads either way, never fails.
  const std::string mine = hypervisor_from_log(read_kernel_log());
  EXPECT_TRUE(mine == "kvm" || mine == "none") << mine;
}

// The agent's exact RSS (ru_maxrss reads 0 in a 64K-page guest: per-CPU RSS counters).
TEST(Counters, SmapsRollupRss) {
  EXPECT_EQ(parse_rollup_rss_kib(fixture("smaps_rollup")), 1608u);
  EXPECT_EQ(parse_rollup_rss_kib("00400000-7ffe ---p 00000000 00:00 0 [rollup]\nPss: 3 kB\n"), 0u);
  const std::uint64_t now = current_rss_kib();
  EXPECT_GT(now, 100u);  // this test binary's own resident set
  EXPECT_GE(peak_rss_kib(now), now);
  EXPECT_EQ(peak_rss_kib(1ull << 40), 1ull << 40);
}

TEST(Counters, DeltaSemantics) {
  Snapshot a, b;
  a.tracepoints = {{"xfs:xfs_inodegc_queue", 10}, {"xfs:xfs_inodegc_worker", 3}};
  b.tracepoints = {{"xfs:xfs_inodegc_queue", 25}, {"xfs:xfs_inodegc_worker", 3}};
  a.xfs_stats = {{"ig.0", 100}, {"vnodes.0", 5}};
  b.xfs_stats = {{"ig.0", 140}, {"vnodes.0", 5}};
  a.stat.cpu = {{"user", 1000}, {"idle", 50}};
  b.stat.cpu = {{"user", 1100}, {"idle", 50}};
  a.stat.ctxt = 7;
  b.stat.ctxt = 19;
  a.pressure = {{"cpu.some", 1000}};
  b.pressure = {{"cpu.some", 4000}};
  a.vmstat = {{"nr_free_pages", 500}, {"pgfault", 9}};
  b.vmstat = {{"nr_free_pages", 380}, {"pgfault", 9}};
  const auto d = delta(a, b);
  EXPECT_EQ(d.tracepoints.at("xfs:xfs_inodegc_queue"), 15u);
  EXPECT_EQ(d.tracepoints.at("xfs:xfs_inodegc_worker"), 0u) << "present events are reported even at 0";
  EXPECT_FALSE(d.tracepoints.count("xfs:xfs_inodegc_push")) << "absent events stay absent";
  EXPECT_EQ(d.xfs_stats, (std::map<std::string, std::uint64_t>{{"ig.0", 40}}));
  EXPECT_EQ(d.cpu.at("user"), 100u);
  EXPECT_EQ(d.cpu.at("idle"), 0u);
  EXPECT_EQ(d.ctxt, 12u);
  EXPECT_EQ(d.pressure.at("cpu.some"), 3000u);
  EXPECT_EQ(d.vmstat, (std::map<std::string, std::int64_t>{{"nr_free_pages", -120}}));
  // A counter that went backwards (stats cleared) reports its new value.
  b.xfs_stats.values[0] = 30;  // "ig.0"
  EXPECT_EQ(delta(a, b).xfs_stats.at("ig.0"), 30u);
  // Tables listing names in another order (or new ones) are matched by name.
  a.vmstat = {{"pgfault", 9}, {"nr_free_pages", 500}};
  b.vmstat = {{"nr_free_pages", 380}, {"pgfault", 12}, {"new_counter", 4}};
  EXPECT_EQ(delta(a, b).vmstat,
            (std::map<std::string, std::int64_t>{{"nr_free_pages", -120}, {"pgfault", 3}, {"new_counter", 4}}));
}

TEST(Counters, ReparsingIntoATableReusesAndTracksChanges) {
  CounterTable t;
  parse_xfs_stats_into(fixture("xfs_stats_loop0"), t);
  const auto first = t.to_map();
  parse_xfs_stats_into(fixture("xfs_stats_loop0"), t);
  EXPECT_EQ(t.to_map(), first);
  parse_xfs_stats_into("ig 1 2\nvnodes 7\n", t);
  EXPECT_EQ(t.to_map(), (CounterMap{{"ig.0", 1}, {"ig.1", 2}, {"vnodes.0", 7}}));
  parse_vmstat_into(fixture("proc_vmstat"), t);
  EXPECT_EQ(t.to_map(), parse_vmstat(fixture("proc_vmstat")));
}

TEST(Counters, DeltaBetweenTwoRealReadingsOfThisMachine) {
  Snapshot a, b;
  a.stat = parse_proc_stat(*read_file("/proc/stat"));
  parse_vmstat_into(*read_file("/proc/vmstat"), a.vmstat);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  while (std::chrono::steady_clock::now() < until) {
  }
  b.stat = parse_proc_stat(*read_file("/proc/stat"));
  parse_vmstat_into(*read_file("/proc/vmstat"), b.vmstat);
  const auto d = delta(a, b);
  std::uint64_t jiffies = 0;
  for (const auto& [k, v] : d.cpu) jiffies += v;
  EXPECT_GT(jiffies, 0u) << "the busy loop took time";
  EXPECT_EQ(d.cpu.size(), 8u);
}
