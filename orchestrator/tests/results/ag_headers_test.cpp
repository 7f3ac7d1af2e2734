// rlab results' AG header table: read from the stored passes of each cell, shown only for the
// cells whose passes carry AG header totals.
#include "matrix/matrix.hpp"
#include "results/results_table.hpp"
#include "store/store.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

/// AGF of AG 1 waited `wait_ns` in a pass (all by a writing task), held twice that.
std::string ag_attribution(std::uint64_t wait_ns) {
  return nlohmann::json{{"totals",
                         {{"lock.waits", 1},
                          {"lock.wait_ns", 10},
                          {"agheader.agcount", 4},
                          {"agheader.AGF.1.waits", 4},
                          {"agheader.AGF.1.contended", 1},
                          {"agheader.AGF.1.wait_ns", wait_ns},
                          {"agheader.AGF.1.holds", 8},
                          {"agheader.AGF.1.held_ns", 2 * wait_ns},
                          {"agheader.AGF.1.max_held_ns", 3000000}}},
                        {"stacks",
                         {{{"family", "agheader.wait"},
                           {"frames", {"[AGF of AG 1]", "xfs_buf_lock", "xfs_alloc_read_agf", "xfs_alloc_vextent_near_bno",
                                       "xfs_bmapi_write", "xfs_file_write_iter"}},
                           {"count", 4},
                           {"total_ns", wait_ns}}}},
                        {"unavailable", ""}}
      .dump();
}

class ResultsAgHeaders : public ::testing::Test {
 protected:
  /// Kernels a (passes with AG header totals when `with_ag`) and b (never), two boots each, one
  /// pass of 50 loops per boot.
  store::RunId fill(bool with_ag) {
    dir_ = fs::temp_directory_path() / ("rlab-results-ag-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const std::string text = R"(kernels:
  a: {source: {debian: "6.12", suite: trixie}}
  b: {extends: a, patchset: p}
axes:
  kernel: [a, b]
  vcpus: [1]
  filesystem: [{fs: xfs}]
  workload: [{type: shell1, duration_s: 10}]
  repeats: 2
)";
    auto m = matrix::parse_matrix(text, dir_ / "matrix.yaml", matrix::LoadOptions{.check_paths = false});
    st_ = store::Store::open(dir_ / "rlab.db");
    const auto run = st_->create_run({m.path.string(), text, 5, "matrix", ""});
    st_->add_cells(run, matrix::cell_rows(matrix::expand_cells(m)), m.repeats);
    int i = 0;
    for (const auto& b : st_->boots(run)) {
      st_->start_boot(b.id, "qemu:///system", "d", "c");
      store::Pass p{0, 50, 0, 10.0, 300.0, "{}", R"({"tracepoints":{}})"};
      if (with_ag && b.cell_id.rfind("a/", 0) == 0) p.attribution_json = ag_attribution(i == 0 ? 5000000 : 15000000);
      st_->record_pass(b.id, p);
      st_->record_result(b.id, {300.0 + i, 0, "[]"}, {});
      ++i;
    }
    st_->finish_run(run, store::RunStatus::done);
    return run;
  }
  void TearDown() override {
    st_.reset();
    fs::remove_all(dir_);
  }
  fs::path dir_;
  std::unique_ptr<store::Store> st_;
};

}  // namespace

TEST_F(ResultsAgHeaders, TheCellWithAgHeaderTotalsGetsItsTablePerThousandLoops) {
  const auto t = results::load_table(*st_, fill(true));
  ASSERT_EQ(t.cells.size(), 2u);
  const auto& a = t.cells[0].kernel == "a" ? t.cells[0] : t.cells[1];
  const auto& b = t.cells[0].kernel == "a" ? t.cells[1] : t.cells[0];
  ASSERT_TRUE(a.ag_headers.has_value());
  EXPECT_FALSE(b.ag_headers.has_value());
  ASSERT_EQ(a.ag_headers->rows.size(), 1u);
  const auto& r = a.ag_headers->rows[0];
  // 5 and 15 ms a pass of 50 loops: 100 and 300 ms per 1,000 loops, median 200.
  EXPECT_DOUBLE_EQ(r.waited_ms_per_kloop, (1000.0 * 5 / 50 + 1000.0 * 15 / 50) / 2);
  EXPECT_DOUBLE_EQ(r.held_ms_per_kloop, 2 * r.waited_ms_per_kloop);
  EXPECT_DOUBLE_EQ(r.wait_share.at("writes"), 1.0);
  std::ostringstream out;
  results::render_text(t, out);
  EXPECT_NE(out.str().find("a/xfs-defaults/1vcpu/shell1:\n  XFS AG headers, per 1,000 loops (median over 2 boots; 4 AGs):\n"
                           "    AGF of AG 1: 200 ms waited per 1,000 loops (100% by writes, 25% contended), held 400 ms per "
                           "1,000 loops, longest 3.00 ms"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("b/xfs-defaults/1vcpu/shell1:"), std::string::npos) << out.str();
  const auto j = results::to_json(t);
  std::size_t with_table = 0;
  for (const auto& c : j["cells"]) with_table += c.contains("ag_headers");
  EXPECT_EQ(with_table, 1u);
}

TEST_F(ResultsAgHeaders, WithoutAgHeaderTotalsTheOutputIsThePlainTable) {
  const auto t = results::load_table(*st_, fill(false));
  for (const auto& c : t.cells) EXPECT_FALSE(c.ag_headers.has_value());
  std::ostringstream loaded, plain;
  results::render_text(t, loaded);
  results::render_text(results::summarize(t.run, st_->boot_results(t.run.id)), plain);
  EXPECT_EQ(loaded.str().find("AG header"), std::string::npos) << loaded.str();
  for (const auto& c : results::to_json(t)["cells"]) EXPECT_FALSE(c.contains("ag_headers"));
  // The same table as before AG headers were read, but for the noise legend load_table adds.
  EXPECT_EQ(loaded.str().substr(0, loaded.str().find("\nverdict of")), plain.str().substr(0, plain.str().find("\nverdict of")));
}
