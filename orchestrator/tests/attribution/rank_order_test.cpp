// The order of "what changed": the concrete stacks lead, the totals and pressure come after
// them, however much more those moved (docs/attribution.md "The ranking").
//
// The boots reproduce a bisection of a 1.8 ms udelay injected into xfs_inactive: a new on-CPU
// stack in the inodegc worker, 5.7 s per 1,000 loops in every new boot, among 30 steady ones
// (so the Benjamini-Hochberg adjustment over the family's 33 keys leaves it short of q <= 0.05);
// the on-CPU remainder ("[other stacks]") and total ("[all]"), CPU system time and PSI cpu.some
// all move more in ms per 1,000 loops, and PSI and CPU time (families of one or two keys) are
// significant. On the ranking before this order, psi cpu.some led and the stack came seventh.
#include "attribution/rank.hpp"
#include "attribution/render.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>
#include <tuple>

namespace {
using rlab::attribution::BootProfile;
using rlab::attribution::Family;
namespace rp = rlab::protocol;

const std::vector<std::string> kUdelay = {"__delay",          "__const_udelay", "xfs_inactive",
                                          "xfs_inodegc_worker", "process_one_work", "worker_thread",
                                          "kthread",          "ret_from_fork",  "[kworker/0:1]"};
const std::string kUdelayKey =
    "__delay;__const_udelay;xfs_inactive;xfs_inodegc_worker;process_one_work;worker_thread;kthread;ret_from_fork;[kworker/0:1]";
const std::string kIlockKey = "rwsem_down_write_slowpath;xfs_ilock;xfs_create;[sh]";

/// One boot of 1,000 loops, its figures wobbling by about 2%. `bad`: the udelay is in.
BootProfile order_boot(std::mt19937& rng, bool bad) {
  std::normal_distribution<double> wobble(1.0, 0.02);
  auto ns = [&](double ms) { return static_cast<std::uint64_t>(ms * 1e6 * wobble(rng)); };
  rp::Counters c;
  c.cpu = {{"user", static_cast<std::uint64_t>(300 * wobble(rng))},
           {"system", static_cast<std::uint64_t>((bad ? 900 : 300) * wobble(rng))},
           {"idle", 100}};                                                           // jiffies
  c.pressure["cpu.some"] = static_cast<std::uint64_t>((bad ? 9e6 : 1e6) * wobble(rng));  // us
  c.ctxt = static_cast<std::uint64_t>(50000 * wobble(rng));
  c.forks = 8000;
  c.tracepoints["xfs:xfs_inodegc_queue"] = static_cast<std::uint64_t>(4000 * wobble(rng));
  c.tracepoints["xfs:xfs_inodegc_throttle"] = bad ? static_cast<std::uint64_t>(50 * wobble(rng)) : 0;

  rp::Attribution a;
  std::uint64_t oncpu = 0;
  for (int i = 0; i < 30; ++i) {  // the load's steady work
    const auto t = ns(20);
    a.stacks.push_back({"oncpu", {"fn_" + std::to_string(i), "el0_svc", "[sh]"}, 10, t});
    oncpu += t;
  }
  const auto other = ns(bad ? 8000 : 2000);
  a.stacks.push_back({"oncpu", {}, 100, other});
  oncpu += other;
  if (bad) {
    const auto t = ns(5700);
    a.stacks.push_back({"oncpu", kUdelay, 165, t});
    oncpu += t;
  }
  const auto ilock = ns(bad ? 1.5 : 1.0);  // a small, steady move of a small family: significant
  a.stacks.push_back({"lock", {"rwsem_down_write_slowpath", "xfs_ilock", "xfs_create", "[sh]"}, 5, ilock});
  a.totals = {{"oncpu.samples", oncpu / 34482758}, {"oncpu.sampled_ns", oncpu},
              {"lock.waits", 5},                   {"lock.wait_ns", ilock},
              {"xfs_agi.waits", 0},                {"xfs_agi.wait_ns", 0},
              {"xfs_agf.waits", 0},                {"xfs_agf.wait_ns", 0},
              {"xfs_buf.waits", 0},                {"xfs_buf.wait_ns", 0},
              {"offcpu.D.waits", 40},              {"offcpu.D.wait_ns", ns(3)},
              {"offcpu.S.waits", 0},               {"offcpu.S.wait_ns", 0}};
  BootProfile p;
  rlab::attribution::add_pass(p, 1000, c, a);
  return p;
}

struct Sides {
  std::vector<BootProfile> base, next;
};
Sides udelay_bisection() {
  std::mt19937 rng(11);
  Sides s;
  for (int i = 0; i < 5; ++i) s.base.push_back(order_boot(rng, false));
  for (int i = 0; i < 5; ++i) s.next.push_back(order_boot(rng, true));
  return s;
}

/// Whether a JSON row is a family's total or remainder, CPU time by state, or pressure.
bool aggregate_or_pressure(const nlohmann::json& row) {
  const std::string family = row["family"], key = row["key"];
  return family == "psi" || family == "cpu" || key.front() == '[';
}

std::size_t index_of(const nlohmann::json& rows, const std::string& family, const std::string& key) {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i]["family"] == family && rows[i]["key"] == key) return i;
  ADD_FAILURE() << family << " " << key << " not in " << rows.dump(1);
  return rows.size();
}

double moved(const nlohmann::json& row) {
  return std::fabs(row["new_per_kloop"].get<double>() - row["base_per_kloop"].get<double>());
}
}  // namespace

TEST(AttributionOrder, TheNewStackLeadsAndTotalsAndPressureComeAfterIt) {
  const auto s = udelay_bisection();
  const auto r = rlab::attribution::rank(s.base, s.next, {.fdr = 0.05, .top = 0, .context_top = 0});
  // Every row, in the order shown (JSON rows are in display order).
  const auto rows = rlab::attribution::ranking_json(r, 0.05)["rows"];
  const auto udelay = index_of(rows, "oncpu", kUdelayKey);
  ASSERT_LT(udelay, rows.size());

  // The premise: the aggregates and the pressure moved more than the stack, in ms and in
  // percent; PSI and CPU system time are significant, the stack is not.
  const auto& stack = rows[udelay];
  EXPECT_TRUE(stack["change"].is_null()) << "new on the new side";
  EXPECT_FALSE(stack["significant"].get<bool>()) << stack.dump();
  EXPECT_NEAR(stack["new_per_kloop"].get<double>(), 5.7e9, 0.2e9);
  for (const auto& [family, key] : std::vector<std::pair<std::string, std::string>>{
           {"psi", "cpu.some"}, {"cpu", "system"}, {"oncpu", "[all]"}, {"oncpu", "[other stacks]"}}) {
    const auto i = index_of(rows, family, key);
    ASSERT_LT(i, rows.size());
    EXPECT_GT(moved(rows[i]), moved(stack)) << family << " " << key;
    EXPECT_GT(rows[i]["change"].get<double>(), 1.0) << family << " " << key << ": more than doubled";
  }
  EXPECT_TRUE(rows[index_of(rows, "psi", "cpu.some")]["significant"].get<bool>());
  EXPECT_TRUE(rows[index_of(rows, "cpu", "system")]["significant"].get<bool>());
  EXPECT_TRUE(rows[index_of(rows, "lock", kIlockKey)]["significant"].get<bool>());

  // The injected stack leads; the significant but smaller lock stack comes after it; every
  // total and pressure figure comes after every stack.
  ASSERT_FALSE(r.rows.empty());
  EXPECT_EQ(r.rows.front().family, Family::oncpu);
  EXPECT_EQ(r.rows.front().key, kUdelayKey);
  EXPECT_EQ(udelay, 0u) << rows.dump(1);
  EXPECT_LT(udelay, index_of(rows, "lock", kIlockKey));
  std::size_t last_stack = 0, first_aggregate = rows.size();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (aggregate_or_pressure(rows[i]))
      first_aggregate = std::min(first_aggregate, i);
    else if (rows[i]["family"] == "oncpu" || rows[i]["family"] == "lock")
      last_stack = i;
  }
  EXPECT_LT(last_stack, first_aggregate) << rows.dump(1);

  // The text: the stack's line before the totals' and the pressure's.
  std::ostringstream out;
  rlab::attribution::render_ranking(r, out);
  const std::string t = out.str();
  const auto at = t.find("__delay < __const_udelay < xfs_inactive < xfs_inodegc_worker");
  ASSERT_NE(at, std::string::npos) << t;
  for (const char* after : {"cpu.some", "[all]", "[other stacks]", " system "})
    EXPECT_LT(at, t.find(after)) << after << " in\n" << t;
}

TEST(AttributionOrder, StacksThenPartsThenCountersLeadAndTotalsAndPressureAreContext) {
  using rlab::attribution::RowKind;
  const auto s = udelay_bisection();
  const auto r = rlab::attribution::rank(s.base, s.next, {.fdr = 0.05, .top = 0, .context_top = 0});
  ASSERT_FALSE(r.rows.empty());
  ASSERT_FALSE(r.context.empty());
  // Leading rows: every stack (those whose boots separate, p <= 0.05, first; each group by the
  // time it moved), then the counters.
  std::tuple<int, int, double> last{-1, 0, 0};
  for (const auto& m : r.rows) {
    ASSERT_FALSE(rlab::attribution::is_context(m.kind)) << m.key;
    const int kind = m.kind == RowKind::stack ? 0 : m.kind == RowKind::part ? 1 : 2;
    const int apart = m.p && *m.p <= 0.05 ? 0 : 1;
    const double moved = m.kind == RowKind::counter ? 0 : -std::fabs(m.new_per_kloop - m.base_per_kloop);
    EXPECT_LE(std::get<0>(last), kind) << m.key;
    if (m.kind != RowKind::counter) EXPECT_LE(last, std::make_tuple(kind, apart, moved)) << m.key;
    last = {kind, apart, moved};
  }
  EXPECT_EQ(r.rows[0].kind, RowKind::stack);
  EXPECT_EQ(r.rows[1].key, kIlockKey) << "second: its boots separate, and it moved more than any other such stack";
  EXPECT_EQ(r.rows.back().kind, RowKind::counter);
  EXPECT_EQ(r.rows[r.rows.size() - 4].key, "xfs:xfs_inodegc_throttle") << "counters: significant and new first";
  // Context: the totals and the pressure, those whose boots separate first, each by the time
  // it moved (CPU user time wobbles by 90 ms, more than the lock waits' 0.5 ms, and comes last).
  std::vector<std::string> context;
  for (const auto& m : r.context) {
    EXPECT_TRUE(rlab::attribution::is_context(m.kind)) << m.key;
    context.push_back(std::string(rlab::attribution::family_name(m.family)) + " " + m.key);
  }
  EXPECT_EQ(context, (std::vector<std::string>{"oncpu [all]", "psi cpu.some", "oncpu [other stacks]", "cpu system",
                                               "lock [all]", "cpu user", "offcpu [D all]"}));
  EXPECT_EQ(r.context[1].kind, RowKind::pressure);
  EXPECT_EQ(r.context[0].kind, RowKind::total);
  // Cut separately, and the JSON carries every row with its kind, leading rows first.
  const auto cut = rlab::attribution::rank(s.base, s.next, {.fdr = 0.05, .top = 2, .context_top = 2});
  EXPECT_EQ(cut.rows.size(), 2u);
  EXPECT_EQ(cut.left_out, r.rows.size() - 2);
  EXPECT_EQ(cut.context.size(), 2u);
  EXPECT_EQ(cut.context_left_out, r.context.size() - 2);
  const auto j = rlab::attribution::ranking_json(cut, 0.05);
  ASSERT_EQ(j["rows"].size(), 4u);
  EXPECT_EQ(j["rows"][0]["kind"], "stack");
  EXPECT_EQ(j["rows"][2]["key"], "[all]");
  EXPECT_EQ(j["rows"][2]["kind"], "total");
  EXPECT_EQ(j["rows"][3]["kind"], "pressure");
  EXPECT_EQ(j["left_out"], r.rows.size() - 2);
  EXPECT_EQ(j["context_left_out"], r.context.size() - 2);
}

TEST(AttributionOrder, EveryKeyHasItsKind) {
  using rlab::attribution::RowKind;
  using rlab::attribution::row_kind;
  EXPECT_EQ(row_kind(Family::oncpu, kUdelayKey), RowKind::stack);
  EXPECT_EQ(row_kind(Family::lock, "down;xfs_buf_lock"), RowKind::stack);
  EXPECT_EQ(row_kind(Family::offcpu, "D;io_schedule;folio_wait_bit"), RowKind::stack);
  EXPECT_EQ(row_kind(Family::agheader, "wait;[AGI of AG 0];xfs_buf_lock;xfs_read_agi"), RowKind::stack);
  EXPECT_EQ(row_kind(Family::agheader, "hold;[AGI of AG 0];xfs_trans_commit;[kworker/0:1]"), RowKind::stack);
  EXPECT_EQ(row_kind(Family::oncpu, "0xffff800080123456;[sh]"), RowKind::stack) << "an address is a frame too";
  EXPECT_EQ(row_kind(Family::lock, "[AGI buffer]"), RowKind::part);
  EXPECT_EQ(row_kind(Family::lock, "[XFS buffer locks]"), RowKind::part);
  EXPECT_EQ(row_kind(Family::agheader, "[AGI of AG 3 waited]"), RowKind::part);
  EXPECT_EQ(row_kind(Family::agheader, "[AGF of AG 64+ held]"), RowKind::part);
  EXPECT_EQ(row_kind(Family::agheader, "wait;[AGI of AG 0];[no stack]"), RowKind::part);
  EXPECT_EQ(row_kind(Family::oncpu, "[user];[sort]"), RowKind::part);
  EXPECT_EQ(row_kind(Family::lock, "[all]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::lock, "[other stacks]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::lock, "[no stack]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::offcpu, "[D all]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::offcpu, "[S other stacks]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::offcpu, "D;[no stack]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::oncpu, "[no stack];[sh]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::agheader, "[wait other stacks]"), RowKind::total);
  EXPECT_EQ(row_kind(Family::cpu, "system"), RowKind::total);
  EXPECT_EQ(row_kind(Family::psi, "cpu.some"), RowKind::pressure);
  EXPECT_EQ(row_kind(Family::tracepoint, "xfs:xfs_inodegc_queue"), RowKind::counter);
  EXPECT_EQ(row_kind(Family::vmstat, "pgfault"), RowKind::counter);
  EXPECT_EQ(row_kind(Family::stat, "ctxt"), RowKind::counter);
  EXPECT_EQ(row_kind(Family::xfs_stats, "ig.0"), RowKind::counter);
  EXPECT_EQ(rlab::attribution::row_kind_name(RowKind::part), "part");
}

TEST(AttributionOrder, TheDocShowsThisRanking) {
  const auto s = udelay_bisection();
  std::ostringstream out;
  rlab::attribution::render_ranking(rlab::attribution::rank(s.base, s.next, {.fdr = 0.05, .top = 4, .context_top = 4}), out);
  const auto doc = rlab::util::read_file(std::filesystem::path(RLAB_SOURCE_DIR) / "docs" / "attribution.md");
  EXPECT_NE(doc.find(out.str()), std::string::npos) << "docs/attribution.md must show this ranking verbatim:\n" << out.str();
}
