// Parsing and summarizing of the per-pass attribution (attribution.hpp, oncpu.hpp). The
// collectors themselves need a kernel with hist triggers and synthetic events: they are tested
// in a booted 6.12 guest (orchestrator/tests/report/real_attribution_test.cpp).
#include <gtest/gtest.h>

#include "attribution.hpp"
#include "oncpu.hpp"

namespace ra = rlab::agent;

namespace {
// The layout of a stacktrace-keyed hist file (Documentation/trace/histogram.rst).
constexpr const char* kOffcpuHist = R"(# event histogram
#
# trigger info: hist:keys=state,comm,stack.stacktrace:vals=hitcount,delta:sort=hitcount:size=8192 [active]
#

{ state:          2, comm: kworker/1:2     , stack.stacktrace         __schedule+0x2d8/0x8a0
         schedule+0x58/0x100
         schedule_timeout+0xb4/0x130
         ___down_common+0x10c/0x1c0
         __down+0x20/0x30
         down+0x60/0x80
         xfs_buf_lock+0x3c/0x150
         xfs_read_agi+0x98/0x190
         xfs_inodegc_worker+0xf4/0x1c0
} hitcount:         12  delta:    3400000
{ state:          1, comm: sh              , stack.stacktrace         __schedule+0x2d8/0x8a0
         schedule+0x58/0x100
         do_wait+0x1a4/0x1f0
} hitcount:        900  delta:  70000000000

Totals:
    Hits: 912
    Entries: 2
    Dropped: 0
)";
}  // namespace

TEST(Attribution, ParsesAStackHistWithStateCommAndValues) {
  const auto rows = ra::parse_stack_hist(kOffcpuHist);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].state, 2);
  EXPECT_EQ(rows[0].comm, "kworker/1:2");
  EXPECT_EQ(rows[0].hitcount, 12u);
  EXPECT_EQ(rows[0].delta, 3400000u);
  ASSERT_EQ(rows[0].frames.size(), 9u);
  EXPECT_EQ(rows[0].frames.front(), "__schedule");
  EXPECT_EQ(rows[0].frames[6], "xfs_buf_lock");
  EXPECT_EQ(rows[0].frames.back(), "xfs_inodegc_worker");
  EXPECT_EQ(rows[1].comm, "sh");
  EXPECT_EQ(rows[1].state, 1);
  EXPECT_EQ(rows[1].delta, 70000000000u);
  EXPECT_TRUE(ra::parse_stack_hist("# event histogram\n\nTotals:\n    Hits: 0\n").empty());
  EXPECT_TRUE(ra::parse_stack_hist("{ stack.stacktrace no frames here } hitcount: 3\n").empty());
}

TEST(Attribution, TracingFramesAtTheTopAreDropped) {
  std::vector<std::string> f{"trace_event_raw_event_synth", "event_hist_trigger", "__traceiter_contention_begin",
                             "__down", "down", "xfs_buf_lock"};
  ra::drop_tracing_frames(f);
  EXPECT_EQ(f, (std::vector<std::string>{"__down", "down", "xfs_buf_lock"}));
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

TEST(Attribution, WithoutHistTriggersTheCollectorsSayWhatIsMissingAndStillCountOnCpu) {
  // The host kernel of the test machine may or may not have hist triggers and synthetic events;
  // either way open() never throws and every family is either collected or named.
  auto a = ra::Attribution::open("stacks", 5);
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
