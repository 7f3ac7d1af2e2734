// The AG header collector (attribution/bpf_ag_headers.hpp) on this machine's kernel (root,
// XFS, CONFIG_BPF_EVENTS): a fresh XFS of 4 AGs on a loop device, threads creating and
// removing files in one directory each (inode allocation and freeing lock the AGI of the
// directory's AG; unlinked inodes are freed by the inodegc worker), counted per AG and header.
#include <fcntl.h>
#include <linux/fs.h>  // FIFREEZE, FITHAW
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <cstring>
#include <thread>

#include "attribution/attribution.hpp"
#include "attribution/bpf_ag_headers.hpp"
#include "attribution/oncpu.hpp"
#include "counters/tracepoints.hpp"
#include "harness.hpp"
#include "host_setup.hpp"

namespace ra = rlab::agent;
namespace fs = std::filesystem;
using namespace rlab::agent::test;

namespace {

/// Eight threads, each creating and removing files in a directory of its own for `ms`.
void churn(const fs::path& root, int ms) {
  std::vector<std::thread> threads;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      const fs::path dir = root / ("d" + std::to_string(t));
      fs::create_directories(dir);
      for (int i = 0; std::chrono::steady_clock::now() < until; ++i) {
        const auto f = dir / ("f" + std::to_string(i % 256));
        if (FILE* fp = std::fopen(f.c_str(), "w")) std::fclose(fp);
        if (i % 2) fs::remove(f);
      }
    });
  for (auto& t : threads) t.join();
}

/// A fresh XFS of `agcount` AGs on a loop device, mounted at <dir>/mnt until destroyed.
struct LoopXfs {
  explicit LoopXfs(int agcount) : mnt((fs::create_directories(dir.path / "mnt"), dir.path / "mnt")), disk(dir.path, mnt) {
    int st = 0;
    std::string err;
    run_capture({"mkfs.xfs", "-q", "-f", "-d", "agcount=" + std::to_string(agcount), disk.device}, &st, &err);
    EXPECT_EQ(st, 0) << err;
    EXPECT_EQ(::mount(disk.device.c_str(), mnt.c_str(), "xfs", 0, nullptr), 0) << std::strerror(errno);
  }
  TempDir dir;
  fs::path mnt;
  LoopDisk disk;
};

}  // namespace

TEST(BpfAgHeaders, CountsWaitsAndHoldsOfTheAgiPerAgOnTheRealKernel) {
  LoopXfs xfs(4);
  ASSERT_FALSE(::testing::Test::HasFailure());
  const fs::path& mnt = xfs.mnt;
  const LoopDisk& disk = xfs.disk;

  auto c = ra::BpfAgHeaders::open(disk.device, 0);  // every wait's and hold's stack
  EXPECT_EQ(c->geometry().agcount, 4u);
  churn(mnt, 200);  // before start(): not counted
  c->start();
  churn(mnt, 1500);
  ::syncfs(::open(mnt.c_str(), O_RDONLY | O_CLOEXEC));  // the inodegc worker frees what was removed
  c->stop();
  const auto waits = c->waits(), holds = c->holds();
  churn(mnt, 200);  // after stop(): not counted
  EXPECT_EQ(c->waits().size(), waits.size());

  auto syms = ra::Kallsyms::load();
  std::uint64_t agi_waits = 0, agi_contended = 0, agi_held_ns = 0;
  bool xfs_frame = false;
  std::set<std::string> holders;
  for (const auto& w : waits) {
    EXPECT_LT(w.ag, 4u);
    EXPECT_NE(w.header, ra::AgHeader::sb);
    EXPECT_LE(w.contended, w.count);
    EXPECT_LE(w.max_ns, w.total_ns);
    EXPECT_EQ(w.comm, "");
    if (w.header == ra::AgHeader::agi) agi_waits += w.count, agi_contended += w.contended;
    for (auto ip : w.ips) xfs_frame |= syms->name(ip).rfind("xfs_", 0) == 0;
  }
  for (const auto& h : holds) {
    EXPECT_LT(h.ag, 4u);
    EXPECT_LE(h.max_ns, h.total_ns);
    if (h.header == ra::AgHeader::agi) agi_held_ns += h.total_ns;
    holders.insert(h.comm);
  }
  std::cout << "AGI: " << agi_waits << " waits (" << agi_contended << " found it held), " << agi_held_ns / 1000 << " us held; holders:";
  for (const auto& h : holders) std::cout << " " << h;
  std::cout << "\n";
  EXPECT_GT(agi_waits, 0u) << "inode allocation locks the AGI";
  EXPECT_GT(agi_held_ns, 0u);
  EXPECT_TRUE(xfs_frame) << "the waiters' stacks are XFS's";
  EXPECT_TRUE(holders.count("rlab_agent_test") || holders.size() > 1) << "the test's threads hold the AGI";
  EXPECT_EQ(c->dropped(), 0u);
}

// Level `counts`: the same waits and holds, no stack walk (every row's stack is none).
TEST(BpfAgHeaders, WithoutStacksCountsTheSameHeadersAndWalksNoStack) {
  LoopXfs xfs(4);
  ASSERT_FALSE(::testing::Test::HasFailure());
  auto c = ra::BpfAgHeaders::open(xfs.disk.device, ra::BpfAgHeaders::kNoStacks);
  c->start();
  churn(xfs.mnt, 1500);
  c->stop();
  std::uint64_t agi_waits = 0, agi_holds = 0;
  for (const auto& w : c->waits()) {
    EXPECT_TRUE(w.ips.empty());
    if (w.header == ra::AgHeader::agi) agi_waits += w.count;
  }
  for (const auto& h : c->holds()) {
    EXPECT_TRUE(h.ips.empty());
    EXPECT_NE(h.comm, "") << "the holder's name is kept";
    if (h.header == ra::AgHeader::agi) agi_holds += h.count;
  }
  EXPECT_GT(agi_waits, 0u);
  EXPECT_GT(agi_holds, 0u);
  EXPECT_EQ(c->dropped(), 0u);
}

// Levels stacks and full: only waits and holds of at least stack_min_ns are walked; the rows
// with a stack hold only such (their mean is at least the threshold), the rest have none.
TEST(BpfAgHeaders, OnlyWaitsAndHoldsOfAtLeastTheThresholdHaveAStack) {
  LoopXfs xfs(4);
  ASSERT_FALSE(::testing::Test::HasFailure());
  constexpr std::uint64_t kMin = 5'000;
  auto c = ra::BpfAgHeaders::open(xfs.disk.device, kMin);
  c->start();
  churn(xfs.mnt, 1500);
  c->stop();
  unsigned with_stack = 0, without = 0;
  auto rows = c->waits();
  const auto holds = c->holds();
  rows.insert(rows.end(), holds.begin(), holds.end());
  for (const auto& r : rows) {
    if (r.ips.empty()) {
      ++without;
      continue;
    }
    ++with_stack;
    EXPECT_GE(r.total_ns / r.count, kMin) << "a row with a stack holds only waits or holds that long";
  }
  EXPECT_GT(with_stack, 0u) << "some holds of the AGI last 5 us";
  EXPECT_GT(without, 0u) << "uncontended lock calls are shorter";
}

TEST(AgHeaderAttribution, TotalsPerAgAndHeaderAndStacksThatNameTheHeader) {
  const ra::Kallsyms syms("0000000000001000 T __traceiter_xfs_buf_lock\n0000000000002000 T xfs_buf_lock\n"
                          "0000000000003000 T xfs_read_agi\n0000000000004000 T xfs_inodegc_worker\n");
  std::vector<ra::AgHeaderRow> waits = {
      {.ag = 3, .header = ra::AgHeader::agi, .ips = {0x1010, 0x2010, 0x3010}, .comm = "", .count = 5, .contended = 4, .total_ns = 900, .max_ns = 400},
      {.ag = 3, .header = ra::AgHeader::agi, .ips = {}, .comm = "", .count = 1, .contended = 0, .total_ns = 100, .max_ns = 100},
      {.ag = 70, .header = ra::AgHeader::agf, .ips = {0x2010}, .comm = "", .count = 2, .contended = 2, .total_ns = 50, .max_ns = 30},
  };
  std::vector<ra::AgHeaderRow> holds = {
      {.ag = 3, .header = ra::AgHeader::agi, .ips = {0x3010, 0x4010}, .comm = "kworker/0:1", .count = 7, .total_ns = 7000, .max_ns = 3000},
      {.ag = 64, .header = ra::AgHeader::agf, .ips = {0x3010}, .comm = "rm", .count = 1, .total_ns = 20, .max_ns = 20},
      {.ag = 65, .header = ra::AgHeader::agf, .ips = {0x3010}, .comm = "rm", .count = 1, .total_ns = 90, .max_ns = 90},
  };
  std::map<std::string, std::uint64_t> totals;
  std::vector<rlab::protocol::StackRow> rows;
  ra::ag_header_attribution(waits, holds, 80, syms, totals, rows);
  EXPECT_EQ(totals.at("agheader.agcount"), 80u);
  EXPECT_EQ(totals.at("agheader.AGI.3.waits"), 6u);
  EXPECT_EQ(totals.at("agheader.AGI.3.contended"), 4u);
  EXPECT_EQ(totals.at("agheader.AGI.3.wait_ns"), 1000u);
  EXPECT_EQ(totals.at("agheader.AGI.3.holds"), 7u);
  EXPECT_EQ(totals.at("agheader.AGI.3.held_ns"), 7000u);
  EXPECT_EQ(totals.at("agheader.AGI.3.max_held_ns"), 3000u);
  EXPECT_EQ(totals.at("agheader.AGF.64+.waits"), 2u) << "AG 70 is summed with every AG from 64 on";
  EXPECT_EQ(totals.at("agheader.AGF.64+.holds"), 2u);
  EXPECT_EQ(totals.at("agheader.AGF.64+.held_ns"), 110u);
  EXPECT_EQ(totals.at("agheader.AGF.64+.max_held_ns"), 90u) << "the longest of the summed AGs";
  EXPECT_FALSE(totals.count("agheader.AGF.70.waits"));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].family, "agheader.wait");
  EXPECT_EQ(rows[0].frames, (std::vector<std::string>{"[AGI of AG 3]", "xfs_buf_lock", "xfs_read_agi"}))
      << "the tracepoint's glue is dropped";
  EXPECT_EQ(rows[1].frames, (std::vector<std::string>{"[AGI of AG 3]", "[no stack]"}));
  EXPECT_EQ(rows[3].family, "agheader.hold");
  EXPECT_EQ(rows[3].frames, (std::vector<std::string>{"[AGI of AG 3]", "xfs_read_agi", "xfs_inodegc_worker", "[kworker/0:1]"}));
  EXPECT_EQ(rows[3].total_ns, 7000u);

  // Summarized, the families keep their own totals (no "agheader.wait.waits").
  auto a = ra::summarize_stacks(rows, 20, true);
  EXPECT_FALSE(a.totals.count("agheader.wait.waits"));
  EXPECT_FALSE(a.totals.count("agheader.hold.wait_ns"));
  EXPECT_EQ(a.stacks.size(), 5u) << "the holds of AG 64 and 65 by the same stack and task are one row";
}

TEST(Attribution, WatchesThePassFilesystemsAgHeadersOnTheRealKernel) {
  ASSERT_EQ(ensure_tracefs(), "");
  LoopXfs xfs(4);
  ASSERT_FALSE(::testing::Test::HasFailure());
  const fs::path& mnt = xfs.mnt;
  const LoopDisk& disk = xfs.disk;
  const auto device = ra::xfs_device_of(mnt);
  ASSERT_TRUE(device);
  EXPECT_EQ(fs::canonical(*device), fs::canonical(disk.device));
  EXPECT_FALSE(ra::xfs_device_of(xfs.dir.path).has_value()) << "the test's own directory is not on that XFS";

  auto a = ra::Attribution::open(rlab::protocol::AttributionLevel::stacks, 20, device);
  a->begin_pass();
  churn(mnt, 1000);
  ::syncfs(::open(mnt.c_str(), O_RDONLY | O_CLOEXEC));
  a->stop();
  const auto pass = a->end_pass();
  EXPECT_EQ(pass.unavailable.find("agheader"), std::string::npos) << pass.unavailable;
  EXPECT_EQ(pass.totals.at("agheader.agcount"), 4u);
  std::uint64_t agi_holds = 0;
  for (int ag = 0; ag < 4; ++ag)
    if (auto it = pass.totals.find("agheader.AGI." + std::to_string(ag) + ".holds"); it != pass.totals.end())
      agi_holds += it->second;
  EXPECT_GT(agi_holds, 0u) << "creating and freeing inodes holds the AGIs";
  bool hold_row = false, wait_row = false;
  for (const auto& r : pass.stacks) {
    if (r.family != "agheader.hold" && r.family != "agheader.wait") continue;
    if (r.frames.empty()) continue;  // the family's "other" row
    EXPECT_TRUE(std::regex_match(r.frames.front(), std::regex(R"(\[(AGF|AGI|AGFL) of AG [0-3]\])"))) << r.frames.front();
    if (r.family == "agheader.hold") {
      hold_row = true;
      EXPECT_EQ(r.frames.back().front(), '[') << "a hold ends with its holder's name";
    } else {
      wait_row = true;
    }
  }
  EXPECT_TRUE(hold_row);
  std::cout << "AGI holds " << agi_holds << ", wait rows " << (wait_row ? "yes" : "no") << "\n";
}

// A pass on XFS that holds no AG header at all is reported: the load always allocates inodes,
// so it means the programs read the buffers' addresses where this kernel keeps something else.
TEST(Attribution, APassWithoutAnyAgHeaderHeldSaysSo) {
  LoopXfs xfs(4);
  ASSERT_FALSE(::testing::Test::HasFailure());
  const auto device = ra::xfs_device_of(xfs.mnt);
  ASSERT_TRUE(device);
  auto a = ra::Attribution::open(rlab::protocol::AttributionLevel::counts, 20, device);
  // Frozen, the filesystem is truly quiet: freezing flushes it and stops its background
  // workers (the log worker, blockgc, inodegc), which a fresh mount may otherwise run
  // while the pass is open and hold an AG header in.
  const int root = ::open(xfs.mnt.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(root, 0) << std::strerror(errno);
  ASSERT_EQ(::ioctl(root, FIFREEZE, 0), 0) << std::strerror(errno);
  a->begin_pass();
  a->stop();  // nothing done on the filesystem
  const auto quiet = a->end_pass();
  EXPECT_EQ(::ioctl(root, FITHAW, 0), 0) << std::strerror(errno);
  ::close(root);
  EXPECT_NE(quiet.unavailable.find("agheader: no AG header held during the pass"), std::string::npos) << quiet.unavailable;

  a->begin_pass();
  churn(xfs.mnt, 300);
  a->stop();
  const auto busy = a->end_pass();
  EXPECT_EQ(busy.unavailable.find("agheader"), std::string::npos) << busy.unavailable;
}
