// The load as UnixBench runs it, checked in real 64K 6.12 arm64 guests through libvirt:
// where the load's inodes land on XFS (one allocation group with UnixBench's shared test
// directory, one per copy with `layout: per-copy`), and the fidelity benchmark end to end
// (rlab's shell1 against UnixBench's own looper, multi.sh and tst.sh in the same guest, and
// both against those in the bare guest).
#include "build/run_options.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;
using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

namespace {

void ensure_libvirtd() {
  auto r = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(r.ok()) << r.output;
}

/// Mean inode AGs per pass and the AG count of every scored boot of the store's last run,
/// by workload name.
std::map<std::string, std::pair<double, unsigned>> placement(const fs::path& db) {
  auto st = rlab::store::Store::open(db);
  std::map<std::string, std::pair<double, unsigned>> out;
  for (const auto& b : st->boot_results(st->latest_run().value_or(0)))
    if (b.inode_ags && b.agcount) out[b.workload] = {*b.inode_ags, *b.agcount};
  return out;
}

}  // namespace

TEST(RealLoad, XfsPlacementOneAgSharedOnePerCopyPerCopy) {
  ensure_libvirtd();
  rlab::testing::RunDir d("placement");
  d.write(rlab::testing::small_matrix(
      {.filesystems = {"{fs: xfs, mkfs: [[-d, agcount=4]]}"},
       .workloads = {"{type: shell1, name: shared, copies: 4, passes: 1, duration_s: 6}",
                     "{type: shell1, name: per-copy, layout: per-copy, copies: 4, passes: 1, duration_s: 6}"},
       .seed = 3,
       // Guest time as instructions: the pass runs its ~20 loops (the agent lists the load's
       // directories at each loop's end) however starved the host leaves the guest.
       .guest = "{memory_mib: 1024, cpu: auto, accel: tcg, disk_gib: 2, clock: icount}"}));
  auto r = rlab::util::run(rlab_argv({"run", d.matrix.string(), "--agent", agent_binary().string()}),
                           rlab::build::run_options(std::chrono::minutes(90)));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto p = placement(d.dir / "rlab.db");
  ASSERT_EQ(p.count("shared"), 1u) << r.output;
  ASSERT_EQ(p.count("per-copy"), 1u) << r.output;
  EXPECT_EQ(p.at("shared").second, 4u) << "agcount=4";
  EXPECT_EQ(p.at("shared").first, 1.0) << "UnixBench's one test directory: every inode in one AG";
  EXPECT_EQ(p.at("per-copy").first, 4.0) << "four copy directories over four AGs";
  // The row of the results table: the mean AG count of the load's inodes, with the AG count and layout.
  EXPECT_NE(r.output.find("shared.xfs_inode_ags  (of 4 AGs, shared layout)"), std::string::npos) << r.output;
}

TEST(RealLoad, FidelityBenchmarkShortPass) {
  if (const auto why = rlab::testing::unixbench_missing(); !why.empty()) GTEST_SKIP() << why;
  const fs::path ub = rlab::testing::unixbench_dir();
  ensure_libvirtd();
  rlab::testing::RunDir d("fidelity");
  auto r = rlab::util::run(rlab_argv({"fidelity", "--unixbench", ub.string(), "--vcpus", "1", "--fs", "xfs",
                                      "--duration", "5", "--boots", "1", "--db", (d.dir / "f.db").string(),
                                      "--agent", agent_binary().string(), "--json"}),
                           rlab::build::run_options(std::chrono::minutes(90)));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output.substr(r.output.find("{\n  \"clock\"")));
  ASSERT_EQ(j.at("rows").size(), 1u) << j.dump(2);
  const auto& row = j["rows"][0];
  EXPECT_EQ(row["fs"], "xfs");
  ASSERT_EQ(row["rlab_lpm"].size(), 1u);
  ASSERT_EQ(row["unixbench_lpm"].size(), 1u);
  EXPECT_GT(row["rlab_lpm"][0].get<double>(), 0);
  EXPECT_GT(row["unixbench_lpm"][0].get<double>(), 0);
  // Same guest, same input, deterministic clock: the two loads do the same work per loop.
  EXPECT_GT(row["ratio"].get<double>(), 0.9) << j.dump(2);
  EXPECT_LT(row["ratio"].get<double>(), 1.1) << j.dump(2);
  EXPECT_EQ(row["pairs"], 1);
  // The bare guest (UnixBench's scripts, no agent) is the baseline of both.
  ASSERT_EQ(row["bare_lpm"].size(), 1u);
  EXPECT_GT(row["bare_lpm"][0].get<double>(), 0);
  EXPECT_GT(row["unixbench_bare"]["ratio"].get<double>(), 0.8) << j.dump(2);
  EXPECT_LT(row["unixbench_bare"]["ratio"].get<double>(), 1.1) << j.dump(2);
  EXPECT_EQ(row["rlab_bare"]["pairs"], 1);
  auto st = rlab::store::Store::open(d.dir / "f.db");
  EXPECT_EQ(st->boot_results(st->latest_run().value_or(0)).size(), 3u);
}
