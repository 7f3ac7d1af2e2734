// `rlab nightly` on the real stack, twice: a tiny matrix (the cached 64K 6.12 kernel and
// 6.12+inline-inactivation, one short XFS cell each) booted through libvirtd under TCG (KVM on
// arm64), so the second night compares with the first and both land in the nightly history.
#include "checks.hpp"
#include "night_dir.hpp"
#include "real_lab.hpp"
#include "image/guest_images.hpp"
#include "nightly/analysis.hpp"
#include "run/run.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

std::string tiny_matrix() {
  return rlab::testing::small_matrix(
      {.duration_s = 10,
       .extra_kernels = fmt::format("  6.12+inline-inactivation:\n    extends: \"6.12\"\n"
                                    "    patches: [{}/images/patches/xfs-inline-inactivation.patch]\n",
                                    RLAB_SOURCE_DIR),
       .kernel_axis = "[\"6.12\", 6.12+inline-inactivation]",
       .hosts = {{"qemu:///system", 2, ""}}});
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(RealNightly, TwoNightsOfATinyMatrixTheSecondComparesWithTheFirst) {
  const fs::path dir = rlab::testing::night_dir("nightly-e2e");
  const fs::path agent = image::default_agent_binary();
  const fs::path matrix = dir / "matrix.yaml";
  std::ofstream(matrix) << tiny_matrix();
  const char* bin = std::getenv("RLAB_BIN");
  ASSERT_TRUE(bin && *bin);

  util::ProcessOptions po;
  po.timeout = std::chrono::seconds(3600);  // includes kernel builds when the cache is cold
  po.echo = true;
  for (int night = 1; night <= 2; ++night) {
    auto r = util::run({bin, "nightly", "--matrix", matrix.string(), "--agent", agent.string(),
                        "--out", (dir / "reports").string()},
                       po);
    ASSERT_EQ(r.exit_code, 0) << "night " << night << ":\n" << util::tail(r.output, 60);
    EXPECT_NE(r.output.find(fmt::format("nightly run {}: 2 cells, 0 regressions", night)),
              std::string::npos)
        << r.output;
  }

  auto st = store::Store::open(dir / "rlab.db");
  const auto runs = st->runs();
  ASSERT_EQ(runs.size(), 2u);
  for (const auto& r : runs) {
    EXPECT_EQ(r.kind, "nightly");
    EXPECT_EQ(r.status, rlab::store::RunStatus::done);
    EXPECT_EQ(r.matrix_path, matrix.string());
  }
  const auto second = runs[0].id, first = runs[1].id;

  const auto rep = nightly::analyse(dir / "rlab.db", second, {});
  ASSERT_TRUE(rep.previous);
  EXPECT_EQ(rep.previous->id, first);
  ASSERT_TRUE(rep.baseline);
  EXPECT_EQ(rep.baseline->id, first);
  ASSERT_EQ(rep.cells.size(), 2u);
  for (const auto& c : rep.cells) {
    EXPECT_EQ(c.status(), "PASS") << c.cell_id << ": " << c.reason();
    ASSERT_TRUE(c.median) << c.cell_id;
    EXPECT_GE(*c.median, 0);
    EXPECT_EQ(c.history.points.size(), 2u) << c.cell_id << ": both nights in the history";
    // Paired with the first night's boot of the same cell. (The verdict itself may be an
    // error row: on a loaded host a 10 s pass can finish no loop, and compare refuses a zero
    // base median.)
    ASSERT_TRUE(c.vs_previous) << c.cell_id;
    EXPECT_EQ(c.vs_previous->base_cell, c.cell_id);
    EXPECT_EQ(c.vs_previous->base_scores.size(), 1u);
    EXPECT_EQ(c.vs_previous->new_scores.size(), 1u);
    EXPECT_NE(c.vs_previous->status, compare::RowStatus::refused)
        << c.cell_id << ": same host, same matrix: " << (c.vs_previous->mismatch ? c.vs_previous->mismatch->message() : "");
    EXPECT_FALSE(c.kernel_release.empty());
  }

  const fs::path out = dir / "reports" / rep.dir_name();
  ASSERT_TRUE(fs::is_directory(out));
  const auto summary = util::read_file(out / "summary.txt");
  EXPECT_NE(summary.find(fmt::format("base: run {}   new: run {}", first, second)), std::string::npos)
      << summary;
  const auto kcidb = nlohmann::json::parse(util::read_file(out / "kcidb.json"));
  EXPECT_TRUE(rlab::testing::kcidb_problems(kcidb).empty()) << ::testing::PrintToString(rlab::testing::kcidb_problems(kcidb));
  ASSERT_EQ(kcidb["tests"].size(), 2u);
  for (const auto& t : kcidb["tests"]) {
    EXPECT_EQ(t["path"], "unixbench.shell1.xfs.vcpus1");
    EXPECT_EQ(t["status"], "PASS");
    EXPECT_TRUE(t["misc"]["median_lpm"].is_number());
  }
  const auto j = rlab::testing::parse_junit(out / "junit.xml");
  ASSERT_TRUE(j.parsed) << j.error;
  EXPECT_EQ(j.testcases, 2);
  EXPECT_EQ(j.failure_elements, 0);
  EXPECT_EQ(j.error_elements, 0);
  const auto html = util::read_file(out / "report.html");
  EXPECT_EQ(occurrences(html, "<svg "), 4u);
  EXPECT_EQ(occurrences(html, "<script"), 0u);
  EXPECT_TRUE(fs::is_directory(dir / "reports" / nightly::analyse(dir / "rlab.db", first, {}).dir_name()))
      << "the first night's reports stay";

  vm::Connection conn("qemu:///system");
  for (const auto& r : runs)
    EXPECT_TRUE(conn.active_domains(vm::domain_name(run::run_label(r.id, dir / "rlab.db"), "") + "-").empty())
        << "no domain of run " << r.id << " is left";
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

/// One deterministic cell (instruction counting: every boot counts the same loops), `repeats`
/// boots, re-measuring allowed for `remeasure` minutes.
std::string deterministic_matrix(unsigned repeats, unsigned remeasure) {
  return rlab::testing::small_matrix(
             {.workloads = {"{type: shell1, copies: vcpus, passes: 1, duration_s: 5, attribution: off}"},
              .repeats = repeats,
              .seed = 12,
              .hosts = {{"qemu:///system", 2, ""}},
              .guest = "{memory_mib: 1024, cpu: auto, accel: tcg, disk_gib: 2, clock: icount}"}) +
         "nightly:\n  remeasure_minutes: " + std::to_string(remeasure) + "\n";
}

// A night whose comparison with the previous night is unknown for want of boots (3 against
// 5; a verdict needs 5 a side) boots the cell again within its budget (as many as the
// comparison's advice, at least doubling), and reports the verdict.
TEST(RealNightly, AnUndecidedCellIsReMeasuredBeforeTheReport) {
  const fs::path dir = rlab::testing::night_dir("nightly-remeasure");
  const fs::path agent = image::default_agent_binary();
  const fs::path matrix = dir / "matrix.yaml";
  const char* bin = std::getenv("RLAB_BIN");
  ASSERT_TRUE(bin && *bin);
  util::ProcessOptions po;
  po.timeout = std::chrono::seconds(3600);
  po.echo = true;
  auto night = [&](unsigned repeats, unsigned remeasure) {
    std::ofstream(matrix) << deterministic_matrix(repeats, remeasure);
    return util::run({bin, "nightly", "--matrix", matrix.string(), "--agent", agent.string(),
                      "--out", (dir / "reports").string()},
                     po);
  };
  auto first = night(5, 0);
  ASSERT_EQ(first.exit_code, 0) << util::tail(first.output, 60);
  auto second = night(3, 10);
  ASSERT_EQ(second.exit_code, 0) << util::tail(second.output, 60);
  EXPECT_NE(second.output.find("re-measuring 1 cells: "), std::string::npos) << second.output;

  auto st = store::Store::open(dir / "rlab.db");
  const auto runs = st->runs();
  ASSERT_EQ(runs.size(), 2u);
  const auto tonight = runs[0].id;
  const std::size_t boots = st->boots(tonight).size();
  EXPECT_GE(boots, 6u) << "3 boots, then at least as many again";
  EXPECT_EQ(runs[0].status, store::RunStatus::done);
  const auto rep = nightly::analyse(dir / "rlab.db", tonight, {});
  ASSERT_EQ(rep.cells.size(), 1u);
  ASSERT_TRUE(rep.cells[0].vs_previous);
  const auto& c = *rep.cells[0].vs_previous;
  EXPECT_EQ(c.new_scores.size(), boots);
  ASSERT_TRUE(c.result);
  EXPECT_NE(c.result->verdict, stats::Verdict::unknown) << c.result->reason;
  const auto summary = util::read_file(dir / "reports" / rep.dir_name() / "summary.txt");
  EXPECT_NE(summary.find(fmt::format("re-measure round 1: {} more boots of 1 cells ({} done, 0 failed)",
                                     boots - 3, boots - 3)),
            std::string::npos)
      << summary;
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace
