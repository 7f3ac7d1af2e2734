// Store -> snapshot -> exposition, over stores filled like real runs.
#include "fixture.hpp"
#include "metrics/families.hpp"
#include "metrics/store_reader.hpp"
#include "store/readers.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <filesystem>
#include <set>
#include <sstream>

namespace rlab::metrics {
namespace {

namespace fs = std::filesystem;

class StoreMetrics : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rlab-metrics-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    store_ = store::Store::open(dir_ / "rlab.db");
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Fills a run (test::fill_run), then records the latest XFS boot's passes again with
  /// `attribution_json` (20 s, the same loops and counters). Returns {the boot's loops, its passes}.
  std::pair<std::uint64_t, std::size_t> latest_xfs_boot_with(const std::string& attribution_json) {
    const auto run = test::fill_run(*store_, {});
    const auto boots = store::scored_boots(*store_, run);
    const store::ScoredBoot* latest = nullptr;
    for (const auto& b : boots)
      if (b.fs == "xfs" && (!latest || b.boot_id > latest->boot_id)) latest = &b;
    EXPECT_NE(latest, nullptr);
    if (!latest) return {0, 0};
    std::uint64_t loops = 0;
    for (unsigned i = 0; i < latest->passes.size(); ++i) {
      const auto& cp = latest->passes[i];
      loops += cp.loops;
      store::Pass p;
      p.index = i;
      p.loops = cp.loops;
      p.duration_s = 20;
      p.lpm = 3.0 * static_cast<double>(cp.loops);
      p.counters_json = cp.counters_json;
      p.attribution_json = attribution_json;
      store_->record_pass(latest->boot_id, p);
    }
    return {loops, latest->passes.size()};
  }
  std::string exposition(std::optional<store::RunId> run = std::nullopt) {
    StoreReader reader(store_->path());
    prometheus::Registry reg;
    add_snapshot(reg, reader.read(run));
    return prometheus::TextSerializer().Serialize(reg.Collect());
  }
  // Every sample line's series (name + labels), without the value.
  static std::multiset<std::string> series(const std::string& text) {
    std::multiset<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      out.insert(line.substr(0, line.rfind(' ')));
    }
    return out;
  }
  static double value(const std::string& text, const std::string& series_prefix) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(series_prefix, 0) == 0) return std::stod(line.substr(line.rfind(' ') + 1));
    ADD_FAILURE() << "no series " << series_prefix;
    return -1;
  }

  // "name{k="v",...}" with the labels in the serializer's (sorted) order.
  static std::string sample(const std::string& name, std::map<std::string, std::string> labels,
                            const std::map<std::string, std::string>& extra = {}) {
    labels.insert(extra.begin(), extra.end());
    std::string out = name + "{";
    for (const auto& [k, v] : labels) out += (out.back() == '{' ? "" : ",") + k + "=\"" + v + "\"";
    return out + "}";
  }
  static std::map<std::string, std::string> cell(const std::string& kernel, const std::string& patchset,
                                                 const std::string& fs, const std::string& mkfs, unsigned vcpus) {
    return {{"copies", std::to_string(vcpus)}, {"fs", fs}, {"host", local_hostname()}, {"kernel", kernel},
            {"mkfs", mkfs}, {"page_size", "65536"}, {"patchset", patchset},
            {"vcpus", std::to_string(vcpus)}, {"workload", "shell1"}};
  }

  fs::path dir_;
  std::unique_ptr<store::Store> store_;
};

TEST_F(StoreMetrics, LatestResultOfEveryCellWithItsLabelsAndNoRunIdOrCommitLabels) {
  test::fill_run(*store_, {});
  const auto text = exposition();
  const auto s = series(text);
  // 2 kernels x 2 fs x 2 vCPU counts = 8 cells, each with one score series.
  EXPECT_EQ(std::count_if(s.begin(), s.end(), [](auto& l) { return l.rfind("rlab_cell_score_lpm{", 0) == 0; }), 8);
  for (const auto& l : s) {
    if (l.rfind("rlab_kernel_info", 0) == 0) continue;
    EXPECT_EQ(l.find("commit="), std::string::npos) << l;
    EXPECT_EQ(l.find("run=\""), std::string::npos) << l;
    EXPECT_EQ(l.find("run_id=\""), std::string::npos) << l;
  }
  EXPECT_NE(text.find("rlab_cell_score_lpm{copies=\"2\",fs=\"xfs\",host=\""), std::string::npos);
  EXPECT_NE(text.find("mkfs=\"agcount=4\""), std::string::npos);
  EXPECT_NE(text.find("patchset=\"inline-inactivation\""), std::string::npos);
  EXPECT_NE(text.find("page_size=\"65536\""), std::string::npos);
  EXPECT_NE(text.find("rlab_kernel_info{commit=\"4f1c2d3ea4\",kernel=\"6.12\""), std::string::npos);
}

TEST_F(StoreMetrics, ScoreMatchesTheStoredResultAndPassesAndLatencyAddUp) {
  const auto run = test::fill_run(*store_, {});
  double stored = 0;
  std::uint64_t loops = 0;
  for (const auto& b : store_->boot_results(run))
    if (b.cell_id == "6.12/ext4-defaults/2vcpu/shell1" && b.repeat == 1) {
      stored = *b.score;
      loops = b.loops;
    }
  ASSERT_GT(stored, 200);
  const auto text = exposition();
  const auto l = cell("6.12", "none", "ext4", "defaults", 2);
  EXPECT_NEAR(value(text, sample("rlab_cell_score_lpm", l)), stored, 1e-6);
  EXPECT_EQ(value(text, sample("rlab_cell_loops", l)), static_cast<double>(loops));
  EXPECT_EQ(value(text, sample("rlab_cell_loop_duration_seconds_count", l)), static_cast<double>(loops));
  // The serializer puts `le` after the sorted labels.
  EXPECT_EQ(value(text, sample("rlab_cell_loop_duration_seconds_bucket", l).insert(
      sample("rlab_cell_loop_duration_seconds_bucket", l).size() - 1, ",le=\"+Inf\"")),
            static_cast<double>(loops));
  EXPECT_GT(value(text, sample("rlab_cell_pass_lpm", l, {{"pass", "2"}})), 150);
  // Totals sum both repeats: 2 boots x 3 passes of ~30 s.
  EXPECT_NEAR(value(text, sample("rlab_cell_load_seconds_total", l)), 2 * (90 + 0.15), 1e-6);
  EXPECT_EQ(value(text, sample("rlab_cells_total", l, {{"status", "done"}})), 2);
}

TEST_F(StoreMetrics, InodegcAndXfsStatsOnlyOnXfsCellsAndOnlySelectedStats) {
  test::fill_run(*store_, {});
  const auto text = exposition();
  EXPECT_NE(text.find("rlab_xfs_inodegc_events_total{copies=\"1\",event=\"throttle\",fs=\"xfs\""), std::string::npos);
  EXPECT_NE(text.find("rlab_xfs_inode_inactivation_events_total{copies=\"1\",event=\"set_need_inactive\",fs=\"xfs\""), std::string::npos);
  EXPECT_NE(text.find("stat=\"vnodes_reclaim\""), std::string::npos);
  EXPECT_EQ(text.find("extent_alloc"), std::string::npos);
  for (const auto& l : series(text)) {
    if (l.rfind("rlab_xfs_", 0) == 0) {
      EXPECT_NE(l.find("fs=\"xfs\""), std::string::npos) << l;
    }
  }
}

// Where the time went, as bounded series of the latest result: the AGI and AGF buffers' shares
// of the XFS buffer-lock wait time and the lock-wait and off-CPU seconds per 1,000 loops; no
// stack ever becomes a label.
TEST_F(StoreMetrics, AttributionGivesBoundedSeriesOfTheLatestResultAndNoStackLabels) {
  const auto [loops, passes] = latest_xfs_boot_with(
      R"({"totals":{"lock.waits":9,"lock.wait_ns":8000000,"xfs_buf.waits":6,"xfs_buf.wait_ns":4000000,)"
      R"("xfs_agi.waits":3,"xfs_agi.wait_ns":3000000,"xfs_agf.waits":1,"xfs_agf.wait_ns":1000000,)"
      R"("offcpu.D.waits":5,"offcpu.D.wait_ns":50000000},"stacks":[{"family":"lock","frames":)"
      R"(["down","xfs_buf_lock","xfs_read_agi"],"count":3,"total_ns":3000000}],"unavailable":""})");
  ASSERT_GT(passes, 0u);
  const auto text = exposition();
  EXPECT_NEAR(value(text, "rlab_cell_xfs_header_buffer_wait_share{buffer=\"agi\""), 0.75, 1e-12) << text;
  EXPECT_NEAR(value(text, "rlab_cell_xfs_header_buffer_wait_share{buffer=\"agf\""), 0.25, 1e-12);
  const double n = static_cast<double>(passes);
  EXPECT_NEAR(value(text, "rlab_cell_lock_wait_seconds_per_1k_loops{"), n * 0.008 * 1000 / static_cast<double>(loops), 1e-9);
  EXPECT_NEAR(value(text, "rlab_cell_offcpu_seconds_per_1k_loops{"), n * 0.05 * 1000 / static_cast<double>(loops), 1e-9);
  EXPECT_EQ(text.find("xfs_read_agi"), std::string::npos) << "a stack is never a label";
  std::size_t header = 0;
  for (const auto& l : series(text)) header += l.rfind("rlab_cell_xfs_header_buffer_wait_share", 0) == 0;
  EXPECT_EQ(header, 2u) << "only the cell with attribution, one series per buffer";
}

// XFS AG headers as bounded series of the latest result: AGs 0..15 each, every higher AG
// (the agent's "64+" too) summed under "16+", seconds per 1,000 loops; cells without AG header
// totals have no series.
TEST_F(StoreMetrics, AgHeaderSeriesAreCappedAtSixteenAgsPerHeaderAndCell) {
  // AGI of AG n waits (n + 1) ms and is held 2 (n + 1) ms per pass, for AGs 0..39 and "64+" (7 ms).
  auto wait_ns = [](unsigned ag) { return (ag + 1) * 1000000.0; };
  std::string totals = R"("lock.waits":1,"lock.wait_ns":1,"agheader.agcount":100,"agheader.AGF.3.wait_ns":5000,)"
                       R"("agheader.AGI.64+.waits":1,"agheader.AGI.64+.wait_ns":7000000,"agheader.AGI.64+.held_ns":14000000)";
  for (unsigned ag = 0; ag < 40; ++ag)
    totals += fmt::format(R"(,"agheader.AGI.{0}.waits":1,"agheader.AGI.{0}.wait_ns":{1:.0f},"agheader.AGI.{0}.held_ns":{2:.0f},)"
                          R"("agheader.AGI.{0}.max_held_ns":1000)",
                          ag, wait_ns(ag), 2 * wait_ns(ag));
  const auto [loops, passes] = latest_xfs_boot_with("{\"totals\":{" + totals + "},\"stacks\":[],\"unavailable\":\"\"}");
  ASSERT_GT(passes, 0u);
  const auto text = exposition();
  auto values = [&](const std::string& name, const std::string& header) {
    std::map<std::string, double> by_ag;
    for (const auto& l : series(text))
      if (l.rfind(name + "{", 0) == 0 && l.find("header=\"" + header + "\"") != std::string::npos) {
        const auto at = l.find("ag=\"") + 4;
        by_ag[l.substr(at, l.find('"', at) - at)] = value(text, l);
      }
    return by_ag;
  };
  const auto waits = values("rlab_cell_ag_header_wait_seconds_per_1k_loops", "AGI");
  const auto held = values("rlab_cell_ag_header_held_seconds_per_1k_loops", "AGI");
  EXPECT_EQ(waits.size(), 17u) << "AGs 0..15 and 16+\n" << text;
  EXPECT_EQ(held.size(), 17u);
  const double n = static_cast<double>(passes), per_kloop = 1000.0 / static_cast<double>(loops);
  for (unsigned ag = 0; ag < 16; ++ag)
    EXPECT_NEAR(waits.at(std::to_string(ag)), n * wait_ns(ag) / 1e9 * per_kloop, 1e-9) << ag;
  double rest = 7e6;
  for (unsigned ag = 16; ag < 40; ++ag) rest += wait_ns(ag);
  EXPECT_NEAR(waits.at("16+"), n * rest / 1e9 * per_kloop, 1e-9) << "AGs 16..39 and 64+ summed";
  EXPECT_NEAR(held.at("16+"), 2 * n * rest / 1e9 * per_kloop, 1e-9);
  EXPECT_FALSE(waits.count("64+"));
  EXPECT_EQ(values("rlab_cell_ag_header_wait_seconds_per_1k_loops", "AGF").size(), 1u);
  std::set<std::string> cells_with_series;
  for (const auto& l : series(text))
    if (l.rfind("rlab_cell_ag_header_", 0) == 0) cells_with_series.insert(l.substr(l.find("copies=")));
  std::set<std::string> distinct_cells;
  for (const auto& c : cells_with_series) distinct_cells.insert(c.substr(0, c.find("header=")) + c.substr(c.find(",host=")));
  EXPECT_EQ(distinct_cells.size(), 1u) << "only the cell whose passes carry AG header totals";
  EXPECT_EQ(ag_series_label("15"), "15");
  EXPECT_EQ(ag_series_label("16"), "16+");
  EXPECT_EQ(ag_series_label("64+"), "16+");
  EXPECT_EQ(ag_series_label("x"), "");
}

TEST_F(StoreMetrics, FailedBootIsCountedAndTheCellKeepsItsOtherResult) {
  test::fill_run(*store_, {});
  const auto text = exposition();
  // The last cell (6.12+inline-inactivation, ext4, 2 vCPUs): repeat 0 failed, repeat 1 done.
  const auto l = cell("6.12+inline-inactivation", "inline-inactivation", "ext4", "defaults", 2);
  EXPECT_EQ(value(text, sample("rlab_cells_total", l, {{"status", "failed"}})), 1);
  EXPECT_EQ(value(text, sample("rlab_cells_total", l, {{"status", "done"}})), 1);
  EXPECT_GT(value(text, sample("rlab_cell_score_lpm", l)), 200);
}

TEST_F(StoreMetrics, SeriesCountDoesNotGrowOverRepeatedRunsOfTheSameMatrix) {
  test::RunShape night;
  test::fill_run(*store_, night);
  const auto first = series(exposition());
  double first_load = value(exposition(), "rlab_cell_load_seconds_total{copies=\"1\",fs=\"xfs\"");
  for (int n = 0; n < 4; ++n) {
    night.seed += 1;
    night.commit_suffix = std::string(1, static_cast<char>('b' + n));  // a new commit each night
    test::fill_run(*store_, night);
  }
  const auto text = exposition();
  const auto later = series(text);
  EXPECT_EQ(later.size(), first.size());
  std::multiset<std::string> a, b;
  for (const auto& l : first) if (l.rfind("rlab_kernel_info", 0) != 0) a.insert(l);
  for (const auto& l : later) if (l.rfind("rlab_kernel_info", 0) != 0) b.insert(l);
  EXPECT_EQ(a, b);
  // The newest commit is the one in the info gauge; counters kept growing.
  EXPECT_NE(text.find("commit=\"4f1c2d3ee4\""), std::string::npos);
  EXPECT_EQ(text.find("commit=\"4f1c2d3ea4\""), std::string::npos);
  EXPECT_NEAR(value(text, "rlab_cell_load_seconds_total{copies=\"1\",fs=\"xfs\""), 5 * first_load, 1e-6);
}

TEST_F(StoreMetrics, RunningRunShowsItsProgressAndFinishedRunsShowZero) {
  test::fill_run(*store_, {});
  auto text = exposition();
  const std::string l = "{host=\"" + local_hostname() + "\",kind=\"matrix\"";
  EXPECT_EQ(value(text, "rlab_runs_active" + l + "}"), 0);
  EXPECT_EQ(value(text, "rlab_run_boots" + l + ",state=\"planned\"}"), 0);
  test::RunShape live;
  live.finish = false;
  live.fail_one = false;
  live.cells = test::cells({"6.13"});
  store::NewRun nr{"m.yaml", "", 2, "matrix", ""};
  auto run = store_->create_run(nr);
  store_->add_cells(run, matrix::cell_rows(live.cells), 2);
  text = exposition();
  EXPECT_EQ(value(text, "rlab_runs_active" + l + "}"), 1);
  EXPECT_EQ(value(text, "rlab_run_boots" + l + ",state=\"planned\"}"), 8);
  EXPECT_EQ(value(text, "rlab_run_boots" + l + ",state=\"pending\"}"), 8);
  test::fill_boot(*store_, store_->boot_id(run, live.cells[0].id, 0), live.cells[0], "c0ffee", 7, "qemu:///system");
  store_->start_boot(store_->boot_id(run, live.cells[1].id, 0), "qemu:///system", "d", "/tmp/c");
  text = exposition();
  EXPECT_EQ(value(text, "rlab_run_boots" + l + ",state=\"done\"}"), 1);
  EXPECT_EQ(value(text, "rlab_run_boots" + l + ",state=\"running\"}"), 1);
  EXPECT_EQ(value(text, "rlab_run_boots" + l + ",state=\"pending\"}"), 6);
}

TEST_F(StoreMetrics, ARunsSnapshotHoldsOnlyItsCellsWithTotalsOverAllRuns) {
  test::fill_run(*store_, {});
  test::RunShape other;
  other.cells = test::cells({"6.13"});
  other.fail_one = false;
  const auto run = test::fill_run(*store_, other);
  StoreReader reader(store_->path());
  const auto s = reader.read(run);
  ASSERT_EQ(s.results.size(), 4u);
  for (const auto& r : s.results) EXPECT_EQ(r.labels.kernel, "6.13");
  ASSERT_EQ(s.runs.size(), 1u);
  EXPECT_EQ(s.runs[0].boots.at("done"), 8u);
}

TEST_F(StoreMetrics, GuestBootSecondsAreOneHistogramPerCellOverEveryBootWithAHello) {
  const auto run = test::fill_run(*store_, {});
  // A boot that got its hello and then failed (prepare) counts too; one without hello not.
  test::RunShape shape;
  const auto cell0 = shape.cells.front();
  const auto later = store_->create_run({"m.yaml", "", 5, "matrix", ""});
  store_->add_cells(later, matrix::cell_rows({cell0}), 1);
  const auto failed = store_->boot_id(later, cell0.id, 0);
  store_->start_boot(failed, "qemu:///system", "d", "/tmp/c");
  store_->record_boot_seconds(failed, 42.0);
  store_->record_failure(failed, rlab::store::FailurePhase::prepare, "mkfs.xfs: agcount=0 is invalid", "");
  double sum = 42.0;
  for (const auto& b : store_->boot_results(run))
    if (b.cell_id == cell0.id) sum += *store_->boot_seconds(b.boot_id);
  const auto text = exposition();
  const auto l = cell("6.12", "none", "xfs", "agcount=4", 1);
  EXPECT_EQ(value(text, sample("rlab_guest_boot_seconds_count", l)), 3);
  EXPECT_NEAR(value(text, sample("rlab_guest_boot_seconds_sum", l)), sum, 1e-9);
  // 42 s lies above the 30 s bucket and within the 45 s one.
  auto bucket = [&](const char* le) {  // the serializer puts `le` after the sorted labels
    auto name = sample("rlab_guest_boot_seconds_bucket", l);
    return name.insert(name.size() - 1, std::string(",le=\"") + le + "\"");
  };
  EXPECT_EQ(value(text, bucket("30")), 2);
  EXPECT_EQ(value(text, bucket("45")), 3);
  // The last cell's first boot never said hello: only its second boot is in the histogram.
  const auto last = cell("6.12+inline-inactivation", "inline-inactivation", "ext4", "defaults", 2);
  EXPECT_EQ(value(text, sample("rlab_guest_boot_seconds_count", last)), 1);
  const auto s = series(text);
  EXPECT_EQ(std::count_if(s.begin(), s.end(), [](auto& x) { return x.rfind("rlab_guest_boot_seconds_count{", 0) == 0; }), 8);
  // A push of the later run carries the cell's boot seconds over all runs.
  const auto part = exposition(later);
  EXPECT_EQ(value(part, sample("rlab_guest_boot_seconds_count", l)), 3);
}

TEST_F(StoreMetrics, AStoreFromBeforeBootSecondsIsServedWithoutThemAndNotChanged) {
  test::fill_run(*store_, {});
  store_.reset();
  rlab::test::sql_exec(dir_ / "rlab.db", "ALTER TABLE boots DROP COLUMN boot_s; PRAGMA user_version = 1;");
  StoreReader reader(dir_ / "rlab.db");
  prometheus::Registry reg;
  add_snapshot(reg, reader.read());
  const auto text = prometheus::TextSerializer().Serialize(reg.Collect());
  EXPECT_NE(text.find("rlab_cell_score_lpm{"), std::string::npos);
  EXPECT_EQ(text.find("rlab_guest_boot_seconds"), std::string::npos);  // no series, no family
  EXPECT_EQ(rlab::test::sql_column(dir_ / "rlab.db",
                                   "SELECT count(*) FROM pragma_table_info('boots') WHERE name = 'boot_s'")
                .at(0),
            "0")
      << "reading must not migrate the store";
}

TEST(StoreReaderErrors, NameTheFile) {
  try {
    StoreReader r("/nonexistent/rlab.db");
    FAIL();
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/rlab.db"), std::string::npos);
  }
}

TEST(ParseLatency, RejectsInconsistentHistograms) {
  EXPECT_FALSE(parse_latency("{}"));
  EXPECT_FALSE(parse_latency(R"({"bounds_s":[1,2],"counts":[1,2]})"));
  EXPECT_FALSE(parse_latency(R"({"bounds_s":[2,1],"counts":[1,2,3]})"));
  EXPECT_FALSE(parse_latency("not json"));
  auto h = parse_latency(R"({"bounds_s":[0.1,1],"counts":[3,2,1],"sum_s":2.5})");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->counts.size(), 3u);
  EXPECT_DOUBLE_EQ(h->sum_s, 2.5);
}

}  // namespace
}  // namespace rlab::metrics
