#include "attribution/rank.hpp"
#include "attribution/render.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

namespace {
using rlab::attribution::BootProfile;
using rlab::attribution::Family;
namespace rp = rlab::protocol;

rp::Attribution lock_attribution(double agi_ns, double other_ns) {
  rp::Attribution a;
  a.totals = {{"lock.waits", 10},
              {"lock.wait_ns", static_cast<std::uint64_t>(agi_ns + other_ns)},
              {"xfs_agi.waits", 5},
              {"xfs_agi.wait_ns", static_cast<std::uint64_t>(agi_ns)},
              {"xfs_agf.waits", 0},
              {"xfs_agf.wait_ns", 0},
              {"xfs_buf.waits", 5},
              {"xfs_buf.wait_ns", static_cast<std::uint64_t>(agi_ns)},
              {"offcpu.D.waits", 3},
              {"offcpu.D.wait_ns", 3000000},
              {"offcpu.S.waits", 3},
              {"offcpu.S.wait_ns", 9000000}};
  a.stacks.push_back({"lock", {"down", "xfs_buf_lock", "xfs_read_agi", "xfs_inodegc_worker"}, 5,
                      static_cast<std::uint64_t>(agi_ns)});
  a.stacks.push_back({"lock", {"rwsem_down_write_slowpath", "vfs_unlink"}, 5, static_cast<std::uint64_t>(other_ns)});
  return a;
}

/// A boot of 1,000 loops whose counters wobble by a few percent, with an AGI wait of agi_ns.
BootProfile rank_boot(std::mt19937& rng, double agi_ns, bool xfs = true) {
  std::normal_distribution<double> wobble(1.0, 0.03);
  rp::Counters c;
  c.tracepoints["xfs:xfs_inodegc_queue"] = xfs ? static_cast<std::uint64_t>(4000 * wobble(rng)) : 0;
  c.tracepoints["xfs:xfs_inodegc_throttle"] = 0;
  c.vmstat["pgfault"] = static_cast<std::int64_t>(900000 * wobble(rng));
  c.vmstat["nr_free_pages"] = -123456;  // a gauge: not ranked
  c.cpu = {{"user", 300}, {"system", static_cast<std::uint64_t>(600 * wobble(rng))}, {"idle", 100}};
  c.ctxt = static_cast<std::uint64_t>(50000 * wobble(rng));
  c.forks = 8000;
  BootProfile p;
  rlab::attribution::add_pass(p, 1000, c, lock_attribution(agi_ns * wobble(rng), 2e6 * wobble(rng)));
  return p;
}

const rlab::attribution::Mover* find(const rlab::attribution::Ranking& r, Family f, const std::string& key) {
  for (const auto& m : r.rows)
    if (m.family == f && m.key == key) return &m;
  return nullptr;
}
}  // namespace

TEST(AttributionRank, ThePlantedAgiWaitLeadsAndNothingElseIsSignificant) {
  std::mt19937 rng(7);
  std::vector<BootProfile> base, next;
  for (int i = 0; i < 6; ++i) base.push_back(rank_boot(rng, 1e6));
  for (int i = 0; i < 6; ++i) next.push_back(rank_boot(rng, 4e6));
  const auto r = rlab::attribution::rank(base, next, {.fdr = 0.05, .top = 0});
  ASSERT_FALSE(r.rows.empty());
  EXPECT_EQ(r.base_boots, 6u);
  EXPECT_EQ(r.new_boots, 6u);
  std::size_t significant = 0;
  for (const auto& m : r.rows) {
    if (!m.significant) continue;
    ++significant;
    EXPECT_EQ(m.family, Family::lock) << m.key;
    EXPECT_TRUE(m.key == "[AGI buffer]" || m.key == "[XFS buffer locks]" || m.key == "[all]" ||
                m.key == "down;xfs_buf_lock;xfs_read_agi;xfs_inodegc_worker")
        << m.key;
  }
  EXPECT_GE(significant, 3u);
  EXPECT_EQ(r.rows[0].family, Family::lock);
  const auto* agi = find(r, Family::lock, "[AGI buffer]");
  ASSERT_NE(agi, nullptr);
  EXPECT_TRUE(agi->significant);
  ASSERT_TRUE(agi->change.has_value());
  EXPECT_NEAR(*agi->change, 3.0, 0.5);  // 1 -> 4 ms per 1,000 loops
  EXPECT_NEAR(agi->new_per_kloop, 4e6, 0.4e6);
  // The wobbling counters are ranked but not flagged.
  const auto* pgfault = find(r, Family::vmstat, "pgfault");
  ASSERT_NE(pgfault, nullptr);
  EXPECT_FALSE(pgfault->significant);
  EXPECT_EQ(find(r, Family::vmstat, "nr_free_pages"), nullptr) << "gauges are not ranked";
  EXPECT_EQ(find(r, Family::tracepoint, "xfs:xfs_inodegc_throttle"), nullptr) << "zero on every boot: left out";
  EXPECT_EQ(find(r, Family::cpu, "idle"), nullptr) << "idle time is not the load's";
}

TEST(AttributionRank, XfsTracepointsOnExt4AreLeftOutAndAMissingFamilyIsNamed) {
  std::mt19937 rng(3);
  std::vector<BootProfile> base, next;
  for (int i = 0; i < 3; ++i) base.push_back(rank_boot(rng, 1e6, false));
  for (int i = 0; i < 3; ++i) {
    BootProfile p;
    rp::Counters c;
    c.ctxt = 50000;
    rlab::attribution::add_pass(p, 1000, c, std::nullopt);  // attribution off on this side
    next.push_back(p);
  }
  const auto r = rlab::attribution::rank(base, next);
  for (const auto& m : r.rows) EXPECT_NE(m.family, Family::tracepoint) << m.key;
  EXPECT_NE(std::find(r.missing.begin(), r.missing.end(), Family::lock), r.missing.end());
  EXPECT_NE(std::find(r.families.begin(), r.families.end(), Family::stat), r.families.end());
  for (const auto& m : r.rows) EXPECT_NE(m.family, Family::lock);
}

TEST(AttributionRank, OneBootASideHasNoPAndIsNeverSignificant) {
  std::mt19937 rng(5);
  const auto r = rlab::attribution::rank({rank_boot(rng, 1e6)}, {rank_boot(rng, 9e6)});
  ASSERT_FALSE(r.rows.empty());
  for (const auto& m : r.rows) {
    EXPECT_FALSE(m.p.has_value()) << m.key;
    EXPECT_FALSE(m.significant) << m.key;
  }
}

TEST(AttributionRank, TopCutsAndCountsTheRest) {
  std::mt19937 rng(9);
  std::vector<BootProfile> base{rank_boot(rng, 1e6), rank_boot(rng, 1e6)}, next{rank_boot(rng, 2e6), rank_boot(rng, 2e6)};
  const auto all = rlab::attribution::rank(base, next, {.fdr = 0.05, .top = 0});
  const auto cut = rlab::attribution::rank(base, next, {.fdr = 0.05, .top = 3});
  ASSERT_GT(all.rows.size(), 3u);
  EXPECT_EQ(cut.rows.size(), 3u);
  EXPECT_EQ(cut.left_out, all.rows.size() - 3);
  EXPECT_THROW(rlab::attribution::rank(base, next, {.fdr = 0, .top = 3}), std::invalid_argument);
}

TEST(AttributionRank, BenjaminiHochbergMatchesTheHandWorkedCase) {
  // p sorted: 0.01 0.02 0.03 0.5 (m = 4): raw 0.04 0.04 0.04 0.5 -> step-up minimum.
  const auto q = rlab::attribution::benjamini_hochberg({0.03, 0.5, 0.01, 0.02});
  ASSERT_EQ(q.size(), 4u);
  EXPECT_DOUBLE_EQ(q[0], 0.04);
  EXPECT_DOUBLE_EQ(q[1], 0.5);
  EXPECT_DOUBLE_EQ(q[2], 0.04);
  EXPECT_DOUBLE_EQ(q[3], 0.04);
  EXPECT_TRUE(rlab::attribution::benjamini_hochberg({}).empty());
}

TEST(AttributionProfile, AFamilyMissingFromOnePassIsNotCollectedAndStacksReadAsKeys) {
  BootProfile p;
  rp::Counters c;
  rp::Attribution a;
  a.totals = {{"oncpu.samples", 10}, {"oncpu.sampled_ns", 40000000}};
  a.stacks.push_back({"oncpu", {"copy_page", "do_wp_page", "[sh]"}, 10, 40000000});
  a.stacks.push_back({"oncpu", {}, 2, 8000000});
  rlab::attribution::add_pass(p, 100, c, a);
  EXPECT_TRUE(p.collected.count(Family::oncpu));
  EXPECT_EQ(p.values[Family::oncpu]["copy_page;do_wp_page;[sh]"], 40000000);
  EXPECT_EQ(p.values[Family::oncpu]["[other stacks]"], 8000000);
  EXPECT_EQ(p.values[Family::oncpu]["[all]"], 40000000);
  rlab::attribution::add_pass(p, 100, c, std::nullopt);
  EXPECT_FALSE(p.collected.count(Family::oncpu));
  EXPECT_TRUE(p.collected.count(Family::vmstat));
  EXPECT_EQ(p.loops, 200u);
  EXPECT_EQ(rlab::attribution::short_stack("D;down;xfs_buf_lock;xfs_read_agi", 2), "D: down < xfs_buf_lock < …");
  EXPECT_EQ(rlab::attribution::short_stack("a;b", 6), "a < b");
}

TEST(AttributionRender, TheTableShowsUnitsSignificanceAndWhatWasNotCompared) {
  std::mt19937 rng(7);
  std::vector<BootProfile> base, next;
  for (int i = 0; i < 6; ++i) base.push_back(rank_boot(rng, 1e6));
  for (int i = 0; i < 6; ++i) next.push_back(rank_boot(rng, 4e6));
  const auto r = rlab::attribution::rank(base, next, {.fdr = 0.05, .top = 5});
  std::ostringstream out;
  rlab::attribution::render_ranking(r, out);
  const std::string t = out.str();
  EXPECT_NE(t.find("6 base boots, 6 new"), std::string::npos) << t;
  EXPECT_NE(t.find("[AGI buffer]"), std::string::npos) << t;
  EXPECT_NE(t.find(" ms "), std::string::npos) << "time families in ms per 1,000 loops: " << t;
  EXPECT_NE(t.find(" *\n"), std::string::npos) << t;
  EXPECT_NE(t.find("more rows"), std::string::npos) << t;
  EXPECT_NE(t.find("not compared"), std::string::npos) << "oncpu was collected on neither side: " << t;
  const auto j = rlab::attribution::ranking_json(r, 0.05);
  ASSERT_EQ(j["rows"].size(), 5u + r.context.size()) << "the leading rows, then the totals and pressure";
  EXPECT_EQ(j["rows"][0]["family"], "lock");
  EXPECT_EQ(j["rows"][0]["unit"], "ns");
  EXPECT_TRUE(j["rows"][0]["significant"].get<bool>());
  EXPECT_EQ(j["missing"][0], "oncpu");
}

TEST(AttributionRender, TheHtmlHasATableAndAFlameBarPerSideOfEachStackFamily) {
  std::mt19937 rng(7);
  std::vector<BootProfile> base, next;
  for (int i = 0; i < 6; ++i) base.push_back(rank_boot(rng, 1e6));
  for (int i = 0; i < 6; ++i) next.push_back(rank_boot(rng, 4e6));
  const auto r = rlab::attribution::rank(base, next, {.fdr = 0.05, .top = 0});
  const auto h = rlab::attribution::ranking_html(r, "6.12 <base>", "tonight", 5);
  EXPECT_EQ(h.find("<script"), std::string::npos);
  EXPECT_NE(h.find("6.12 &lt;base&gt;"), std::string::npos) << "labels are escaped";
  // The leading rows, then the totals and pressure under their own heading.
  const auto totals = h.find("<tr><th colspan=\"6\">totals and pressure</th></tr>");
  ASSERT_NE(totals, std::string::npos) << h;
  std::size_t rows = 0, context = 0;
  for (std::size_t at = h.find("<tr><td>"); at != std::string::npos; at = h.find("<tr><td>", at + 1)) ++(at < totals ? rows : context);
  EXPECT_EQ(rows, 5u);
  EXPECT_EQ(context, std::min<std::size_t>(r.context.size(), 6));
  EXPECT_GT(context, 0u);
  EXPECT_NE(h.find("<h4>lock stacks"), std::string::npos) << h;
  std::size_t bars = 0;
  for (std::size_t at = h.find("<svg "); at != std::string::npos; at = h.find("<svg ", at + 1)) ++bars;
  EXPECT_EQ(bars, 2u) << "one bar per side of the one stack family with rows";
  EXPECT_NE(h.find("xfs_buf_lock &lt; xfs_read_agi"), std::string::npos) << "the stack in the tooltip";
}
