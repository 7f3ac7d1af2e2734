// compare over stores filled through the Store API: verdicts, advice, counters, refusals.
#include "compare/compare.hpp"
#include "stats/descriptive.hpp"
#include "compare/render.hpp"
#include "scenario.hpp"
#include "stats/power.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using namespace rlab::testing;

class CompareStore : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-compare-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    base_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return scenario_boot(0, c, k, r); });
    new_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return scenario_boot(1, c, k, r); });
  }
  void TearDown() override { fs::remove_all(dir_); }

  static const compare::CellComparison& row(const compare::ComparisonTable& r, const std::string& label) {
    for (const auto& c : r.cells)
      if (c.label == label) return c;
    throw std::runtime_error("no row " + label);
  }

  fs::path dir_, db_;
  store::RunId base_ = 0, new_ = 0, kvm_ = 0, part_ = 0;
};

TEST_F(CompareStore, TwoRunsGiveEachVerdict) {
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  const auto rep = compare::compare_runs(db, base_, new_, {});
  ASSERT_EQ(rep.cells.size(), 4u);

  const auto& reg = row(rep, kDefaults);
  ASSERT_EQ(reg.status, compare::RowStatus::compared);
  EXPECT_EQ(reg.result->verdict, stats::Verdict::different) << reg.result->reason;
  EXPECT_TRUE(reg.regression());
  EXPECT_NEAR(reg.result->difference.relative_change, 240.0 / 270.0 - 1, 0.005);
  EXPECT_LT(reg.result->difference.p_min, 0.001);
  EXPECT_EQ(reg.base_scores.size(), 10u);

  const auto& same = row(rep, kAgcount4);
  EXPECT_EQ(same.result->verdict, stats::Verdict::same) << same.result->reason;
  EXPECT_FALSE(same.regression());
  EXPECT_EQ(same.next_boots_per_side, 0u);

  const auto& unk = row(rep, kInlineDefaults);
  EXPECT_EQ(unk.result->verdict, stats::Verdict::unknown) << unk.result->reason;
  EXPECT_EQ(unk.base_scores.size(), 5u);
  // 9% noise and a 3% change: more than the cap of 80 boots a side would be needed.
  ASSERT_TRUE(unk.noise.has_value());
  EXPECT_NEAR(*unk.noise, 0.09, 0.01);
  EXPECT_NEAR(*unk.mde, stats::minimum_detectable_effect(*unk.noise, 5), 1e-12);
  EXPECT_FALSE(stats::boots_for_effect(*unk.noise, 0.03, 80).has_value());
  EXPECT_TRUE(unk.beyond_cap);
  EXPECT_EQ(unk.next_boots_per_side, 0u);
  EXPECT_EQ(unk.more_base, 0u);
  EXPECT_EQ(unk.more_new, 0u);
  // Every compared row states its noise and detectable effect.
  EXPECT_LT(*reg.mde, 0.05);
  EXPECT_LT(*reg.mde, std::fabs(reg.result->difference.relative_change));
}

TEST(CompareBoots, UnknownAsksForTheBootsTheNoiseCallsFor) {
  // 1% noise, a 1.5% drop: neither different (below the 2% minimum effect) nor ruled out.
  auto boots = [](double level, unsigned n) {
    std::vector<compare::BootData> out;
    for (unsigned i = 0; i < n; ++i) {
      compare::BootData b;
      b.boot_id = i;
      b.cell_id = "6.12/xfs-defaults/2vcpu/shell1";
      b.kernel = "6.12";
      b.score = level * (1 + 0.01 * ((i % 3) - 1.0) * 1.2);
      out.push_back(b);
    }
    return out;
  };
  compare::CompareOptions opt;
  opt.plan.initial = 2;
  const auto rep = compare::compare_boots(compare::Mode::runs, {1, ""}, {2, ""}, boots(100, 6), boots(98.5, 6), opt);
  ASSERT_EQ(rep.cells.size(), 1u);
  const auto& r = rep.cells[0];
  ASSERT_EQ(r.result->verdict, stats::Verdict::unknown) << r.result->reason;
  ASSERT_TRUE(r.noise.has_value());
  const auto need = stats::boots_for_effect(*r.noise, 0.02, 80);
  ASSERT_TRUE(need.has_value());
  EXPECT_GT(*need, 6u);
  EXPECT_FALSE(r.beyond_cap);
  EXPECT_EQ(r.next_boots_per_side, *need);  // from the noise: not 12 (doubling)
  EXPECT_EQ(r.more_base, *need - 6);
  EXPECT_EQ(r.more_new, *need - 6);
}

TEST_F(CompareStore, WhatChangedRanksEveryFamilyPerThousandLoopsBiggestMoverFirst) {
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  const auto rep = compare::compare_runs(db, base_, new_, {});
  ASSERT_TRUE(row(rep, kDefaults).movers.has_value());
  const auto& m = *row(rep, kDefaults).movers;
  EXPECT_EQ(m.base_boots, 10u);
  EXPECT_EQ(m.new_boots, 10u);
  std::vector<const rlab::attribution::Mover*> tp;
  for (const auto& r : m.rows)
    if (r.family == rlab::attribution::Family::tracepoint) tp.push_back(&r);
  ASSERT_EQ(tp.size(), 5u);
  // Rose from 0 (push) and new on the new side (shrinker_scan, absent in base) lead; then the
  // largest relative change (throttle, 2 -> 30 per pass).
  EXPECT_FALSE(tp[0]->change.has_value());
  EXPECT_FALSE(tp[1]->change.has_value());
  EXPECT_TRUE((tp[0]->key == "xfs:xfs_inodegc_push" && tp[1]->key == "xfs:xfs_inodegc_shrinker_scan") ||
              (tp[1]->key == "xfs:xfs_inodegc_push" && tp[0]->key == "xfs:xfs_inodegc_shrinker_scan"));
  EXPECT_EQ(tp[2]->key, "xfs:xfs_inodegc_throttle");
  EXPECT_TRUE(tp[2]->significant) << "q " << tp[2]->q.value_or(-1);
  ASSERT_TRUE(tp[2]->change.has_value());
  EXPECT_GT(*tp[2]->change, 10.0);  // 2 -> 30 per pass with fewer loops: > +1000%
  // Per 1,000 loops from the stored passes: the median over boots of 6 throttles (2 a pass) per
  // the boot's loops, round(lpm * 20 / 60) a pass.
  std::vector<double> per_boot;
  for (unsigned r = 0; r < 10; ++r) {
    double loops = 0;
    for (int p = 0; p < 3; ++p) loops += std::llround(270.0 * (1 + 0.02 * z(r, 1)) * (1 + 0.01 * (p - 1)) * 20.0 / 60.0);
    per_boot.push_back(6000.0 / loops);
  }
  EXPECT_NEAR(tp[2]->base_per_kloop, rlab::stats::median(per_boot), 1e-9);
  for (const auto& r : m.rows) {
    if (r.family == rlab::attribution::Family::cpu) {
      EXPECT_NE(r.key, "idle") << "idle time is not the load's";
    }
  }
}

TEST_F(CompareStore, TwoKernelsInOneRun) {
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  const auto rep = compare::compare_kernels(db, base_, "6.12", "6.12+inline-inactivation", {});
  ASSERT_EQ(rep.cells.size(), 2u);
  const auto& r = row(rep, "xfs(defaults).2vcpu.shell1");
  EXPECT_EQ(r.base_cell, kDefaults);
  EXPECT_EQ(r.new_cell, kInlineDefaults);
  ASSERT_EQ(r.status, compare::RowStatus::compared)
      << (r.mismatch ? r.mismatch->message() : r.error);  // kernel release and config may differ
  EXPECT_EQ(r.result->verdict, stats::Verdict::unknown);
  EXPECT_TRUE(r.beyond_cap);  // too noisy for its change within 80 boots a side
  EXPECT_EQ(r.next_boots_per_side, 0u);
  EXPECT_THROW(compare::compare_kernels(db, base_, "6.12", "7.0", {}), rlab::UsageError);

  // With a cap of 10 boots per side the larger side is already there: stays unknown.
  compare::CompareOptions capped;
  capped.plan.cap = 10;
  const auto at_cap = compare::compare_kernels(db, base_, "6.12", "6.12+inline-inactivation", capped);
  const auto& c = row(at_cap, "xfs(defaults).2vcpu.shell1");
  EXPECT_EQ(c.result->verdict, stats::Verdict::unknown);
  EXPECT_EQ(c.next_boots_per_side, 0u);
  std::ostringstream out;
  compare::render_text(at_cap, out);
  EXPECT_NE(out.str().find("unknown at the cap of 10 boots per side: stays unknown"), std::string::npos)
      << out.str();
}

TEST_F(CompareStore, EnvironmentMismatchIsRefusedNamingTheField) {
  {
    auto st = store::Store::open(db_);
    kvm_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) {
      auto b = scenario_boot(1, c, k, r);
      if (c == kAgcount4) b.env.accel = "kvm";
      if (c == kDefaults && r == 3) b.env.host = "qemu+ssh://arm-01/system";
      return b;
    });
  }
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  const auto rep = compare::compare_runs(db, base_, kvm_, {});
  const auto& acc = row(rep, kAgcount4);
  ASSERT_EQ(acc.status, compare::RowStatus::refused);
  EXPECT_EQ(acc.mismatch->field, "accel");
  EXPECT_EQ(acc.mismatch->where, "base vs new");
  EXPECT_EQ(acc.mismatch->first, "tcg");
  EXPECT_EQ(acc.mismatch->second, "kvm");
  EXPECT_FALSE(acc.result.has_value());
  EXPECT_FALSE(acc.movers.has_value());  // counters of another environment are not compared either
  const auto& host = row(rep, kDefaults);
  ASSERT_EQ(host.status, compare::RowStatus::refused);
  EXPECT_EQ(host.mismatch->field, "host");
  EXPECT_NE(host.mismatch->where.find("new boots"), std::string::npos);
  EXPECT_NE(host.mismatch->message().find("`host`"), std::string::npos);
  // The kernel is the axis: its release differs between the kernels and is allowed.
  EXPECT_EQ(row(rep, kInlineDefaults).status, compare::RowStatus::compared);
}

TEST_F(CompareStore, FailedAndMissingCellsAreOneSided) {
  {
    auto st = store::Store::open(db_);
    part_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) {
      auto b = scenario_boot(1, c, k, r);
      if (c == kAgcount4) b.fail = true;
      return b;
    });
  }
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  const auto rep = compare::compare_runs(db, base_, part_, {});
  const auto& r = row(rep, kAgcount4);
  EXPECT_EQ(r.status, compare::RowStatus::base_only);
  EXPECT_EQ(rep.cells.back().label, kAgcount4);  // one-sided rows come last
}

TEST_F(CompareStore, TextTableInLkpStyle) {
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  std::ostringstream out;
  compare::render_text(compare::compare_runs(db, base_, new_, {}), out);
  const std::string s = out.str();
  EXPECT_NE(s.find("  median %stddev     %change  median %stddev         p  verdict"), std::string::npos) << s;
  EXPECT_NE(s.find("different  " + kDefaults + ".score_lpm"), std::string::npos) << s;
  EXPECT_NE(s.find("-11.1%"), std::string::npos) << s;
  EXPECT_NE(s.find("unknown: at 9.0% noise a 3.0% change needs more than 80 boots per side"),
            std::string::npos) << s;
  EXPECT_NE(s.find("(10 vs 10 boots; noise 1.7%, detectable 3.2%)"), std::string::npos) << s;
  // Under the row, what changed: the ranking's header and its tracepoint rows, biggest first.
  const auto row_at = s.find("different  " + kDefaults);
  EXPECT_NE(s.find("what changed, per 1,000 loops (10 base boots, 10 new", row_at), std::string::npos) << s;
  EXPECT_LT(s.find("xfs:xfs_inodegc_push", row_at), s.find("xfs:xfs_inodegc_queue", row_at)) << s;
  EXPECT_LT(s.find("xfs:xfs_inodegc_throttle", row_at), s.find("xfs:xfs_inodegc_queue", row_at)) << s;
  EXPECT_NE(s.find("1 different (1 regressions), 1 same, 2 unknown, 0 refused"), std::string::npos) << s;
}

TEST_F(CompareStore, MissingRunIsAStoreError) {
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  EXPECT_THROW(compare::compare_runs(db, base_, 99, {}), store::StoreError);
  EXPECT_THROW(store::Store::open_read_only(dir_ / "none.db"), store::StoreError);
  EXPECT_FALSE(fs::exists(dir_ / "none.db"));
}

}  // namespace

namespace {

/// A boot of `cell` with one pass of 1,000 loops; with `agi_wait_ns`, its attribution carries
/// the AGI of AG 2 waited for that long (all by an unlinking task), else plain lock totals.
compare::BootData ag_boot(unsigned i, double score, std::optional<double> agi_wait_ns) {
  compare::BootData b;
  b.boot_id = i;
  b.cell_id = "6.12/xfs-defaults/2vcpu/shell1";
  b.kernel = "6.12";
  b.score = score * (1 + 0.002 * i);
  nlohmann::json totals = {{"lock.waits", 1}, {"lock.wait_ns", 5000}};
  nlohmann::json stacks = nlohmann::json::array();
  if (agi_wait_ns) {
    const auto ns = static_cast<std::uint64_t>(*agi_wait_ns * (1 + 0.01 * i));
    totals["agheader.agcount"] = 4;
    totals["agheader.AGI.2.waits"] = 10;
    totals["agheader.AGI.2.contended"] = 10;
    totals["agheader.AGI.2.wait_ns"] = ns;
    stacks.push_back({{"family", "agheader.wait"},
                      {"frames", {"[AGI of AG 2]", "xfs_buf_lock", "xfs_read_agi", "xfs_remove", "do_unlinkat"}},
                      {"count", 10},
                      {"total_ns", ns}});
  }
  store::CountedPass p;
  p.loops = 1000;
  p.attribution_json = nlohmann::json{{"totals", totals}, {"stacks", stacks}, {"unavailable", ""}}.dump();
  b.passes.push_back(p);
  return b;
}

std::vector<compare::BootData> ag_side(double score, std::optional<double> agi_wait_ns) {
  std::vector<compare::BootData> out;
  for (unsigned i = 0; i < 4; ++i) out.push_back(ag_boot(i, score, agi_wait_ns));
  return out;
}

}  // namespace

TEST(CompareBoots, AgHeaderTableOnlyWhereThePassesCarryAgHeaderTotals) {
  const auto with = compare::compare_boots(compare::Mode::runs, {1, ""}, {2, ""}, ag_side(100, 1e6), ag_side(80, 9e6), {});
  ASSERT_EQ(with.cells.size(), 1u);
  ASSERT_TRUE(with.cells[0].ag_headers.has_value());
  const auto& ag = *with.cells[0].ag_headers;
  ASSERT_EQ(ag.rows.size(), 1u);
  EXPECT_EQ(ag.rows[0].at.name(), "AGI of AG 2");
  EXPECT_NEAR(ag.rows[0].new_waited_ms_per_kloop, 9 * (1 + 0.01 * 1.5), 1e-6) << "median of 4 boots, ms per 1,000 loops";
  std::ostringstream text;
  compare::render_text(with, text);
  EXPECT_NE(text.str().find("AGI of AG 2: waited 1.0"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("100% by unlinking tasks, 100% contended"), std::string::npos) << text.str();
  EXPECT_EQ(compare::to_json(with)["cells"][0]["ag_headers"]["rows"][0]["ag"], "2");
  EXPECT_TRUE(with.cells[0].flames.count(rlab::attribution::Family::agheader));

  const auto without = compare::compare_boots(compare::Mode::runs, {1, ""}, {2, ""}, ag_side(100, std::nullopt),
                                              ag_side(80, std::nullopt), {});
  ASSERT_EQ(without.cells.size(), 1u);
  EXPECT_FALSE(without.cells[0].ag_headers.has_value());
  std::ostringstream plain;
  compare::render_text(without, plain);
  EXPECT_EQ(plain.str().find("AG header"), std::string::npos) << plain.str();
  EXPECT_EQ(plain.str().find("agheader"), std::string::npos) << "not listed as a family not compared\n" << plain.str();
  EXPECT_FALSE(compare::to_json(without)["cells"][0].contains("ag_headers"));
}
