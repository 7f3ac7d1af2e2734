// Where the time went, collected in a real 64K 6.12 arm64 guest through libvirt: a contended
// case (8 copies of shell1 on 2 vCPUs, XFS, UnixBench's shared test directory; the top 50
// stacks kept, so that a host busy with other work, which slows the load, still leaves XFS
// waits among them) must give
// non-empty lock-wait and off-CPU tables with XFS frames and on-CPU samples, stored with the
// pass, and `rlab compare` must rank them.
#include "build/run_options.hpp"
#include "store/readers.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <regex>
#include <set>

namespace fs = std::filesystem;
using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

namespace {
bool has_xfs_frame(const nlohmann::json& stacks, const std::string& family_prefix) {
  for (const auto& s : stacks)
    if (s["family"].get<std::string>().rfind(family_prefix, 0) == 0)
      for (const auto& f : s["frames"])
        if (f.get<std::string>().rfind("xfs_", 0) == 0) return true;
  return false;
}
}  // namespace

TEST(RealAttribution, AContendedXfsLoadGivesLockOffCpuAndOnCpuStacksThatCompareRanks) {
  auto start = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(start.ok()) << start.output;
  rlab::testing::RunDir d("attribution");
  d.write(rlab::testing::small_matrix(
      {.vcpus = 2,
       .workloads = {"{type: shell1, copies: 8, passes: 1, duration_s: 20, attribution: stacks, attribution_top: 50}"},
       .repeats = 2,
       .seed = 5}));
  auto r = rlab::util::run(rlab_argv({"run", d.matrix.string(), "--agent", agent_binary().string()}),
                           rlab::build::run_options(std::chrono::minutes(90)));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto st = rlab::store::Store::open(d.dir / "rlab.db");
  const auto run = st->latest_run().value();
  const auto boots = rlab::store::scored_boots(*st, run);
  ASSERT_EQ(boots.size(), 2u) << r.output;
  for (const auto& b : boots) {
    EXPECT_EQ(b.env.attribution, "stacks");
    ASSERT_EQ(b.passes.size(), 1u);
    ASSERT_TRUE(b.passes[0].attribution_json.has_value()) << "the pass carries where its time went";
    const auto a = nlohmann::json::parse(*b.passes[0].attribution_json);
    EXPECT_EQ(a["unavailable"], "") << "the 6.12 guest kernel collects every family";
    EXPECT_GT(a["totals"]["lock.waits"].get<std::uint64_t>(), 0u) << a["totals"].dump();
    EXPECT_GT(a["totals"]["offcpu.D.waits"].get<std::uint64_t>(), 0u) << a["totals"].dump();
    EXPECT_GT(a["totals"]["oncpu.samples"].get<std::uint64_t>(), 0u) << a["totals"].dump();
    EXPECT_TRUE(has_xfs_frame(a["stacks"], "lock") || has_xfs_frame(a["stacks"], "offcpu"))
        << "an XFS frame in the lock or off-CPU stacks: " << a["stacks"].dump().substr(0, 4000);
    std::size_t rows = 0;
    for (const auto& s : a["stacks"]) rows += s["family"] == "lock";
    EXPECT_LE(rows, 51u) << "bounded: the top 50 stacks and one other row";
    // The AG headers of the pass's XFS: per AG, waits and holds, and the holders by stack.
    const auto& t = a["totals"];
    ASSERT_TRUE(t.contains("agheader.agcount")) << t.dump();
    const auto agcount = t["agheader.agcount"].get<std::uint64_t>();
    EXPECT_GE(agcount, 1u);
    std::uint64_t agi_holds = 0, agi_waits = 0;
    for (std::uint64_t ag = 0; ag < agcount; ++ag) {
      const std::string k = "agheader.AGI." + std::to_string(ag);
      if (t.contains(k + ".holds")) agi_holds += t[k + ".holds"].get<std::uint64_t>();
      if (t.contains(k + ".waits")) agi_waits += t[k + ".waits"].get<std::uint64_t>();
    }
    EXPECT_GT(agi_holds, 0u) << "8 copies creating and removing files hold the AGIs: " << t.dump();
    bool hold_names_the_header = false;
    for (const auto& s : a["stacks"])
      if (s["family"] == "agheader.hold" && !s["frames"].empty())
        hold_names_the_header |= s["frames"][0].get<std::string>().rfind("[AGI of AG ", 0) == 0;
    EXPECT_TRUE(hold_names_the_header) << a["stacks"].dump().substr(0, 4000);
    std::cout << "AG headers: agcount " << agcount << ", AGI holds " << agi_holds << ", AGI waits " << agi_waits << "\n";
  }
  // The run against itself: every family collected, the ranking lists them.
  const fs::path flames = d.dir / "flames";
  auto c = rlab::util::run(rlab_argv({"compare", std::to_string(run), std::to_string(run), "--db",
                                      (d.dir / "rlab.db").string(), "--json", "--flame-graphs", flames.string()}));
  ASSERT_TRUE(c.exit_code == 0 || c.exit_code == 1) << c.output;
  const auto j = nlohmann::json::parse(c.output.substr(c.output.find('{')));
  ASSERT_EQ(j["cells"].size(), 1u);
  const auto& w = j["cells"][0]["what_changed"];
  ASSERT_TRUE(w.is_object()) << j.dump(1).substr(0, 2000);
  std::set<std::string> families;
  for (const auto& f : w["families"]) families.insert(f.get<std::string>());
  for (const char* f : {"lock", "offcpu", "agheader", "oncpu", "tracepoint", "vmstat"}) EXPECT_TRUE(families.count(f)) << f;
  ASSERT_TRUE(j["cells"][0].contains("ag_headers")) << "the per-AG table of both sides";
  for (const auto& row : w["rows"]) EXPECT_FALSE(row["significant"].get<bool>()) << "a run against itself: " << row.dump();
  // A differential flame graph per stack family; against itself every box is white, and the
  // XFS frames of the lock or off-CPU stacks are boxes of their own.
  std::size_t svgs = 0, xfs_boxes = 0, ag_boxes = 0;
  for (const auto& e : fs::directory_iterator(flames)) {
    ++svgs;
    const std::string svg = rlab::util::read_file(e.path());
    EXPECT_EQ(svg.rfind("<svg ", 0), 0u) << e.path();
    const std::regex fill(R"re(<rect [^>]*fill="(#[0-9a-f]{6})")re");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), fill); it != std::sregex_iterator(); ++it)
      EXPECT_EQ((*it)[1].str(), "#ffffff") << e.path() << ": a box coloured as changed against itself";
    for (auto at = svg.find("<title>xfs_"); at != std::string::npos; at = svg.find("<title>xfs_", at + 1)) ++xfs_boxes;
    for (auto at = svg.find("<title>[AGI of AG "); at != std::string::npos; at = svg.find("<title>[AGI of AG ", at + 1))
      ++ag_boxes;
  }
  EXPECT_EQ(svgs, 4u) << "lock, offcpu, oncpu and the AG header waits";
  EXPECT_GT(xfs_boxes, 0u);
  EXPECT_GT(ag_boxes, 0u) << "the AG header waits' graph has the header on top";
  // rlab results shows the per-AG table of the XFS cell.
  auto res = rlab::util::run(rlab_argv({"results", "--db", (d.dir / "rlab.db").string()}));
  ASSERT_EQ(res.exit_code, 0) << res.output;
  EXPECT_NE(res.output.find("XFS AG headers, per 1,000 loops"), std::string::npos) << res.output;
  EXPECT_TRUE(std::regex_search(res.output, std::regex(R"(AG[IF]L? of AG \d+: [\d,.]+ ms waited per 1,000 loops)")))
      << res.output;
}
