// `rlab compare` end to end: the real binary reading a store filled through the Store API.
#include "scenario.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using namespace rlab::testing;

class CompareCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("RLAB_BIN");
    ASSERT_TRUE(bin && *bin) << "RLAB_BIN is set by ctest to the rlab binary";
    bin_ = bin;
    dir_ = fs::temp_directory_path() / ("rlab-compare-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    base_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return scenario_boot(0, c, k, r); });
    new_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return scenario_boot(1, c, k, r); });
    kvm_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) {
      auto b = scenario_boot(1, c, k, r);
      b.env.accel = "kvm";
      return b;
    });
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
  store::RunId base_ = 0, new_ = 0, kvm_ = 0;
};

TEST_F(CompareCli, JsonShape) {
  auto r = rlab({"compare", std::to_string(base_), std::to_string(new_), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.output;  // a regression was found
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["mode"], "runs");
  EXPECT_EQ(j["base"]["run"], base_);
  EXPECT_EQ(j["new"]["run"], new_);
  EXPECT_TRUE(j["base"]["kernel"].is_null());
  EXPECT_DOUBLE_EQ(j["options"]["alpha"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(j["options"]["min_effect"].get<double>(), 0.02);
  EXPECT_EQ(j["options"]["cap_boots_per_side"], 80);
  ASSERT_EQ(j["cells"].size(), 4u);
  std::map<std::string, nlohmann::json> by;
  for (const auto& c : j["cells"]) by[c["label"]] = c;
  const auto& d = by.at(kDefaults);
  EXPECT_EQ(d["status"], "compared");
  EXPECT_EQ(d["verdict"], "different");
  EXPECT_EQ(d["regression"], true);
  EXPECT_EQ(d["base"]["boots"], 10);
  EXPECT_EQ(d["base"]["scores"].size(), 10u);
  EXPECT_NEAR(d["base"]["median"].get<double>(), 270.0, 1.0);
  EXPECT_GT(d["base"]["rel_stddev"].get<double>(), 0.01);
  EXPECT_LT(d["p"].get<double>(), 0.001);
  EXPECT_LE(d["p"].get<double>(), d["p_mann_whitney"].get<double>());
  EXPECT_LE(d["p"].get<double>(), d["p_kolmogorov_smirnov"].get<double>());
  EXPECT_LT(d["ratio_interval"]["high"].get<double>(), 0.98);
  EXPECT_TRUE(d["more_boots"].is_null());
  EXPECT_TRUE(d["refused"].is_null());
  const auto& w = d["what_changed"];
  EXPECT_EQ(w["base_boots"], 10);
  EXPECT_EQ(w["fdr"], 0.05);
  nlohmann::json tp = nlohmann::json::array();
  for (const auto& r : w["rows"])
    if (r["family"] == "tracepoint") tp.push_back(r);
  ASSERT_GE(tp.size(), 3u) << w.dump(1);
  EXPECT_TRUE(tp[0]["change"].is_null()) << "rose from zero first";
  EXPECT_EQ(tp[2]["key"], "xfs:xfs_inodegc_throttle");
  EXPECT_EQ(tp[2]["unit"], "events");
  EXPECT_GT(tp[2]["new_per_kloop"].get<double>(), tp[2]["base_per_kloop"].get<double>());
  EXPECT_TRUE(tp[2]["significant"].get<bool>());
  EXPECT_EQ(by.at(kAgcount4)["verdict"], "same");
  const auto& u = by.at(kInlineDefaults);
  EXPECT_EQ(u["verdict"], "unknown");
  EXPECT_EQ(u["more_boots"]["beyond_cap"], true);  // 9% noise, a 3% change
  EXPECT_EQ(u["more_boots"]["more_base"], 0);
  EXPECT_NEAR(u["noise"].get<double>(), 0.09, 0.01);
  EXPECT_GT(u["mde"].get<double>(), 0.2);
  EXPECT_EQ(j["summary"]["different"], 1);
  EXPECT_EQ(j["summary"]["regressions"], 1);
  EXPECT_EQ(j["summary"]["same"], 1);
  EXPECT_EQ(j["summary"]["unknown"], 2);
}

TEST_F(CompareCli, TextTable) {
  auto r = rlab({"compare", std::to_string(base_), std::to_string(new_)});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("base: run " + std::to_string(base_)), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("-11.1%"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("same       " + kAgcount4), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("stays unknown until the noise is cut"), std::string::npos) << r.output;
}

TEST_F(CompareCli, NoRegressionExitsZero) {
  auto r = rlab({"compare", std::to_string(new_), std::to_string(new_), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["summary"]["regressions"], 0);
}

TEST_F(CompareCli, EnvironmentMismatchRefusedNamingTheField) {
  auto r = rlab({"compare", std::to_string(base_), std::to_string(kvm_)});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("environment field `accel` differs (base vs new): tcg vs kvm"),
            std::string::npos) << r.output;
  auto j = rlab({"compare", std::to_string(base_), std::to_string(kvm_), "--json"});
  EXPECT_EQ(j.exit_code, 2);
  const auto js = nlohmann::json::parse(j.output.substr(j.output.find('{'), j.output.rfind('}') + 1 - j.output.find('{')));
  EXPECT_EQ(js["cells"][0]["status"], "refused");
  EXPECT_EQ(js["cells"][0]["refused"]["field"], "accel");
  EXPECT_EQ(js["summary"]["refused"], 4);
}

TEST_F(CompareCli, TwoKernelsOfOneRun) {
  auto r = rlab({"compare", std::to_string(base_), "--kernels", "6.12", "6.12+inline-inactivation",
                 "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["mode"], "kernels");
  EXPECT_EQ(j["base"]["kernel"], "6.12");
  EXPECT_EQ(j["new"]["kernel"], "6.12+inline-inactivation");
  ASSERT_EQ(j["cells"].size(), 2u);
  EXPECT_EQ(j["cells"][0]["verdict"], "unknown");
  EXPECT_EQ(j["cells"][0]["more_boots"]["beyond_cap"], true);
}

TEST_F(CompareCli, BadInputIsAUsageErrorNamingIt) {
  auto missing = rlab({"compare", std::to_string(base_), "99"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("no run 99"), std::string::npos) << missing.output;
  auto kernel = rlab({"compare", std::to_string(base_), "--kernels", "6.12", "7.0"});
  EXPECT_EQ(kernel.exit_code, 2);
  EXPECT_NE(kernel.output.find("kernel `7.0`"), std::string::npos) << kernel.output;
  auto one = rlab({"compare", std::to_string(base_)});
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_NE(one.output.find("give two runs"), std::string::npos) << one.output;
}

TEST_F(CompareCli, ADbThatIsNotAStoreIsAUsageErrorAndLeftUntouched) {
  // Not SQLite at all, and another program's SQLite database: compare and detect both refuse
  // them as bad input (exit 2, like `rlab results`), naming the file, and change nothing.
  const fs::path text = dir_ / "notes.txt", other = dir_ / "other.sqlite";
  { std::ofstream(text) << "not a database\n"; }
  ASSERT_TRUE(util::run({"sqlite3", other.string(), "CREATE TABLE t(x); INSERT INTO t VALUES (1);"}).ok());
  for (const fs::path& f : {text, other}) {
    const auto before = util::read_file(f);
    const auto mtime = fs::last_write_time(f);
    for (std::vector<std::string> args : {std::vector<std::string>{"compare", "1", "2"},
                                          std::vector<std::string>{"detect"}}) {
      args.push_back("--db");
      args.push_back(f.string());
      args.insert(args.begin(), bin_);
      auto r = util::run(args);
      EXPECT_EQ(r.exit_code, 2) << args[1] << " " << f << ": " << r.output;
      EXPECT_NE(r.output.find("not an rlab results store"), std::string::npos) << r.output;
      EXPECT_NE(r.output.find(f.string()), std::string::npos) << r.output;
    }
    EXPECT_EQ(util::read_file(f), before) << f;
    EXPECT_EQ(fs::last_write_time(f), mtime) << f;
    EXPECT_FALSE(fs::exists(f.string() + "-wal")) << f;
  }
}

}  // namespace
