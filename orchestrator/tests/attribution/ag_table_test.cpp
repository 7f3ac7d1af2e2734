// XFS AG headers from stored passes: the agheader family's keys, its ranking and flame graph,
// and the per-AG table (per 1,000 loops, waiter kinds, holders), one- and two-sided.
#include "attribution/ag_table_render.hpp"
#include "attribution/flame.hpp"
#include "attribution/profile.hpp"
#include "attribution/rank.hpp"
#include "attribution/render.hpp"
#include "stats/descriptive.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace {
using namespace rlab::attribution;
using rlab::store::CountedPass;
using nlohmann::json;

const std::vector<std::string> kUnlinkWait = {"[AGI of AG 0]", "xfs_buf_lock", "xfs_buf_find_lock", "xfs_read_agi",
                                              "xfs_ialloc_read_agi", "xfs_iunlink", "xfs_remove", "xfs_vn_unlink",
                                              "vfs_unlink", "do_unlinkat"};
const std::vector<std::string> kInodegcWait = {"[AGI of AG 0]", "xfs_buf_lock", "xfs_read_agi", "xfs_difree",
                                               "xfs_inactive_ifree", "xfs_inactive", "xfs_inodegc_worker",
                                               "process_one_work"};
std::vector<std::string> hold(std::vector<std::string> frames, const std::string& task) {
  frames.push_back("[" + task + "]");
  return frames;
}

/// The totals of one {header, AG}.
struct Figures {
  std::uint64_t waits = 0, contended = 0, wait_ns = 0, holds = 0, held_ns = 0, max_held_ns = 0;
};

/// One pass's attribution JSON: agheader totals of `figures`, `stacks` as {family, frames, ns}.
struct Stack {
  std::string family;
  std::vector<std::string> frames;
  std::uint64_t ns = 0;
};
std::string pass_json(const std::map<std::string, Figures>& figures, const std::vector<Stack>& stacks,
                      unsigned agcount = 4) {
  json totals = {{"lock.waits", 1}, {"lock.wait_ns", 10}, {"agheader.agcount", agcount}};
  for (const auto& [at, f] : figures) {
    const std::string p = "agheader." + at + ".";
    totals[p + "waits"] = f.waits;
    totals[p + "contended"] = f.contended;
    totals[p + "wait_ns"] = f.wait_ns;
    totals[p + "holds"] = f.holds;
    totals[p + "held_ns"] = f.held_ns;
    totals[p + "max_held_ns"] = f.max_held_ns;
  }
  json rows = json::array({{{"family", "lock"}, {"frames", {"down", "xfs_buf_lock"}}, {"count", 1}, {"total_ns", 10}}});
  for (const auto& s : stacks) rows.push_back({{"family", s.family}, {"frames", s.frames}, {"count", 1}, {"total_ns", s.ns}});
  return json{{"totals", totals}, {"stacks", rows}, {"unavailable", ""}}.dump();
}

CountedPass pass(std::uint64_t loops, std::optional<std::string> attribution) {
  CountedPass p;
  p.loops = loops;
  p.attribution_json = std::move(attribution);
  return p;
}

/// A boot of one pass of `loops`: AGI of AG 0 waited `wait_ns` (60% by an unlinking stack, 30%
/// by the inodegc worker, 10% in the "other" row), 10 waits of which 4 contended; held
/// `held_ns` (35% by kworker/1:2 and 10% by kworker/0:1 in the inodegc worker, 40% by rm, the
/// rest in the "other" row), longest hold `max_ns`.
std::vector<CountedPass> agi_boot(std::uint64_t loops, double wait_ns, double held_ns, double max_ns) {
  auto n = [](double v) { return static_cast<std::uint64_t>(v); };
  const std::map<std::string, Figures> f = {
      {"AGI.0", {10, 4, n(wait_ns), 20, n(held_ns), n(max_ns)}},
      {"AGF.1", {2, 0, n(wait_ns / 100), 4, n(held_ns / 100), n(max_ns / 10)}}};
  const std::vector<Stack> s = {
      {"agheader.wait", kUnlinkWait, n(0.6 * wait_ns)},
      {"agheader.wait", kInodegcWait, n(0.3 * wait_ns)},
      {"agheader.wait", {}, n(0.1 * wait_ns + wait_ns / 100)},
      {"agheader.hold", hold(kInodegcWait, "kworker/1:2"), n(0.35 * held_ns)},
      {"agheader.hold", hold(kInodegcWait, "kworker/0:1"), n(0.10 * held_ns)},
      {"agheader.hold", hold(kUnlinkWait, "rm"), n(0.40 * held_ns)},
      {"agheader.hold", {}, n(0.15 * held_ns + held_ns / 100)}};
  return {pass(loops, pass_json(f, s))};
}

}  // namespace

TEST(AgHeaderProfile, TotalsAndStacksBecomeAgheaderKeys) {
  const auto p = profile_of(agi_boot(1000, 5e6, 8e6, 1e6));
  ASSERT_TRUE(p.collected.count(Family::agheader));
  const auto& v = p.values.at(Family::agheader);
  EXPECT_DOUBLE_EQ(v.at("[AGI of AG 0 waited]"), 5e6);
  EXPECT_DOUBLE_EQ(v.at("[AGI of AG 0 held]"), 8e6);
  EXPECT_DOUBLE_EQ(v.at("[AGF of AG 1 waited]"), 5e4);
  std::string unlink = "wait";
  for (const auto& f : kUnlinkWait) unlink += ";" + f;
  EXPECT_DOUBLE_EQ(v.at(unlink), 3e6);
  EXPECT_TRUE(v.count("[wait other stacks]"));
  EXPECT_TRUE(v.count("[hold other stacks]"));
  std::string held = "hold";
  for (const auto& f : hold(kUnlinkWait, "rm")) held += ";" + f;
  EXPECT_DOUBLE_EQ(v.at(held), 0.4 * 8e6);
  EXPECT_FALSE(v.count("[AGI of AG 0 max_held_ns]")) << "only wait and held time are keys";
  EXPECT_TRUE(p.values.at(Family::lock).count("down;xfs_buf_lock")) << "the other families' stacks still read";
  EXPECT_EQ(short_stack(unlink, 3), "wait: [AGI of AG 0] < xfs_buf_lock < xfs_buf_find_lock < …");
  EXPECT_EQ(short_stack("hold;[AGF of AG 64+];xfs_buf_lock"), "hold: [AGF of AG 64+] < xfs_buf_lock");
  EXPECT_TRUE(is_time(Family::agheader));
  EXPECT_EQ(parse_family("agheader"), Family::agheader);
}

TEST(AgHeaderProfile, APassWithoutAgHeaderTotalsHasNoFamily) {
  const std::string no_ag = json{{"totals", {{"lock.waits", 1}, {"lock.wait_ns", 10}}}, {"stacks", json::array()},
                                 {"unavailable", ""}}.dump();
  const auto p = profile_of({pass(1000, no_ag)});
  EXPECT_FALSE(p.collected.count(Family::agheader));
  EXPECT_FALSE(p.values.count(Family::agheader));
  EXPECT_FALSE(any_ag_headers({ag_headers_of({pass(1000, no_ag), pass(1000, std::nullopt)})}));
}

TEST(AgHeaderRank, TheAgiOfAgZeroWaitLeadsPerThousandLoopsAndNothingIsMissingWithoutData) {
  std::vector<BootProfile> base, next;
  for (int i = 0; i < 4; ++i) {
    base.push_back(profile_of(agi_boot(1000 + 10 * i, 1e6 * (1 + 0.01 * i), 1e6, 1e5)));
    next.push_back(profile_of(agi_boot(500 + 5 * i, 20e6 * (1 + 0.01 * i), 1e6, 1e5)));
  }
  const auto r = rank(base, next, {.fdr = 0.05, .top = 0});
  EXPECT_NE(std::find(r.families.begin(), r.families.end(), Family::agheader), r.families.end());
  const Mover* m = nullptr;
  for (const auto& x : r.rows)
    if (x.family == Family::agheader && x.key == "[AGI of AG 0 waited]") m = &x;
  ASSERT_NE(m, nullptr);
  std::vector<double> b, n;
  for (int i = 0; i < 4; ++i) {
    b.push_back(1000.0 * 1e6 * (1 + 0.01 * i) / (1000 + 10 * i));
    n.push_back(1000.0 * 20e6 * (1 + 0.01 * i) / (500 + 5 * i));
  }
  EXPECT_NEAR(m->base_per_kloop, rlab::stats::median(b), 1);
  EXPECT_NEAR(m->new_per_kloop, rlab::stats::median(n), 1);
  EXPECT_TRUE(m->significant);
  EXPECT_EQ(r.rows.front().family, Family::agheader) << "the most time moved: " << r.rows.front().key;
  std::ostringstream text;
  render_ranking(r, text);
  EXPECT_NE(text.str().find("agheader"), std::string::npos);
  EXPECT_NE(text.str().find("wait: [AGI of AG 0] < xfs_buf_lock"), std::string::npos) << text.str();

  // Without AG header data on either side the family is neither compared nor "missing".
  const std::string no_ag = json{{"totals", {{"lock.waits", 1}, {"lock.wait_ns", 10}}}, {"stacks", json::array()},
                                 {"unavailable", ""}}.dump();
  const auto plain = rank({profile_of({pass(1000, no_ag)})}, {profile_of({pass(1000, no_ag)})});
  EXPECT_EQ(std::find(plain.families.begin(), plain.families.end(), Family::agheader), plain.families.end());
  EXPECT_EQ(std::find(plain.missing.begin(), plain.missing.end(), Family::agheader), plain.missing.end());
  // On one side only, it is missing (not comparable).
  const auto one = rank({profile_of({pass(1000, no_ag)})}, {next.front()});
  EXPECT_NE(std::find(one.missing.begin(), one.missing.end(), Family::agheader), one.missing.end());
}

TEST(AgHeaderFlame, WaitStacksOnlyWithTheHeaderOnTop) {
  const auto root = flame_tree({profile_of(agi_boot(1000, 2e6, 9e6, 1e5))}, {profile_of(agi_boot(1000, 6e6, 9e6, 1e5))},
                               Family::agheader);
  ASSERT_TRUE(has_flame_graph(Family::agheader));
  std::map<std::string, const FlameNode*> top;
  for (const auto& c : root.children) top[c.frame] = &c;
  ASSERT_TRUE(top.count("do_unlinkat")) << "outermost frame of the unlinking wait";
  ASSERT_TRUE(top.count("process_one_work"));
  EXPECT_TRUE(top.count("[wait other stacks]"));
  EXPECT_FALSE(top.count("[hold other stacks]")) << "hold time overlaps wait time: not in the wait graph";
  EXPECT_FALSE(top.count("[rm]"));
  EXPECT_NEAR(top["do_unlinkat"]->base, 1000.0 * 0.6 * 2e6 / 1000, 1e-3);
  EXPECT_NEAR(top["do_unlinkat"]->next, 1000.0 * 0.6 * 6e6 / 1000, 1e-3);
  EXPECT_NEAR(root.next, 6e6 * 1.01, 1) << "the wait stacks add up to the wait time";
  const FlameNode* n = top["do_unlinkat"];
  while (!n->children.empty()) n = &n->children.front();
  EXPECT_EQ(n->frame, "[AGI of AG 0]");
}

TEST(AgHeaderStacks, ClassifiedByTheirFrames) {
  EXPECT_EQ(classify_stack(kUnlinkWait), TaskKind::unlinking);
  EXPECT_EQ(classify_stack(kInodegcWait), TaskKind::inodegc);
  EXPECT_EQ(classify_stack({"[AGF of AG 1]", "[no stack]", "[xfsaild/vdb]"}), TaskKind::writeback) << "by its task alone";
  EXPECT_EQ(classify_stack({"[AGF of AG 1]", "[no stack]", "[kworker/0:1]"}), TaskKind::other);
  EXPECT_EQ(classify_stack({"[AGI of AG 2]", "xfs_buf_lock", "xfs_dialloc", "xfs_create", "path_openat"}), TaskKind::creating);
  EXPECT_EQ(classify_stack({"[AGI of AG 2]", "xfs_create_tmpfile", "xfs_rename", "do_renameat2"}), TaskKind::renames);
  EXPECT_EQ(classify_stack({"[AGF of AG 1]", "xfs_alloc_read_agf", "xfs_alloc_vextent_near_bno", "xfs_bmap_btalloc"}),
            TaskKind::writes);
  EXPECT_EQ(classify_stack({"[AGF of AG 1]", "xfs_file_write_iter", "vfs_write"}), TaskKind::writes);
  EXPECT_EQ(classify_stack({"[AGI of AG 0]", "xlog_cil_push_work", "process_one_work"}), TaskKind::log);
  EXPECT_EQ(classify_stack({"[AGI of AG 0]", "xfs_buf_trylock", "xfs_buf_item_push", "xfsaild_push", "xfsaild", "kthread",
                            "[xfsaild/vda]"}),
            TaskKind::writeback);
  EXPECT_EQ(classify_stack({"[AGI of AG 0]", "xfs_buf_lock", "xfs_iunlink_remove", "[sh]"}), TaskKind::other);
  EXPECT_EQ(task_kind_name(TaskKind::inodegc), "the inodegc worker");
}

TEST(AgHeaderTable, PerThousandLoopsMediansSharesAndTheHolder) {
  // Three boots of different loops: waited 2,000 / 1,000 / 1,500 ms per 1,000 loops.
  std::vector<BootAgHeaders> boots = {ag_headers_of(agi_boot(1000, 2e9, 4e9, 12.3e6)),
                                      ag_headers_of(agi_boot(2000, 2e9, 6e9, 5e6)),
                                      ag_headers_of(agi_boot(4000, 6e9, 8e9, 7e6))};
  const auto t = ag_table(boots);
  EXPECT_EQ(t.boots, 3u);
  EXPECT_EQ(t.agcount, 4u);
  ASSERT_EQ(t.rows.size(), 2u);
  const AgHeaderRow& r = t.rows.front();
  EXPECT_EQ(r.at.name(), "AGI of AG 0") << "sorted by waited time";
  EXPECT_DOUBLE_EQ(r.waited_ms_per_kloop, rlab::stats::median(std::vector<double>{
                                              1000.0 * 2e9 / 1000 / 1e6, 1000.0 * 2e9 / 2000 / 1e6, 1000.0 * 6e9 / 4000 / 1e6}));
  EXPECT_DOUBLE_EQ(r.held_ms_per_kloop, rlab::stats::median(std::vector<double>{
                                            1000.0 * 4e9 / 1000 / 1e6, 1000.0 * 6e9 / 2000 / 1e6, 1000.0 * 8e9 / 4000 / 1e6}));
  ASSERT_TRUE(r.contended_share.has_value());
  EXPECT_DOUBLE_EQ(*r.contended_share, 12.0 / 30.0);
  EXPECT_NEAR(r.wait_share.at("unlinking tasks"), 0.6, 1e-9);
  EXPECT_NEAR(r.wait_share.at("the inodegc worker"), 0.3, 1e-9);
  EXPECT_NEAR(r.wait_share.at("unclassified"), 0.1, 1e-9) << "the 'other stacks' row counts as unclassified";
  EXPECT_DOUBLE_EQ(r.longest_hold_ms, 12.3);
  // rm holds more than any one kworker (40% against 35%), but the inodegc worker holds 45%.
  EXPECT_EQ(r.held_most_by, "the inodegc worker [kworker/1:2]");
  const std::string line = ag_row_text(r);
  EXPECT_EQ(line.rfind("AGI of AG 0: " + format_ms(r.waited_ms_per_kloop) + " ms waited per 1,000 loops (60% by unlinking "
                       "tasks, 40% contended), held " + format_ms(r.held_ms_per_kloop) + " ms per 1,000 loops, longest 12.3 ms, "
                       "held most by the inodegc worker [kworker/1:2]", 0), 0u) << line;
  EXPECT_EQ(t.rows[1].at.name(), "AGF of AG 1");
  EXPECT_FALSE(t.rows[1].contended_share.has_value() && *t.rows[1].contended_share > 0);

  std::ostringstream text;
  render_ag_table(t, text);
  EXPECT_NE(text.str().find(line), std::string::npos) << text.str();
  const auto j = ag_table_json(t);
  EXPECT_EQ(j["rows"][0]["header"], "AGI");
  EXPECT_EQ(j["rows"][0]["ag"], "0");
  EXPECT_DOUBLE_EQ(j["rows"][0]["waited_ms_per_1k_loops"].get<double>(), r.waited_ms_per_kloop);
  const auto html = ag_table_html(t);
  EXPECT_NE(html.find("<td>AGI of AG 0</td>"), std::string::npos) << html;
}

TEST(AgHeaderTable, TopTenWithAgflAndTheHighAgsAndWhatWasLeftOut) {
  std::map<std::string, Figures> f;
  for (int ag = 0; ag < 11; ++ag) f["AGF." + std::to_string(ag)] = {1, 0, static_cast<std::uint64_t>((ag + 1) * 1e6), 1, 1000, 1000};
  f["AGFL.2"] = {1, 1, static_cast<std::uint64_t>(50e6), 1, 1000, 1000};
  f["AGI.64+"] = {1, 0, static_cast<std::uint64_t>(30e6), 1, 1000, 1000};
  const auto boot = ag_headers_of({pass(1000, pass_json(f, {}, 100))});
  const auto t = ag_table({boot});
  ASSERT_EQ(t.rows.size(), 10u);
  EXPECT_EQ(t.left_out, 3u);
  EXPECT_DOUBLE_EQ(t.left_out_waited_ms_per_kloop, 1 + 2 + 3);
  EXPECT_EQ(t.rows[0].at.name(), "AGFL of AG 2");
  EXPECT_EQ(t.rows[1].at.name(), "AGI of AG 64+");
  EXPECT_EQ(t.rows[2].at.name(), "AGF of AG 10");
  for (std::size_t i = 1; i < t.rows.size(); ++i) EXPECT_GE(t.rows[i - 1].waited_ms_per_kloop, t.rows[i].waited_ms_per_kloop);
  EXPECT_TRUE(t.rows[0].wait_share.empty()) << "no stacks: no shares by waiter";
  std::ostringstream text;
  render_ag_table(t, text);
  EXPECT_NE(text.str().find("(3 more AG headers left out, 6.00 ms waited per 1,000 loops together)"), std::string::npos)
      << text.str();
  EXPECT_EQ(ag_table({boot}, 0).rows.size(), 13u);
}

TEST(AgHeaderTable, TwoSidedMostChangedFirstWithTheNewSidesHolder) {
  std::vector<BootAgHeaders> base = {ag_headers_of(agi_boot(1000, 100e6, 300e6, 1e6))};
  std::vector<BootAgHeaders> next = {ag_headers_of(agi_boot(1000, 1000e6, 2000e6, 9e6))};
  const auto c = ag_compare(base, next);
  ASSERT_TRUE(c.has_value());
  ASSERT_EQ(c->rows.size(), 2u);
  const auto& r = c->rows.front();
  EXPECT_EQ(r.at.name(), "AGI of AG 0");
  EXPECT_DOUBLE_EQ(r.base_waited_ms_per_kloop, 100);
  EXPECT_DOUBLE_EQ(r.new_waited_ms_per_kloop, 1000);
  ASSERT_TRUE(r.waited_change.has_value());
  EXPECT_DOUBLE_EQ(*r.waited_change, 9.0);
  ASSERT_TRUE(r.next.has_value());
  std::ostringstream text;
  render_ag_comparison(*c, text, "  ", "good", "bad");
  EXPECT_NE(text.str().find("AGI of AG 0: waited 100 -> 1,000 ms per 1,000 loops (+900%), held 300 -> 2,000 ms (+567%); "
                            "bad: 1,000 ms waited per 1,000 loops (60% by unlinking tasks"),
            std::string::npos)
      << text.str();
  EXPECT_EQ(ag_comparison_json(*c)["rows"][0]["new"]["held_most_by"], "the inodegc worker [kworker/1:2]");
  EXPECT_NE(ag_comparison_html(*c, "good", "bad").find("AGI of AG 0"), std::string::npos);
  EXPECT_FALSE(ag_compare({BootAgHeaders{}}, {BootAgHeaders{}}).has_value());
}

TEST(AgHeaderTable, MillisecondsAsTheTablesShowThem) {
  EXPECT_EQ(format_ms(1172.4), "1,172");
  EXPECT_EQ(format_ms(1234567.0), "1,234,567");
  EXPECT_EQ(format_ms(100), "100");
  EXPECT_EQ(format_ms(12.34), "12.3");
  EXPECT_EQ(format_ms(1.234), "1.23");
  EXPECT_EQ(format_ms(0.1234), "0.123");
}

TEST(AgHeaderTable, RareContentionReadsAsRareNotAsNone) {
  AgHeaderRow r;
  r.at = {"AGI", "2"};
  r.waited_ms_per_kloop = 4575;
  r.contended_share = 1.0 / 1023;
  EXPECT_NE(ag_row_text(r).find("(0.1% contended)"), std::string::npos) << ag_row_text(r);
  r.contended_share = 0;
  EXPECT_NE(ag_row_text(r).find("(0% contended)"), std::string::npos) << ag_row_text(r);
  r.contended_share = 0.4;
  EXPECT_NE(ag_row_text(r).find("(40% contended)"), std::string::npos) << ag_row_text(r);
}

// Waits and holds the guest walked no stack for (short, or released by another task) say who
// only by their task: xfsaild's count as writeback, the rest stay out of the shares.
TEST(AgHeaderTable, StacklessWaitsAndHoldsCountOnlyWhenTheirTaskSaysWho) {
  const std::map<std::string, Figures> f = {{"AGI.0", {10, 1, 1000, 4, 10000, 5000}}};
  const std::vector<Stack> s = {{"agheader.wait", kUnlinkWait, 300},
                                {"agheader.wait", {"[AGI of AG 0]", "[no stack]"}, 700},
                                {"agheader.hold", {"[AGI of AG 0]", "[no stack]", "[kworker/0:1]"}, 6000},
                                {"agheader.hold", {"[AGI of AG 0]", "[no stack]", "[xfsaild/vdb]"}, 3000},
                                {"agheader.hold", hold(kUnlinkWait, "rm"), 1000}};
  const auto t = ag_table({ag_headers_of({pass(1000, pass_json(f, s))})});
  ASSERT_EQ(t.rows.size(), 1u);
  const auto& r = t.rows.front();
  EXPECT_NEAR(r.wait_share.at("unlinking tasks"), 0.3, 1e-9) << "a share of all the header's wait time";
  EXPECT_FALSE(r.wait_share.count("other")) << "the short waits are not 'other'";
  EXPECT_NEAR(r.wait_share.at("short waits"), 0.7, 1e-9);
  EXPECT_NE(ag_row_text(r).find("(70% in short waits, 10% contended)"), std::string::npos) << ag_row_text(r);
  EXPECT_EQ(r.held_most_by, "metadata writeback (xfsaild) [xfsaild/vdb]") << "the kworker's stackless holds say nothing";
}
