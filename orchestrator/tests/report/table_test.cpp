// The results table: aggregation over repeats, throttle rate, LKP-style text, JSON.
#include "report/results_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace {

using namespace rlab;

store::BootResult boot(const std::string& kernel, const std::string& fs, unsigned vcpus,
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
      boot("6.12", "xfs", 2, 0, 260.0, 1300, 13),
      boot("6.12", "xfs", 2, 1, 280.0, 1400, 14),
      boot("6.12+inline", "xfs", 2, 0, 300.0, 1500, 0),
      boot("6.12+inline", "xfs", 2, 1, std::nullopt),
      boot("6.12", "ext4", 2, 0, 270.0, 1350),
      boot("6.12+inline", "ext4", 2, 0, 243.0, 1215),
  };
}

TEST(Summarize, MeanRelativeStddevAndThrottleRate) {
  const auto t = report::summarize(run_info(), sample_boots());
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
  ASSERT_TRUE(x.mean);
  EXPECT_DOUBLE_EQ(*x.mean, 270.0);
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
  report::render_text(report::summarize(run_info(), sample_boots()), out);
  const std::string s = out.str();
  EXPECT_NE(s.find("%stddev     %change         %stddev"), std::string::npos) << s;
  // xfs row: 270.00 ± 5% base, 300.00 with +11.1%.
  EXPECT_NE(s.find("    270.00 ±  5%      +11.1%    300.00        "
                   "xfs(defaults).2vcpu.shell1.score_lpm"),
            std::string::npos)
      << s;
  // ext4 row: -10.0% change; no throttle line for ext4.
  EXPECT_NE(s.find("-10.0%"), std::string::npos) << s;
  EXPECT_EQ(s.find("ext4(defaults).2vcpu.shell1.inodegc_throttle_per_1k_loops"), std::string::npos);
  EXPECT_NE(s.find("     10.00           -100.0%      0.00        "
                   "xfs(defaults).2vcpu.shell1.inodegc_throttle_per_1k_loops"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("6.12+inline/xfs-defaults/2vcpu/shell1: 1/2 boots done, 1 failed"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("run 4  failed  /x/matrix.yaml  seed 99"), std::string::npos) << s;
}

TEST(ToJson, EveryCellWithNullsForMissingFigures) {
  const auto j = report::to_json(report::summarize(run_info(), sample_boots()));
  EXPECT_EQ(j["run"]["id"], 4);
  EXPECT_EQ(j["run"]["seed"], 99);
  ASSERT_EQ(j["cells"].size(), 4u);
  const auto& ext4 = j["cells"][0];
  EXPECT_EQ(ext4["fs"], "ext4");
  EXPECT_DOUBLE_EQ(ext4["score_lpm"].get<double>(), 270.0);
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
  report::render_text(report::summarize(run_info(), {}), out);
  EXPECT_NE(out.str().find("no cells"), std::string::npos);
}

}  // namespace
