// The results table: aggregation over repeats, throttle rate, LKP-style text, JSON.
#include "results/results_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace {

using namespace rlab;

store::BootResult table_boot(const std::string& kernel, const std::string& fs, unsigned vcpus,
                       unsigned repeat, std::optional<double> score, std::uint64_t loops = 0,
                       std::optional<std::uint64_t> throttle = std::nullopt) {
  store::BootResult b;
  b.kernel = kernel;
  b.fs = fs;
  b.mkfs_label = "defaults";
  b.vcpus = vcpus;
  b.workload = "shell1";
  b.copies = vcpus;
  b.repeat = repeat;
  b.cell_id = kernel + "/" + fs + "-defaults/" + std::to_string(vcpus) + "vcpu/shell1";
  b.status = score ? rlab::store::BootStatus::done : rlab::store::BootStatus::failed;
  b.score = score;
  b.loops = loops;
  b.throttle_counted = throttle.has_value();
  b.inodegc_throttle = throttle.value_or(0);
  if (!score) b.failure = "hello: no hello within 120 s";
  return b;
}

store::RunInfo run_info() {
  store::RunInfo r;
  r.id = 4;
  r.status = rlab::store::RunStatus::failed;
  r.matrix_path = "/x/matrix.yaml";
  r.seed = 99;
  r.created_at = "2026-11-30T09:00:00.000Z";
  return r;
}

std::vector<store::BootResult> sample_boots() {
  return {
      table_boot("6.12", "xfs", 2, 0, 260.0, 1300, 13),
      table_boot("6.12", "xfs", 2, 1, 280.0, 1400, 14),
      table_boot("6.12+inline", "xfs", 2, 0, 300.0, 1500, 0),
      table_boot("6.12+inline", "xfs", 2, 1, std::nullopt),
      table_boot("6.12", "ext4", 2, 0, 270.0, 1350),
      table_boot("6.12+inline", "ext4", 2, 0, 243.0, 1215),
  };
}

TEST(Summarize, MedianRelativeStddevAndThrottleRate) {
  const auto t = results::summarize(run_info(), sample_boots());
  EXPECT_EQ(t.kernels, (std::vector<std::string>{"6.12", "6.12+inline"}));
  ASSERT_EQ(t.cells.size(), 4u);
  // Sorted by fs first: ext4 rows, then xfs; kernels in column order within a row.
  EXPECT_EQ(t.cells[0].fs, "ext4");
  EXPECT_EQ(t.cells[0].kernel, "6.12");
  EXPECT_EQ(t.cells[1].kernel, "6.12+inline");
  const auto& x = t.cells[2];
  EXPECT_EQ(x.cell_id, "6.12/xfs-defaults/2vcpu/shell1");
  EXPECT_EQ(x.boots, 2u);
  EXPECT_EQ(x.done, 2u);
  ASSERT_TRUE(x.median);
  EXPECT_DOUBLE_EQ(*x.median, 270.0);
  ASSERT_TRUE(x.rel_stddev);
  EXPECT_NEAR(*x.rel_stddev, std::sqrt(200.0) / 270.0, 1e-12);  // sample stddev 14.14
  ASSERT_TRUE(x.throttle_per_kloop);
  EXPECT_NEAR(*x.throttle_per_kloop, 1000.0 * 27 / 2700, 1e-12);
  const auto& y = t.cells[3];
  EXPECT_EQ(y.done, 1u);
  EXPECT_EQ(y.failed, 1u);
  EXPECT_FALSE(y.rel_stddev);  // one score: no spread
  ASSERT_EQ(y.failures.size(), 1u);
  EXPECT_EQ(y.failures[0], "repeat 1: hello: no hello within 120 s");
  ASSERT_TRUE(y.throttle_per_kloop);
  EXPECT_DOUBLE_EQ(*y.throttle_per_kloop, 0.0);
  EXPECT_FALSE(t.cells[0].throttle_per_kloop);  // ext4: no tracepoint reported
}

TEST(RenderText, LkpStyleColumnsWithChangeAgainstTheFirstKernel) {
  std::ostringstream out;
  results::render_text(results::summarize(run_info(), sample_boots()), out);
  const std::string s = out.str();
  // The columns of `rlab compare --kernels`: the statistic is named in the head.
  EXPECT_NE(s.find("  median %stddev     %change  median %stddev         p  verdict"), std::string::npos) << s;
  // xfs row: 270.00 ± 5% base (2 boots), 300.00 (1 boot) with +11.1%, unknown.
  EXPECT_NE(s.find("    270.00 ±  5%      +11.1%    300.00          0.6667  unknown    "
                   "xfs(defaults).2vcpu.shell1.score_lpm  (boots 2 | 1)"),
            std::string::npos)
      << s;
  // ext4 row: -10.0% change, unknown; no throttle line for ext4.
  EXPECT_NE(s.find("-10.0%    243.00          1.0000  unknown    ext4(defaults).2vcpu.shell1.score_lpm"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("ext4(defaults).2vcpu.shell1.inodegc_throttle_per_1k_loops"), std::string::npos);
  // A counter's row shows both values and their change, but no p or verdict: it has none.
  EXPECT_NE(s.find("     10.00           -100.0%      0.00                             "
                   "xfs(defaults).2vcpu.shell1.inodegc_throttle_per_1k_loops"),
            std::string::npos)
      << s;
  // No cell has a UnixBench index here (no workload kind): no line for it.
  EXPECT_EQ(s.find("unixbench_index"), std::string::npos) << s;
  // The legend says why nothing is judged and what a verdict needs.
  EXPECT_NE(s.find("2 verdicts are unknown: with 1 boot a side no change can be judged; a verdict needs at least 5 "
                   "boots a side"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("6.12+inline/xfs-defaults/2vcpu/shell1: 1/2 boots done, 1 failed"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("run 4  failed  /x/matrix.yaml  seed 99"), std::string::npos) << s;
}

// With the measured noise the legend says how many boots a verdict needs; with 5 boots a side
// a clear change is different, and a change within one boot's noise unknown.
TEST(RenderText, VerdictsAtFiveBootsAndTheBootsTheNoiseCallsFor) {
  std::vector<store::BootResult> boots;
  auto add = [&](const std::string& kernel, const std::string& fs, double score, unsigned repeat) {
    store::BootResult b;
    b.boot_id = static_cast<store::BootId>(boots.size() + 1);
    b.cell_id = kernel + "/" + fs + "-defaults/1vcpu/shell1";
    b.kernel = kernel;
    b.fs = fs;
    b.mkfs_label = "defaults";
    b.vcpus = 1;
    b.workload = b.workload_kind = "shell1";
    b.copies = 1;
    b.repeat = repeat;
    b.status = store::BootStatus::done;
    b.score = score;
    b.loops = 100;
    boots.push_back(b);
  };
  for (unsigned r = 0; r < 5; ++r) {
    add("a", "xfs", 200 + r, r);
    add("b", "xfs", 150 + r, r);  // -25%: different
    add("a", "ext4", 200 + 10.0 * r, r);
    add("b", "ext4", 201 + 10.0 * r, r);  // +0.5% in 8% noise: unknown, within the noise
  }
  auto t = results::summarize(run_info(), boots);
  t.noise = results::HostNoise{0.08, "rlab noise of a/xfs-defaults/1vcpu/shell1, 2026-12-01"};
  std::ostringstream out;
  results::render_text(t, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("-24.8%    152.00 ±  1%"), std::string::npos) << s;
  EXPECT_NE(s.find("different  xfs(defaults).1vcpu.shell1.score_lpm  (boots 5 | 5)"), std::string::npos) << s;
  EXPECT_NE(s.find("+0.5%    221.00 ±  7%"), std::string::npos) << s;
  EXPECT_NE(s.find("unknown    ext4(defaults).1vcpu.shell1.score_lpm  (boots 5 | 5)"), std::string::npos) << s;
  EXPECT_NE(s.find("1 verdict is unknown: measure more boots"), std::string::npos) << s;
  EXPECT_NE(s.find("at the measured noise of 8.0% a boot (rlab noise of a/xfs-defaults/1vcpu/shell1, 2026-12-01), a 5% "
                   "change needs "),
            std::string::npos)
      << s;
  const auto j = results::to_json(t);
  for (const auto& c : j["cells"])
    if (c["cell_id"] == "b/xfs-defaults/1vcpu/shell1") EXPECT_EQ(c["vs_first"]["verdict"], "different");
}

TEST(ToJson, EveryCellWithNullsForMissingFigures) {
  const auto j = results::to_json(results::summarize(run_info(), sample_boots()));
  EXPECT_EQ(j["run"]["id"], 4);
  EXPECT_EQ(j["run"]["seed"], 99);
  ASSERT_EQ(j["cells"].size(), 4u);
  const auto& ext4 = j["cells"][0];
  EXPECT_EQ(ext4["fs"], "ext4");
  EXPECT_DOUBLE_EQ(ext4["median_lpm"].get<double>(), 270.0);
  EXPECT_TRUE(ext4["rel_stddev"].is_null());
  EXPECT_TRUE(ext4["throttle_per_1k_loops"].is_null());
  const auto& xfs = j["cells"][2];
  EXPECT_EQ(xfs["scores"].size(), 2u);
  EXPECT_NEAR(xfs["rel_stddev"].get<double>(), 0.05238, 1e-5);
  EXPECT_EQ(xfs["vcpus"], 2);
  EXPECT_EQ(j["cells"][3]["failures"].size(), 1u);
}

TEST(RenderText, EmptyRunSaysSo) {
  std::ostringstream out;
  results::render_text(results::summarize(run_info(), {}), out);
  EXPECT_NE(out.str().find("no cells"), std::string::npos);
}

}  // namespace
