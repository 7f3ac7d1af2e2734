// Host steal in the noise report, from a real run's store (data/steal-run.sql: 6 boots of a
// 2-vCPU xfs cell on a cloud VM whose hypervisor's steal varied): per-pass steal as stored,
// its correlation with the passes' lpm in the report, its text, JSON and metrics.
#include "metrics/store_collector.hpp"
#include "noise/render.hpp"
#include "store/store.hpp"

#include <prometheus/client_metric.h>
#include <prometheus/metric_family.h>

#include "sql.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace rlab;

namespace {

constexpr const char* kCell = "6.12/xfs-defaults/2vcpu/default";

/// A copy of the fixture run in a temporary store, removed at the end.
struct StealStore {
  fs::path dir = fs::temp_directory_path() / ("rlab-noise-steal-" + std::to_string(getpid()));
  std::unique_ptr<store::Store> st;
  StealStore() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ifstream in(fs::path(RLAB_TEST_DATA) / "steal-run.sql");
    std::stringstream sql;
    sql << in.rdbuf();
    rlab::test::sql_exec(dir / "rlab.db", sql.str());
    st = store::Store::open(dir / "rlab.db");
  }
  ~StealStore() {
    st.reset();
    fs::remove_all(dir);
  }
};

std::map<std::string, std::vector<prometheus::ClientMetric>> collect(const fs::path& db) {
  metrics::StoreCollector col(db);
  std::map<std::string, std::vector<prometheus::ClientMetric>> fams;
  for (const auto& fam : col.Collect()) fams[fam.name] = fam.metric;
  return fams;
}

}  // namespace

TEST(HostSteal, BootTimingsCarryEachPassHostSteal) {
  StealStore f;
  const auto t = f.st->boot_timings(1);
  ASSERT_EQ(t.size(), 6u);
  for (const auto& b : t) {
    ASSERT_EQ(b.pass_host_steal.size(), b.pass_lpm.size()) << "boot " << b.boot_id;
    for (const auto& s : b.pass_host_steal) ASSERT_TRUE(s) << "every pass of this run has samples with a steal";
  }
  const auto& b3 = *std::find_if(t.begin(), t.end(), [](auto& b) { return b.boot_id == 3; });
  // The slowest pass of the run (150 lpm): its samples' steal weighted by their host seconds.
  EXPECT_NEAR(b3.pass_lpm[2], 149.957, 1e-3);
  EXPECT_NEAR(*b3.pass_host_steal[2], 0.151, 1e-3);
  EXPECT_LT(*b3.pass_host_steal[1], 0.03) << "the pass before ran with little steal";
  const auto& b6 = *std::find_if(t.begin(), t.end(), [](auto& b) { return b.boot_id == 6; });
  EXPECT_LT(*b6.pass_host_steal[1], 0.001) << "the fastest boot ran at ~0.03% steal";
}

TEST(HostSteal, ReportCorrelatesPassLpmWithSteal) {
  StealStore f;
  auto rep = noise::noise_from_run(*f.st, 1, kCell, kCell);
  EXPECT_EQ(rep.cell.boots, 6u);
  // Expected values computed outside rlab from the same rows (18 counted passes):
  // r = -0.71340, t = 4.0721 on 16 df, two-sided p = 0.000887; vCPU share r = +0.7506.
  ASSERT_TRUE(rep.cell.host_steal_correlation);
  EXPECT_NEAR(*rep.cell.host_steal_correlation, -0.71340, 1e-4);
  ASSERT_TRUE(rep.cell.host_steal_correlation_p);
  EXPECT_NEAR(*rep.cell.host_steal_correlation_p, 0.000887, 2e-5);
  ASSERT_TRUE(rep.cell.mean_host_steal);
  EXPECT_NEAR(*rep.cell.mean_host_steal, 0.024386, 1e-5);
  ASSERT_TRUE(rep.cell.vcpu_share_correlation);
  EXPECT_NEAR(*rep.cell.vcpu_share_correlation, 0.7506, 1e-3);

  const std::string text = noise::render_text(rep);
  EXPECT_NE(text.find("host steal (the neighbours')   mean 2.4% of the host's CPU time"), std::string::npos) << text;
  EXPECT_NE(text.find("pass lpm vs host steal         r = -0.71 (p = 0.001)"), std::string::npos) << text;
  EXPECT_NE(text.find("this noise is the neighbours', not the kernel's"), std::string::npos) << text;
  EXPECT_NE(text.find("150.0@76%/15.2%"), std::string::npos) << "the slow pass in the timeline\n" << text;

  // JSON keeps the figures and each pass's steal; the stored report exports them.
  const auto j = noise::to_json(rep);
  EXPECT_NEAR(j["figures"]["host_steal_correlation"].get<double>(), -0.71340, 1e-4);
  auto back = noise::from_json(j);
  EXPECT_EQ(noise::to_json(back), j);
  ASSERT_TRUE(back.timeline[2].passes[2].host_steal);
  EXPECT_NEAR(*back.timeline[2].passes[2].host_steal, 0.151, 1e-3);
  f.st->add_noise_report(noise::to_row(rep));
  auto fams = collect(f.dir / "rlab.db");
  ASSERT_EQ(fams["rlab_cell_noise_host_steal"].size(), 1u);
  EXPECT_NEAR(fams["rlab_cell_noise_host_steal"][0].gauge.value, 0.024386, 1e-5);
  ASSERT_EQ(fams["rlab_cell_noise_host_steal_correlation"].size(), 1u);
  EXPECT_NEAR(fams["rlab_cell_noise_host_steal_correlation"][0].gauge.value, -0.71340, 1e-4);
  std::map<std::string, std::string> labels;
  for (const auto& l : fams["rlab_cell_noise_host_steal"][0].label) labels[l.name] = l.value;
  EXPECT_EQ(labels["vcpus"], "2");
  EXPECT_EQ(labels["fs"], "xfs");
}

TEST(HostSteal, ReportStoredBeforeTheStealStillReadsAndExportsNoSteal) {
  StealStore f;
  auto j = noise::to_json(noise::noise_from_run(*f.st, 1, kCell, kCell));
  for (const char* k : {"mean_host_steal", "host_steal_correlation", "host_steal_correlation_p"})
    j["figures"].erase(k);
  for (auto& b : j["timeline"])
    for (auto& p : b["passes"]) p.erase("host_steal");
  const auto old = noise::from_json(j);
  EXPECT_FALSE(old.cell.mean_host_steal || old.cell.host_steal_correlation);
  EXPECT_FALSE(old.timeline[0].passes[0].host_steal);
  EXPECT_TRUE(old.cell.vcpu_share_correlation);
  EXPECT_NE(noise::render_text(old).find("host steal (the neighbours')   n/a"), std::string::npos);
  auto row = noise::to_row(old);
  row.report_json = j.dump();
  f.st->add_noise_report(row);
  auto fams = collect(f.dir / "rlab.db");
  EXPECT_TRUE(fams["rlab_cell_noise_host_steal"].empty());
  EXPECT_TRUE(fams["rlab_cell_noise_host_steal_correlation"].empty());
  EXPECT_EQ(fams["rlab_cell_noise_vcpu_share_correlation"].size(), 1u);
}
