// `rlab nightly` through the real binary: reports of a stored night (--run), exit codes, and
// bad input refused before anything starts.
#include "../compare/scenario.hpp"
#include "checks.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using namespace rlab::testing;

class NightlyCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("RLAB_BIN");
    ASSERT_TRUE(bin && *bin) << "RLAB_BIN is set by ctest to the rlab binary";
    bin_ = bin;
    dir_ = fs::temp_directory_path() / ("rlab-nightly-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    first_ = fill_run(*st, "nightly", [](auto& c, auto& k, unsigned r) { return scenario_boot(0, c, k, r); });
    second_ = fill_run(*st, "nightly", [](auto& c, auto& k, unsigned r) { return scenario_boot(1, c, k, r); });
    matrix_ = dir_ / "matrix.yaml";
    std::ofstream(matrix_) << kMatrixText << "results: rlab.db\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Reports of the stored second night written under dir_/out_name: the one report
  /// directory there ("" when there is not exactly one), and the run's output.
  std::pair<fs::path, util::ProcessResult> report_of_second(const std::string& out_name,
                                                            std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"nightly", "--matrix", matrix_.string(), "--run", std::to_string(second_),
                                  "--out", (dir_ / out_name).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = rlab(args);
    std::vector<fs::path> dirs;
    if (fs::is_directory(dir_ / out_name))
      for (const auto& e : fs::directory_iterator(dir_ / out_name)) dirs.push_back(e.path());
    return {dirs.size() == 1 ? dirs[0] : fs::path(), r};
  }

  util::ProcessResult rlab(std::vector<std::string> args) {
    args.insert(args.begin(), bin_);
    return util::run(args);
  }

  std::string bin_;
  fs::path dir_, db_, matrix_;
  store::RunId first_ = 0, second_ = 0;
};

TEST_F(NightlyCli, ReportsOfAStoredNightAndExitOneOnRegression) {
  const auto [dir, r] = report_of_second("out");
  EXPECT_EQ(r.exit_code, 1) << r.output;  // 6.12/xfs-defaults regressed
  EXPECT_NE(r.output.find("1 regressions"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FAIL 6.12/xfs-defaults/2vcpu/shell1"), std::string::npos) << r.output;
  ASSERT_FALSE(dir.empty()) << "one report directory";
  EXPECT_NE(dir.filename().string().find("-run" + std::to_string(second_)), std::string::npos);
  const auto j = parse_junit(dir / "junit.xml");
  ASSERT_TRUE(j.parsed) << j.error;
  EXPECT_EQ(j.testcases, 4);
  EXPECT_EQ(j.failure_elements, 1);
  EXPECT_TRUE(kcidb_problems(nlohmann::json::parse(util::read_file(dir / "kcidb.json"))).empty());
  EXPECT_NE(util::read_file(dir / "summary.txt").find("% different"), std::string::npos);
}

TEST_F(NightlyCli, ControlDriftCorrectsTheStoredNightsReports) {
  const auto [dir, r] = report_of_second("out", {"--control", "6.12/xfs-agcount4"});
  EXPECT_EQ(r.exit_code, 1) << r.output;  // 6.12/xfs-defaults still regressed: the control did not move
  ASSERT_FALSE(dir.empty()) << r.output;
  const auto summary = util::read_file(dir / "summary.txt");
  EXPECT_NE(summary.find("vs previous: drift-corrected against control 6.12/xfs-agcount4/2vcpu/shell1"),
            std::string::npos) << summary;
}

TEST_F(NightlyCli, TheMatrixsControlIsUsedWithoutTheOption) {
  std::ofstream(matrix_, std::ios::app) << "control: 6.12/xfs-agcount4\n";
  const auto [dir, r] = report_of_second("out");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  ASSERT_FALSE(dir.empty()) << r.output;
  const auto summary = util::read_file(dir / "summary.txt");
  EXPECT_NE(summary.find("vs previous: drift-corrected against control 6.12/xfs-agcount4/2vcpu/shell1"),
            std::string::npos) << summary;
  // --control overrides it: the night is corrected against the cell the option names.
  const auto [dir2, r2] = report_of_second("out2", {"--control", "6.12/xfs-defaults"});
  ASSERT_FALSE(dir2.empty()) << r2.output;
  EXPECT_NE(util::read_file(dir2 / "summary.txt").find("against control 6.12/xfs-defaults/2vcpu/shell1"),
            std::string::npos) << r2.output;
}

TEST_F(NightlyCli, FirstNightExitsZeroAndReportsGoNextToTheStoreByDefault) {
  auto r = rlab({"nightly", "--matrix", matrix_.string(), "--run", std::to_string(first_)});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::is_directory(dir_ / "reports")) << r.output;
}

TEST_F(NightlyCli, BadInputIsExitTwo) {
  EXPECT_EQ(rlab({"nightly"}).exit_code, 2) << "--matrix is required";
  EXPECT_EQ(rlab({"nightly", "--matrix", (dir_ / "missing.yaml").string()}).exit_code, 2);
  auto r = rlab({"nightly", "--matrix", matrix_.string(), "--run", "99"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no run 99"), std::string::npos) << r.output;
  r = rlab({"nightly", "--matrix", matrix_.string(), "--run", std::to_string(second_), "--baseline", "77"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no baseline run 77"), std::string::npos) << r.output;
  r = rlab({"nightly", "--matrix", matrix_.string(), "--tree", (dir_ / "no-tree").string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  // A bad push URL and a bad matrix are refused before a run is created.
  const auto runs_before = store::Store::open(db_)->runs().size();
  r = rlab({"nightly", "--matrix", matrix_.string(), "--push", "ftp://x"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  // A control that names no single cell of the matrix: refused before booting.
  r = rlab({"nightly", "--matrix", matrix_.string(), "--control", "no-such-cell"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--control: no cell matches 'no-such-cell'"), std::string::npos) << r.output;
  std::ofstream(dir_ / "bad.yaml") << "axes: [\n";
  r = rlab({"nightly", "--matrix", (dir_ / "bad.yaml").string(), "--db", db_.string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:"), std::string::npos) << r.output;
  EXPECT_EQ(store::Store::open(db_)->runs().size(), runs_before) << "nothing was started";
}

}  // namespace
