// The AG header collector (attribution/bpf_ag_headers.hpp) on this machine's kernel (root,
// XFS, CONFIG_BPF_EVENTS): a fresh XFS of 4 AGs on a loop device, threads creating and
// removing files in one directory each (inode allocation and freeing lock the AGI of the
// directory's AG; unlinked inodes are freed by the inodegc worker), counted per AG and header.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <set>
#include <cstring>
#include <thread>

#include "attribution/oncpu.hpp"
#include "attribution/bpf_ag_headers.hpp"
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

}  // namespace

TEST(XfsAg, TheXfsBufEventFormatIsCheckedFieldByField) {
  const std::string ok =
      "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n\tfield:xfs_daddr_t bno;\toffset:16;\tsize:8;\tsigned:1;\n"
      "\tfield:unsigned lockval;\toffset:36;\tsize:4;\tsigned:0;\n";
  EXPECT_EQ(ra::check_xfs_buf_format(ok), "");
  std::string moved = ok;
  moved.replace(moved.find("offset:16"), 9, "offset:24");
  EXPECT_EQ(ra::check_xfs_buf_format(moved), "bno at offset 24, expected 16");
  EXPECT_NE(ra::check_xfs_buf_format("field:dev_t dev;\toffset:8;").find("no field lockval"), std::string::npos);
  EXPECT_EQ(ra::kernel_dev(makedev(7, 3)), (7u << 20) | 3u);
}

TEST(BpfAgHeaders, CountsWaitsAndHoldsOfTheAgiPerAgOnTheRealKernel) {
  ASSERT_EQ(ensure_tracefs(), "");
  const auto tracefs = ra::find_tracefs();
  ASSERT_TRUE(tracefs);
  TempDir dir;
  const fs::path mnt = dir.path / "mnt";
  fs::create_directories(mnt);
  LoopDisk disk(dir.path, mnt);
  int st = 0;
  std::string err;
  run_capture({"mkfs.xfs", "-q", "-f", "-d", "agcount=4", disk.device}, &st, &err);
  ASSERT_EQ(st, 0) << err;
  ASSERT_EQ(::mount(disk.device.c_str(), mnt.c_str(), "xfs", 0, nullptr), 0) << std::strerror(errno);

  auto c = ra::BpfAgHeaders::open(disk.device, *tracefs);
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
  std::uint64_t agi_waits = 0, agi_held_ns = 0;
  bool xfs_frame = false;
  std::set<std::string> holders;
  for (const auto& w : waits) {
    EXPECT_LT(w.ag, 4u);
    EXPECT_NE(w.header, ra::AgHeader::sb);
    EXPECT_LE(w.contended, w.count);
    EXPECT_LE(w.max_ns, w.total_ns);
    EXPECT_EQ(w.comm, "");
    if (w.header == ra::AgHeader::agi) agi_waits += w.count;
    for (auto ip : w.ips) xfs_frame |= syms->name(ip).rfind("xfs_", 0) == 0;
  }
  for (const auto& h : holds) {
    EXPECT_LT(h.ag, 4u);
    EXPECT_LE(h.max_ns, h.total_ns);
    if (h.header == ra::AgHeader::agi) agi_held_ns += h.total_ns;
    holders.insert(h.comm);
  }
  std::cout << "AGI: " << agi_waits << " waits, " << agi_held_ns / 1000 << " us held; holders:";
  for (const auto& h : holders) std::cout << " " << h;
  std::cout << "\n";
  EXPECT_GT(agi_waits, 0u) << "inode allocation locks the AGI";
  EXPECT_GT(agi_held_ns, 0u);
  EXPECT_TRUE(xfs_frame) << "the waiters' stacks are XFS's";
  EXPECT_TRUE(holders.count("rlab_agent_test") || holders.size() > 1) << "the test's threads hold the AGI";
  EXPECT_EQ(c->dropped(), 0u);
}
