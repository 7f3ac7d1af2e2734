// `rlab noise` end to end on the real stack: libvirtd, 64K-page 6.12 arm64 guests under TCG,
// the static agent, the store. A cell with a warm-up pass, interleaved with a naive control
// cell, pinned; the report is printed, stored, shown again, and the boots carry host facts
// (load, pins, each pass's host steal).
#include "image/guest_images.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "rlab/protocol/score.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using rlab::testing::rlab_argv;

const std::string kMatrix = rlab::testing::small_matrix(
    {.vcpus = 2,
     .workloads = {"{type: shell1, name: naive, passes: 1, duration_s: 5}",
                   "{type: shell1, name: warm, warmup_passes: 1, passes: 2, duration_s: 5}"},
     .seed = 3,
     .hosts = {{"qemu:///system", 2, ""}},
     .guest = "{memory_mib: 1024, cpu: auto, accel: auto, disk_gib: 2, pinning: {vcpus: auto}}"});

}  // namespace

TEST(RealNoise, InterleavedWarmupCellWithControlIsReportedStoredAndShown) {
  auto lv = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(lv.ok()) << lv.output;
  // Under /var/tmp: QEMU's user must reach the run directory next to the store.
  const fs::path dir = fs::path("/var/tmp") / ("rlab-noise-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  std::ofstream(dir / "matrix.yaml") << kMatrix;
  const std::string agent = rlab::image::default_agent_binary().string();

  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);
  auto r = rlab::util::run(rlab_argv({"noise", "warm", "--control", "naive", "--boots", "2", "--json",
                                      "--matrix", (dir / "matrix.yaml").string(), "--agent", agent}),
                           o);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);
  // stdout's JSON follows the progress lines on stderr: it starts with "{" alone on a line.
  const auto at = r.output.rfind("\n{\n");
  const auto j = json::parse(r.output.substr(at == std::string::npos ? 0 : at + 1));
  EXPECT_EQ(j["cell"], "6.12/xfs-defaults/2vcpu/warm");
  EXPECT_EQ(j["control"], "6.12/xfs-defaults/2vcpu/naive");
  EXPECT_EQ(j["warmup_passes"], 1);
  EXPECT_EQ(j["figures"]["boots"], 2);
  EXPECT_EQ(j["control_figures"]["boots"], 2);
  EXPECT_TRUE(j["figures"]["boot_rel_stddev"].is_number());
  EXPECT_TRUE(j["figures"]["pass_rel_stddev"].is_number()) << "two counted passes per boot";
  EXPECT_TRUE(j["control_figures"]["pass_rel_stddev"].is_null()) << "one pass per boot";
  EXPECT_TRUE(j["figures"]["mde"]["8"].is_number());
  // The local host's steal, read with every sample: a mean in [0, 1] (0 on a host that is not
  // a guest, or whose hypervisor took nothing), and a value for every pass in the timeline.
  ASSERT_TRUE(j["figures"]["mean_host_steal"].is_number()) << j["figures"].dump();
  EXPECT_GE(j["figures"]["mean_host_steal"].get<double>(), 0);
  EXPECT_LE(j["figures"]["mean_host_steal"].get<double>(), 1);
  EXPECT_TRUE(j["figures"].contains("host_steal_correlation"));
  for (const auto& b : j["timeline"])
    for (const auto& p : b["passes"]) EXPECT_TRUE(p["host_steal"].is_number()) << b.dump();
  // Interleaved A B, B A.
  ASSERT_EQ(j["timeline"].size(), 4u);
  EXPECT_EQ(j["timeline"][0]["cell"], j["cell"]);
  EXPECT_EQ(j["timeline"][1]["cell"], j["control"]);
  EXPECT_EQ(j["timeline"][2]["cell"], j["control"]);
  EXPECT_EQ(j["timeline"][3]["cell"], j["cell"]);
  EXPECT_LT(j["timeline"][0]["t_s"].get<double>(), j["timeline"][3]["t_s"].get<double>());

  auto st = rlab::store::Store::open(dir / "rlab.db");
  auto run = st->latest_run();
  ASSERT_TRUE(run);
  EXPECT_EQ(st->run(*run)->kind, "noise");
  for (const auto& b : st->boot_timings(*run)) {
    ASSERT_TRUE(b.score) << b.cell_id << " " << rlab::store::to_string(b.status);
    ASSERT_TRUE(b.host) << "host load recorded";
    EXPECT_GT(b.host->busy_fraction, 0);
    EXPECT_EQ(json::parse(b.host->vcpu_pins).size(), 2u) << "both vCPUs pinned";
    EXPECT_FALSE(b.host->emulator_pin.empty());
    ASSERT_EQ(b.pass_host_steal.size(), b.pass_lpm.size());
    for (const auto& s : b.pass_host_steal) EXPECT_TRUE(s) << "each pass's samples carry the host's steal";
    // The default samples nothing during the window: the two edges of each pass bracket it.
    const auto samples = st->samples(b.boot_id);
    ASSERT_EQ(samples.size(), 2 * b.pass_lpm.size());
    for (std::size_t i = 0; i < samples.size(); i += 2) {
      EXPECT_EQ(samples[i].t_s, 0.0);
      EXPECT_FALSE(samples[i].host_steal) << "the window's start has no interval behind it";
      // The window's end: its 5 s, or later when the window's timer fired late in a guest whose
      // vCPU the host starved (the window is then as long as the agent measured it, and stored so).
      EXPECT_GE(samples[i + 1].t_s, 5.0) << "the window's end";
      EXPECT_LT(samples[i + 1].t_s, 7.0) << "the window's end";
      EXPECT_TRUE(samples[i + 1].host_s && *samples[i + 1].host_s > 4.0) << "it covers the whole window";
    }
    if (b.cell_id == j["cell"]) {
      ASSERT_EQ(b.pass_lpm.size(), 3u) << "the warm-up pass is stored";
      // ... and not scored: the score is UnixBench's aggregation of passes 1 and 2.
      EXPECT_NEAR(*b.score, rlab::protocol::unixbench_score({b.pass_lpm[1], b.pass_lpm[2]}), 1e-6);
    } else {
      EXPECT_EQ(b.pass_lpm.size(), 1u);
    }
  }
  auto rows = st->noise_reports("");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].run, *run);

  auto show = rlab::util::run(rlab_argv({"noise", "--show", "warm", "--json", "--db", (dir / "rlab.db").string()}));
  ASSERT_EQ(show.exit_code, 0) << show.output;
  const auto sj = json::parse(show.output.substr(show.output.find('[')));
  ASSERT_EQ(sj.size(), 1u);
  EXPECT_EQ(sj[0]["figures"], j["figures"]);
  auto text = rlab::util::run(rlab_argv({"noise", "--show", "--db", (dir / "rlab.db").string()}));
  EXPECT_NE(text.output.find("6.12/xfs-defaults/2vcpu/warm"), std::string::npos) << text.output;
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

TEST(RealNoise, BadSelectorsAndBootsAreUsageErrors) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-noise-bad-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "matrix.yaml") << kMatrix;
  const std::string m = (dir / "matrix.yaml").string();
  auto r = rlab::util::run(rlab_argv({"noise", "nosuchcell", "--matrix", m}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no cell matches 'nosuchcell'"), std::string::npos) << r.output;
  r = rlab::util::run(rlab_argv({"noise", "6.12", "--matrix", m}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("matches 2 cells"), std::string::npos) << r.output;
  r = rlab::util::run(rlab_argv({"noise", "warm", "--boots", "1", "--matrix", m}));
  EXPECT_NE(r.exit_code, 0) << r.output;
  r = rlab::util::run(rlab_argv({"noise", "--matrix", m}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_FALSE(fs::exists(dir / "rlab.db")) << "nothing stored for bad input";
  fs::remove_all(dir);
}
