// Noise reports from a store run built by hand: host facts, warm-up passes kept but not
// scored, the control-corrected spread, JSON round trip, storage and the history listing.
#include "matrix/matrix.hpp"
#include "metrics/store_collector.hpp"
#include "noise/render.hpp"
#include "store/store.hpp"

#include <prometheus/client_metric.h>
#include <prometheus/metric_family.h>

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>

namespace fs = std::filesystem;
using namespace rlab;

namespace {

constexpr const char* kRenderMatrix = R"(kernels:
  a: {source: {debian: "6.12", suite: trixie}}
axes:
  kernel: [a]
  vcpus: [1, 2]
  filesystem: [{fs: xfs}]
  workload: [{type: shell1, passes: 2, warmup_passes: 1, duration_s: 5}]
)";

matrix::LoadOptions no_paths() {
  matrix::LoadOptions o;
  o.check_paths = false;
  return o;
}

struct StoreFixture {
  fs::path dir = fs::temp_directory_path() / ("rlab-noise-report-" + std::to_string(getpid()));
  std::unique_ptr<store::Store> st;
  store::RunId run = 0;
  std::vector<matrix::Cell> cells;
  StoreFixture() {
    fs::remove_all(dir);
    st = store::Store::open(dir / "rlab.db");
    auto m = matrix::parse_matrix(kRenderMatrix, dir / "m.yaml", no_paths());
    cells = matrix::expand_cells(m);
    run = st->create_run({"m.yaml", kRenderMatrix, 1, "noise", ""});
    st->add_cells(run, matrix::cell_rows(cells), 3);
  }
  ~StoreFixture() { fs::remove_all(dir); }
  /// Boot `repeat` of cell `ci`: warm-up pass at 80% of `score`, counted passes at score +- 2.
  void boot(std::size_t ci, unsigned repeat, double score, double busy) {
    auto id = st->boot_id(run, cells[ci].id, repeat);
    st->start_boot(id, "qemu:///system", "d", "/c");
    store::Pass p;
    p.index = 0, p.lpm = 0.8 * score, p.duration_s = 5;
    st->record_pass(id, p);
    p.index = 1, p.lpm = score - 2;
    st->record_pass(id, p);
    p.index = 2, p.lpm = score + 2;
    st->record_pass(id, p);
    store::BootHost h;
    h.cpus = 2, h.busy_fraction = busy, h.load1_before = 1 + busy, h.load1_after = 1, h.seconds = 30;
    h.vcpu_pins = "[\"0\",\"1\"]";
    h.emulator_pin = "0,1";
    st->record_boot_host(id, h);
    store::Result r;
    r.score = score;
    st->record_result(id, r, store::Environment{});
  }
};

}  // namespace

TEST(NoiseStore, BootTimingsCarryWarmupPassesAndHostFacts) {
  StoreFixture f;
  f.boot(0, 0, 100, 0.5);
  auto t = f.st->boot_timings(f.run);
  ASSERT_EQ(t.size(), 6u);
  const auto& b = *std::find_if(t.begin(), t.end(), [](auto& x) { return x.status == rlab::store::BootStatus::done; });
  EXPECT_EQ(b.warmup_passes, 1u);
  EXPECT_EQ(b.pass_lpm, (std::vector<double>{80, 98, 102}));
  ASSERT_TRUE(b.host);
  EXPECT_DOUBLE_EQ(b.host->busy_fraction, 0.5);
  EXPECT_EQ(b.host->vcpu_pins, "[\"0\",\"1\"]");
  EXPECT_EQ(b.host->emulator_pin, "0,1");
  ASSERT_TRUE(b.started_unix_s);
  EXPECT_NEAR(*b.started_unix_s, static_cast<double>(::time(nullptr)), 60);
  EXPECT_EQ(*b.score, 100);
  for (const auto& x : t) {
    if (x.status == rlab::store::BootStatus::pending) {
      EXPECT_FALSE(x.score);
    }
  }
}

TEST(CellNoise, CellWithControlFromTheStore) {
  StoreFixture f;
  const double cell[] = {100, 110, 90}, control[] = {200, 220, 180};
  for (unsigned r = 0; r < 3; ++r) {
    f.boot(0, r, cell[r], 0.4 + 0.1 * r);
    f.boot(1, r, control[r], 0.4 + 0.1 * r);
  }
  auto rep = noise::noise_from_run(*f.st, f.run, f.cells[0].id, f.cells[1].id);
  EXPECT_EQ(rep.cell.boots, 3u);
  EXPECT_EQ(rep.warmup_passes, 1u);
  EXPECT_NEAR(*rep.cell.boot_rel_stddev, 0.1, 1e-12);
  EXPECT_NEAR(*rep.cell.warmup_offset, -0.2, 1e-12);
  EXPECT_NEAR(*rep.cell.pass_rel_stddev, std::sqrt(8.0) / 100, 1e-12);  // pass sd sqrt(8), mean lpm 100
  ASSERT_TRUE(rep.control);
  EXPECT_NEAR(rep.control->mean, 200, 1e-12);
  // The control moved with the cell in every repeat: the ratio is constant.
  EXPECT_NEAR(*rep.control_corrected_rel_stddev, 0, 1e-12);
  EXPECT_EQ(rep.timeline.size(), 6u);

  auto back = noise::from_json(noise::to_json(rep));
  EXPECT_EQ(back.cell_id, rep.cell_id);
  EXPECT_EQ(back.control_id, rep.control_id);
  EXPECT_EQ(*back.cell.boot_rel_stddev, *rep.cell.boot_rel_stddev);
  EXPECT_EQ(back.cell.drift.has_value(), rep.cell.drift.has_value());
  EXPECT_EQ(back.timeline.size(), 6u);
  EXPECT_EQ(noise::to_json(back), noise::to_json(rep));

  const std::string text = noise::render_text(rep);
  EXPECT_NE(text.find("boot-to-boot relative stddev   10.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("warm-up pass vs counted passes -20.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("8 + 8 boots"), std::string::npos) << text;
}

TEST(CellNoise, PerPassVcpuShareFromTheSamples) {
  StoreFixture f;
  // Boot r: samples of pass p got a vCPU share of 0.5 + 0.1 r + 0.05 p (the first sample of
  // each pass has none, as the meter stores it); the counted passes score 100 +- 2.
  for (unsigned r = 0; r < 3; ++r) {
    f.boot(0, r, 100 + 10.0 * r, 0.5);
    const auto id = f.st->boot_id(f.run, f.cells[0].id, r);
    for (unsigned p = 0; p < 3; ++p)
      for (int k = 0; k < 3; ++k) {
        store::Sample s{p, 1.0 + k, 10, 0, "{}"};
        if (k > 0) s.host_s = 1.0, s.vcpu_share = 0.5 + 0.1 * r + 0.05 * p;
        f.st->record_sample(id, s);
      }
  }
  auto rep = noise::noise_from_run(*f.st, f.run, f.cells[0].id, f.cells[0].id);
  // Counted passes 1 and 2: shares 0.55/0.60, 0.65/0.70, 0.75/0.80.
  ASSERT_TRUE(rep.cell.mean_vcpu_share);
  EXPECT_NEAR(*rep.cell.mean_vcpu_share, 0.675, 1e-12);
  ASSERT_TRUE(rep.cell.vcpu_share_correlation);
  EXPECT_GT(*rep.cell.vcpu_share_correlation, 0.9) << "lpm rose with the share, pass by pass and boot by boot";
  ASSERT_TRUE(rep.cell.normalised_boot_rel_stddev);
  ASSERT_EQ(rep.timeline.size(), 3u);
  const auto& passes = rep.timeline[0].passes;
  ASSERT_EQ(passes.size(), 3u);
  EXPECT_DOUBLE_EQ(passes[0].lpm, 0.8 * rep.timeline[0].score.value_or(0));
  ASSERT_TRUE(passes[2].vcpu_share);
  EXPECT_NEAR(*passes[2].vcpu_share, 0.5 + 0.1 * rep.timeline[0].repeat + 0.1, 1e-12);

  auto back = noise::from_json(noise::to_json(rep));
  EXPECT_EQ(noise::to_json(back), noise::to_json(rep));
  ASSERT_TRUE(back.cell.vcpu_share_correlation);
  const auto row = noise::to_row(rep);
  ASSERT_TRUE(row.vcpu_share_mean && row.vcpu_share_correlation);
  const auto id = f.st->add_noise_report(row);
  const auto stored = f.st->noise_reports("");
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].id, id);
  EXPECT_NEAR(stored[0].vcpu_share_mean.value_or(0), 0.675, 1e-12);
  metrics::StoreCollector col(f.dir / "rlab.db");
  std::map<std::string, std::vector<prometheus::ClientMetric>> fams;
  for (const auto& fam : col.Collect()) fams[fam.name] = fam.metric;
  ASSERT_EQ(fams["rlab_cell_noise_vcpu_share"].size(), 1u);
  EXPECT_NEAR(fams["rlab_cell_noise_vcpu_share"][0].gauge.value, 0.675, 1e-12);
  ASSERT_EQ(fams["rlab_cell_noise_vcpu_share_correlation"].size(), 1u);
  EXPECT_GT(fams["rlab_cell_noise_vcpu_share_correlation"][0].gauge.value, 0.9);

  const std::string text = noise::render_text(rep);
  EXPECT_NE(text.find("vCPU share (CPU the host gave) mean 67.5%"), std::string::npos) << text;
  EXPECT_NE(text.find("pass lpm vs vCPU share         r = +"), std::string::npos) << text;
  EXPECT_NE(text.find("diagnostic: boot-to-boot relative stddev of score / vCPU share"), std::string::npos) << text;
  EXPECT_NE(text.find("@60%"), std::string::npos) << text;

  // A report stored before the vCPU share (no such keys) still reads.
  auto old = noise::to_json(rep);
  for (const char* k : {"mean_vcpu_share", "vcpu_share_correlation", "vcpu_share_correlation_p", "normalised_boot_rel_stddev"})
    old["figures"].erase(k);
  for (auto& b : old["timeline"]) b.erase("passes");
  auto parsed = noise::from_json(old);
  EXPECT_FALSE(parsed.cell.mean_vcpu_share);
  EXPECT_TRUE(parsed.timeline[0].passes.empty());
}

TEST(CellNoise, StoredAndListedNewestFirstByCell) {
  StoreFixture f;
  for (unsigned r = 0; r < 3; ++r) f.boot(0, r, 100 + 5.0 * r, 0.5);
  auto rep = noise::noise_from_run(*f.st, f.run, f.cells[0].id, f.cells[0].id);
  EXPECT_FALSE(rep.control);
  auto id1 = f.st->add_noise_report(noise::to_row(rep));
  auto id2 = f.st->add_noise_report(noise::to_row(rep));
  EXPECT_GT(id2, id1);
  auto rows = f.st->noise_reports("*1vcpu*");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].id, id2);
  EXPECT_EQ(rows[0].boots, 3u);
  EXPECT_NEAR(*rows[0].boot_rel_stddev, 5.0 / 105, 1e-12);  // 100, 105, 110
  EXPECT_TRUE(rows[0].mde_8);
  EXPECT_FALSE(rows[0].created_at.empty());
  EXPECT_TRUE(f.st->noise_reports("*2vcpu*").empty());
  EXPECT_EQ(noise::from_json(nlohmann::json::parse(rows[0].report_json)).cell_id, f.cells[0].id);
  EXPECT_NE(noise::render_history(rows).find(f.cells[0].id), std::string::npos);
}

TEST(CellNoise, UnknownCellIsAnError) {
  StoreFixture f;
  EXPECT_THROW(noise::noise_from_run(*f.st, f.run, "no/such/cell", "no/such/cell"), rlab::UsageError);
}

TEST(NoiseMetrics, NewestReportOfEachCellIsExportedWithBoundedLabels) {
  StoreFixture f;
  for (unsigned r = 0; r < 3; ++r) f.boot(0, r, 100 + 5.0 * r, 0.3 + 0.2 * r);
  auto rep = noise::noise_from_run(*f.st, f.run, f.cells[0].id, f.cells[0].id);
  auto older = noise::to_row(rep);
  older.boot_rel_stddev = 0.5;  // superseded by the next report
  older.created_at = "2020-01-01T00:00:00.000Z";
  f.st->add_noise_report(older);
  f.st->add_noise_report(noise::to_row(rep));
  metrics::StoreCollector col(f.dir / "rlab.db");
  std::map<std::string, std::vector<prometheus::ClientMetric>> fams;
  for (const auto& fam : col.Collect()) fams[fam.name] = fam.metric;
  ASSERT_EQ(fams["rlab_cell_noise_rel_stddev"].size(), 2u);  // boots and passes
  bool boots_seen = false;
  for (const auto& m : fams["rlab_cell_noise_rel_stddev"]) {
    std::map<std::string, std::string> l;
    for (const auto& x : m.label) l[x.name] = x.value;
    EXPECT_EQ(l["kernel"], "a");
    EXPECT_EQ(l["vcpus"], "1");
    EXPECT_EQ(l["workload"], "shell1");
    EXPECT_EQ(l.count("cell"), 0u) << "no free-form labels";
    if (l["between"] == "boots") {
      boots_seen = true;
      EXPECT_NEAR(m.gauge.value, 5.0 / 105, 1e-12);
    }
  }
  EXPECT_TRUE(boots_seen);
  EXPECT_EQ(fams["rlab_cell_noise_min_detectable_effect"].size(), 3u);
  EXPECT_LE(fams["rlab_cell_noise_drift_per_hour"].size(), 1u);  // boots stored within a millisecond have no slope
  EXPECT_EQ(fams["rlab_cell_noise_load_correlation"].size(), 1u);
  EXPECT_NEAR(fams["rlab_cell_noise_load_correlation"][0].gauge.value, 1, 1e-9);
  EXPECT_TRUE(fams["rlab_cell_noise_vcpu_share"].empty()) << "no sample carried a vCPU share: no series";
  ASSERT_EQ(fams["rlab_store_up"].size(), 1u);
  EXPECT_EQ(fams["rlab_store_up"][0].gauge.value, 1);
}
