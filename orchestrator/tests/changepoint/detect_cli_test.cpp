// `rlab detect` end to end: the real binary over a store holding 30 nightly runs of two cells,
// one of which regresses at a known kernel commit.
#include "changepoint/detect.hpp"
#include "nightly_history.hpp"
#include "stats/random.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

using rlab::testing::commit_of;
using rlab::testing::kBadNight;
using rlab::testing::kNights;
const std::string& kXfs = rlab::testing::kHistoryXfs;
const std::string& kExt4 = rlab::testing::kHistoryExt4;

class DetectCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("RLAB_BIN");
    ASSERT_TRUE(bin && *bin) << "RLAB_BIN is set by ctest to the rlab binary";
    bin_ = bin;
    dir_ = fs::temp_directory_path() / ("rlab-detect-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    rlab::testing::fill_nightly_history(*st);
  }
  void TearDown() override { fs::remove_all(dir_); }

  util::ProcessResult rlab(std::vector<std::string> args) {
    args.insert(args.begin(), bin_);
    args.push_back("--db");
    args.push_back(db_.string());
    return util::run(args);
  }

  std::string bin_;
  fs::path dir_, db_;
};

TEST_F(DetectCli, HistoryIsOnePointPerNight) {
  const auto read_only = rlab::store::Store::open_read_only(db_);
  const rlab::store::Store& db = *read_only;
  const auto h = changepoint::load_history(db, kXfs, "nightly");
  ASSERT_EQ(h.points.size(), kNights);
  EXPECT_EQ(h.points[0].boots, 3u);
  EXPECT_EQ(h.points[kBadNight].source_commit, commit_of(kBadNight));
  EXPECT_EQ(changepoint::matching_cells(db, "nightly/xfs-*", "nightly"),
            std::vector<std::string>{kXfs});
  EXPECT_EQ(changepoint::matching_cells(db, "", "nightly").size(), 2u);
}

TEST_F(DetectCli, JsonListsTheRegressionWithMagnitudeAndP) {
  auto r = rlab({"detect", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.output;  // a regression was found
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["options"]["kind"], "nightly");
  ASSERT_EQ(j["cells"].size(), 2u);
  std::map<std::string, nlohmann::json> by;
  for (const auto& c : j["cells"]) by[c["cell_id"]] = c;
  const auto& x = by.at(kXfs);
  EXPECT_EQ(x["points"], kNights);
  ASSERT_EQ(x["change_points"].size(), 1u) << x.dump(2);
  const auto& cp = x["change_points"][0];
  EXPECT_EQ(cp["index"], kBadNight);
  EXPECT_EQ(cp["commit_before"], commit_of(kBadNight - 1));
  EXPECT_EQ(cp["commit_after"], commit_of(kBadNight));
  EXPECT_EQ(cp["regression"], true);
  EXPECT_NEAR(cp["change"].get<double>(), -0.12, 0.03);
  EXPECT_LE(cp["p"].get<double>(), 0.01);
  EXPECT_TRUE(cp["bisect"].is_null());
  EXPECT_TRUE(cp["environment_change"].is_null());
  EXPECT_EQ(by.at(kExt4)["change_points"].size(), 0u);
  EXPECT_GT(by.at(kExt4)["rejected_p"].get<double>(), 0.01);
}

TEST_F(DetectCli, SelectorAndBisectPlan) {
  auto r = rlab({"detect", "--cell", "nightly/ext4-*"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(kExt4), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(kXfs), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no change point"), std::string::npos) << r.output;

  auto b = rlab({"detect", "--cell", kXfs, "--bisect"});
  EXPECT_EQ(b.exit_code, 1) << b.output;
  EXPECT_NE(b.output.find("regression"), std::string::npos) << b.output;
  EXPECT_NE(b.output.find("would bisect (not started: give --tree"), std::string::npos) << b.output;
  EXPECT_NE(b.output.find("--good " + commit_of(kBadNight - 1) + " --bad " + commit_of(kBadNight)),
            std::string::npos) << b.output;
}

TEST_F(DetectCli, ShortHistoryAndNoMatch) {
  auto r = rlab({"detect", "--kind", "matrix"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("no cell with scored runs"), std::string::npos) << r.output;
  auto s = rlab({"detect", "--cell", kXfs, "--min-segment", "20"});
  EXPECT_EQ(s.exit_code, 0) << s.output;
  EXPECT_NE(s.output.find("too short to split"), std::string::npos) << s.output;
  auto missing = util::run({bin_, "detect", "--db", (dir_ / "none.db").string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "none.db"));
}

// A 12% change is reported under the default 2% minimum effect and left out (counted) at 20%;
// an alpha the permutations can never reach is refused as bad usage, naming what it needs.
TEST_F(DetectCli, MinimumEffectAndAnAlphaThePermutationsCannotReach) {
  auto big = rlab({"detect", "--cell", kXfs, "--min-effect", "0.2", "--json"});
  EXPECT_EQ(big.exit_code, 0) << big.output;
  const auto j = nlohmann::json::parse(big.output);
  EXPECT_EQ(j["options"]["min_effect"], 0.2);
  EXPECT_EQ(j["cells"][0]["change_points"].size(), 0u);
  EXPECT_EQ(j["cells"][0]["below_min_effect"], 1);
  auto text = rlab({"detect", "--cell", kXfs, "--min-effect", "0.2"});
  EXPECT_NE(text.output.find("1 significant change point below the minimum effect of 20% left out"), std::string::npos)
      << text.output;
  auto tiny = rlab({"detect", "--alpha", "0.001"});
  EXPECT_EQ(tiny.exit_code, 2) << tiny.output;
  EXPECT_NE(tiny.output.find("alpha 0.001 needs at least 999 permutations"), std::string::npos) << tiny.output;
  auto enough = rlab({"detect", "--cell", kXfs, "--alpha", "0.001", "--permutations", "999", "--json"});
  EXPECT_EQ(enough.exit_code, 1) << enough.output;  // the -12% change is found at alpha 0.001
}

// A step that comes with a change of environment (TCG -> KVM) is flagged as such.
TEST(DetectEnvironment, ChangeOfAccelIsNamed) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-detect-env-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  {
    auto st = store::Store::open(dir / "rlab.db");
    const char* const matrix_text = rlab::testing::kHistoryMatrix;
    auto m = matrix::parse_matrix(matrix_text, "/nonexistent/nightly.yaml", matrix::LoadOptions{.check_paths = false});
    const auto cells = matrix::expand_cells(m);
    stats::Rng rng(5);
    for (std::size_t n = 0; n < 16; ++n) {
      const auto run = st->create_run({m.path.string(), matrix_text, n, "nightly", ""});
      st->add_cells(run, matrix::cell_rows(cells), 1);
      const auto id = st->boot_id(run, kXfs, 0);
      st->start_boot(id, "qemu:///system", "d", "c");
      const double score = (n >= 8 ? 400.0 : 270.0) * (1 + 0.02 * rng.normal());
      st->record_pass(id, {0, 90, 0, 20, score, "{}", "{}"});
      store::Environment env;
      env.accel = n >= 8 ? "kvm" : "tcg";
      st->record_result(id, {score, 0, "[]"}, env);
    }
  }
  const auto read_only = rlab::store::Store::open_read_only(dir / "rlab.db");
  const rlab::store::Store& db = *read_only;
  changepoint::DetectOptions opt;
  opt.selector = kXfs;
  const auto cells = changepoint::detect(db, opt);
  ASSERT_EQ(cells.size(), 1u);
  ASSERT_EQ(cells[0].detections.size(), 1u);
  EXPECT_EQ(cells[0].detections[0].change.index, 8u);
  EXPECT_FALSE(cells[0].detections[0].regression());
  EXPECT_EQ(cells[0].detections[0].environment_change, "accel: tcg -> kvm");
  fs::remove_all(dir);
}

}  // namespace
