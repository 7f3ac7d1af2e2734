// Parsing and summarizing of the per-pass attribution (attribution.hpp, oncpu.hpp, offcpu.hpp),
// and the BPF off-CPU program on this machine's kernel. The whole set of collectors is tested in
// a booted 6.12 guest (orchestrator/tests/attribution/real_attribution_test.cpp).
#include <gtest/gtest.h>

#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <unistd.h>
#include <thread>

#include "attribution/attribution.hpp"
#include "attribution/bpf_waits.hpp"
#include "attribution/oncpu.hpp"

namespace ra = rlab::agent;


TEST(Attribution, TracingFramesAtTheTopAreDropped) {
  // As a 64K arm64 guest's BPF stacks read: the JIT'ed program, unnamed in the kallsyms taken
  // before it was loaded, is named after the symbol below it.
  std::vector<std::string> f{"_einittext", "_einittext", "bpf_trace_run2", "__bpf_trace_contention_begin",
                             "__traceiter_contention_begin", "__down", "down", "xfs_buf_lock"};
  ra::drop_tracing_frames(f);
  EXPECT_EQ(f, (std::vector<std::string>{"__down", "down", "xfs_buf_lock"}));
  std::vector<std::string> sw{"0xffff800080aa0000", "bpf_trace_run4", "__bpf_trace_sched_switch", "__schedule", "schedule"};
  ra::drop_tracing_frames(sw);
  EXPECT_EQ(sw, (std::vector<std::string>{"__schedule", "schedule"}));
  std::vector<std::string> oncpu{"tlb_flush", "unmap_vmas", "[sort]"};
  ra::drop_tracing_frames(oncpu);
  EXPECT_EQ(oncpu.size(), 3u) << "no glue: left as it is";
}

TEST(Attribution, SummaryKeepsTheTopStacksOfEachFamilyAnOtherRowAndTheXfsClasses) {
  namespace rp = rlab::protocol;
  std::vector<rp::StackRow> rows;
  rows.push_back({"lock", {"__down", "down", "xfs_buf_lock", "xfs_read_agi"}, 3, 300});
  rows.push_back({"lock", {"__down", "down", "xfs_buf_lock", "xfs_read_agi"}, 1, 100});  // merged
  rows.push_back({"lock", {"__down", "down", "xfs_buf_lock", "xfs_read_agf"}, 2, 50});
  rows.push_back({"lock", {"rwsem_down_write_slowpath", "vfs_unlink"}, 1, 10});
  rows.push_back({"offcpu.D", {"schedule", "io_schedule"}, 5, 5000});
  rows.push_back({"oncpu", {"copy_page", "[sh]"}, 7, 70});
  const auto a = ra::summarize_stacks(rows, 2, true);
  EXPECT_EQ(a.totals.at("lock.waits"), 7u);
  EXPECT_EQ(a.totals.at("lock.wait_ns"), 460u);
  EXPECT_EQ(a.totals.at("xfs_agi.waits"), 4u);
  EXPECT_EQ(a.totals.at("xfs_agi.wait_ns"), 400u);
  EXPECT_EQ(a.totals.at("xfs_agf.wait_ns"), 50u);
  EXPECT_EQ(a.totals.at("xfs_buf.wait_ns"), 450u);
  EXPECT_EQ(a.totals.at("offcpu.D.wait_ns"), 5000u);
  EXPECT_EQ(a.totals.at("oncpu.samples"), 7u);
  std::size_t lock_rows = 0;
  for (const auto& r : a.stacks) {
    if (r.family != "lock") continue;
    ++lock_rows;
    if (lock_rows == 1) {
      EXPECT_EQ(r.total_ns, 400u) << "largest wait first";
    } else if (lock_rows == 3) {
      EXPECT_TRUE(r.frames.empty()) << "the rest is one 'other' row";
      EXPECT_EQ(r.total_ns, 10u);
    }
  }
  EXPECT_EQ(lock_rows, 3u);
  EXPECT_TRUE(ra::summarize_stacks(rows, 2, false).stacks.empty()) << "level counts keeps totals only";
}

TEST(Attribution, KallsymsNamesAnAddressByTheSymbolBelowIt) {
  const ra::Kallsyms k("ffff800080010000 T _text\nffff800080020000 t xfs_buf_lock\t[xfs]\n"
                       "ffff800080030000 D some_data\nffff800080040000 T down\n0000000000000000 T hidden\n");
  EXPECT_EQ(k.size(), 3u) << "text symbols with an address only";
  EXPECT_EQ(k.name(0xffff800080020010), "xfs_buf_lock");
  EXPECT_EQ(k.name(0xffff800080035000), "xfs_buf_lock") << "data symbols are not frames";
  EXPECT_EQ(k.name(0xffff800080040000), "down");
  EXPECT_EQ(k.name(0x10), "0x10");
}

TEST(Attribution, OnAnyKernelEveryFamilyIsCollectedOrNamedAndOnCpuIsCounted) {
  // The host kernel of the test machine may or may not have BPF raw tracepoints or the lock
  // events; either way open() never throws and every family is either collected or named.
  auto a = ra::Attribution::open(rlab::protocol::AttributionLevel::stacks, 5);
  ASSERT_NE(a, nullptr);
  a->begin_pass();
  volatile double x = 0;
  for (int i = 0; i < 100'000'000; ++i) x = x + 1.0;  // ~0.2 s on the CPU: ~20 samples at 100 Hz
  a->stop();
  const auto r = a->end_pass();
  const bool lock = r.totals.count("lock.waits") > 0, offcpu = r.totals.count("offcpu.D.waits") > 0,
             oncpu = r.totals.count("oncpu.samples") > 0;
  EXPECT_TRUE(lock || r.unavailable.find("lock") != std::string::npos) << r.unavailable;
  EXPECT_TRUE(offcpu || r.unavailable.find("offcpu") != std::string::npos) << r.unavailable;
  EXPECT_TRUE(oncpu || r.unavailable.find("oncpu") != std::string::npos) << r.unavailable;
  if (oncpu) {  // this process's own time, under its own name
    EXPECT_GT(r.totals.at("oncpu.samples"), 0u);
    bool mine = false;
    for (const auto& s : r.stacks)
      if (s.family == "oncpu" && !s.frames.empty() && s.frames.back() == "[rlab_agent_test]") mine = true;
    EXPECT_TRUE(mine) << "no on-CPU row of [rlab_agent_test]";
  }
}

TEST(Attribution, WaitRowsKeepLockWaitsAndTheLoadsOffCpuTasksWithNamedFrames) {
  const ra::Kallsyms k("ffff800080010000 T bpf_trace_run4\nffff800080020000 T __schedule\n"
                       "ffff800080030000 T schedule\nffff800080040000 T xfs_buf_lock\n");
  std::vector<ra::WaitEntry> e(5);
  e[0] = {{0xffff800080010010, 0xffff800080020020, 0xffff800080030030, 0xffff800080040040}, 2, "kworker/0:1", 3, 3000};
  e[1] = {{0xffff800080020020}, 1, "sh", 7, 700};
  e[2] = {{0xffff800080020020}, 2, "rlab-agent", 1, 100};  // not the load's
  e[3] = {{}, 2, "sort", 2, 50};                             // the kernel kept no stack
  e[4] = {{0xffff800080040040}, 0, "", 4, 400};              // a lock wait: every task's
  const auto rows = ra::wait_rows(e, k, [](std::string_view c) { return c == "kworker/0:1" || c == "sh" || c == "sort"; });
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].family, "offcpu.D");
  EXPECT_EQ(rows[0].frames, (std::vector<std::string>{"__schedule", "schedule", "xfs_buf_lock"}));
  EXPECT_EQ(rows[0].count, 3u);
  EXPECT_EQ(rows[0].total_ns, 3000u);
  EXPECT_EQ(rows[1].family, "offcpu.S");
  EXPECT_EQ(rows[2].frames, (std::vector<std::string>{"[no stack]"}));
  EXPECT_EQ(rows[3].family, "lock");
  EXPECT_EQ(rows[3].frames, (std::vector<std::string>{"xfs_buf_lock"}));
}

// The BPF off-CPU program against this machine's own kernel (root, CONFIG_BPF_EVENTS): a thread
// that sleeps in S (nanosleep) is counted with its sleep and its stack, once attached only
// (the program: attribution/bpf/waits.bpf.c, loaded by libbpf). S sleeps are sampled one in
// WAITS_S_SAMPLE = 8 at random and scaled by 8, so the count is an estimate: 400 sleeps give
// 8 x Binomial(400, 1/8), mean 400, standard deviation 53; the bounds below are 4.7 standard
// deviations out (a false failure about once in a million runs).
TEST(BpfWaits, CountsASleepingThreadsTimeAndStackOnTheRealKernel) {
  auto o = ra::BpfWaits::open(/*with_s=*/true);
  ASSERT_TRUE(o->offcpu()) << o->unavailable();
  auto syms = ra::Kallsyms::load();
  auto sleeper = [](const char* name, int sleeps) {
    return [=] {
      pthread_setname_np(pthread_self(), name);
      for (int i = 0; i < sleeps; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
  };
  // Before start() and after stop() a thread of another name sleeps 100 times: were the
  // program attached, (7/8)^200 < 1e-11 is the chance that none of them would be counted.
  std::thread(sleeper("rlab-outside", 100)).join();
  o->start();
  std::thread(sleeper("rlab-sleeper", 400)).join();
  o->stop();
  std::thread(sleeper("rlab-outside", 100)).join();
  std::uint64_t sleeps = 0, ns = 0;
  bool nanosleep_frame = false;
  for (const auto& r : ra::wait_rows(o->entries(), *syms, [](std::string_view c) { return c == "rlab-sleeper"; })) {
    if (r.family == "lock") continue;
    EXPECT_EQ(r.family, "offcpu.S");
    EXPECT_EQ(r.count % 8, 0u) << "sampled S sleeps are scaled by 8";
    sleeps += r.count;
    ns += r.total_ns;
    for (const auto& f : r.frames) nanosleep_frame |= f.find("nanosleep") != std::string::npos;
  }
  // A sleep whose thread is preempted between setting its state and schedule() for longer
  // than its 1 ms (a host busy with guests) is woken before it switches out asleep: the kernel
  // rightly shows no sleep then, hence the lower bound's margin below the mean.
  EXPECT_GE(sleeps, 150u) << "400 sleeps while attached, one in 8 counted as 8";
  EXPECT_LE(sleeps, 700u);
  EXPECT_GE(ns, sleeps * 1'000'000ull) << "each counted sleep lasted its 1 ms at least";
  EXPECT_LT(ns, sleeps * 200'000'000ull);
  EXPECT_TRUE(nanosleep_frame) << "the blocking stack names the sleep";
  EXPECT_EQ(o->dropped(), 0u);
  for (const auto& e : o->entries()) EXPECT_NE(e.comm, "rlab-outside") << "only the sleeps while attached";
  // A new pass starts empty.
  o->start();
  o->stop();
  for (const auto& e : o->entries()) EXPECT_NE(e.comm, "rlab-sleeper");
}

// Lock waits on this machine's kernel: threads creating and removing files in one directory
// contend for its inode lock (an rwsem), so contention_begin/end pairs are counted by stack.
TEST(BpfWaits, CountsContendedKernelLockWaitsWithTheirStacksOnTheRealKernel) {
  auto o = ra::BpfWaits::open(/*with_s=*/false);
  if (!o->lock()) GTEST_FAIL() << "this kernel has no lock:contention_* events: " << o->unavailable();
  auto syms = ra::Kallsyms::load();
  const auto dir = std::filesystem::temp_directory_path() / ("rlab-lockwait-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  o->start();
  std::vector<std::thread> threads;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(800);
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; std::chrono::steady_clock::now() < until; ++i) {
        const auto f = dir / ("f" + std::to_string(t) + "-" + std::to_string(i % 64));
        if (FILE* fp = std::fopen(f.c_str(), "w")) std::fclose(fp);
        std::filesystem::remove(f);
      }
    });
  for (auto& t : threads) t.join();
  o->stop();
  std::filesystem::remove_all(dir);
  std::uint64_t waits = 0, ns = 0;
  bool lock_frame = false;
  for (const auto& r : ra::wait_rows(o->entries(), *syms, [](std::string_view) { return false; })) {
    ASSERT_EQ(r.family, "lock") << "off-CPU rows of no kept task are left out";
    waits += r.count;
    ns += r.total_ns;
    for (const auto& f : r.frames)
      lock_frame |= f.find("rwsem") != std::string::npos || f.find("mutex") != std::string::npos ||
                    f.find("spin_lock") != std::string::npos || f.find("down_") != std::string::npos;
  }
  EXPECT_GT(waits, 0u) << "six threads on two CPUs in one directory contend for its lock";
  EXPECT_GT(ns, 0u);
  EXPECT_TRUE(lock_frame) << "a lock primitive in the waiters' stacks";
}
