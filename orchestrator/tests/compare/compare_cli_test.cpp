// `rlab compare` end to end: the real binary reading a store filled through the Store API.
#include "scenario.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
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

/// CSV records (RFC 4180, no quoted line breaks in these) split into fields.
std::vector<std::vector<std::string>> csv_records(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t at = 0, end; (end = text.find("\r\n", at)) != std::string::npos; at = end + 2) {
    std::vector<std::string> f(1);
    bool quoted = false;
    for (char c : text.substr(at, end - at)) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) f.emplace_back();
      else f.back() += c;
    }
    rows.push_back(f);
  }
  return rows;
}

/// The fixture's matrix with a third kernel, one row (xfs defaults) of quiet boots (0.3%):
/// 6.12 (base) 270 lpm, the inline patch 240 (-11%, different), 6.12+rebuilt 270.5 (same).
class CompareCliThreeKernels : public CompareCli {
 protected:
  void SetUp() override {
    CompareCli::SetUp();
    std::string text = kMatrixText;
    text.replace(text.find("axes:"), 0, "  6.12+rebuilt: {extends: \"6.12\", patchset: inline-inactivation}\n");
    const std::string two = "kernel: [\"6.12\", 6.12+inline-inactivation]";
    text.replace(text.find(two), two.size(), "kernel: [\"6.12\", 6.12+inline-inactivation, 6.12+rebuilt]");
    auto st = store::Store::open(db_);
    three_ = fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) {
      BootSpec b;
      if (c.find("agcount4") != std::string::npos) return b;  // left pending: one row
      const std::map<std::string, std::pair<double, unsigned>> median_shift = {
          {"6.12", {270.0, 2}}, {"6.12+inline-inactivation", {240.0, 4}}, {"6.12+rebuilt", {270.5, 6}}};
      const auto [median, shift] = median_shift.at(k);
      b.score = median * (1 + 0.003 * z(r, shift));
      b.env = tcg_env("[]", false);
      b.env.kernel_release = "6.12.57+" + k;  // the axis under comparison may differ
      return b;
    }, text);
  }
  store::RunId three_ = 0;
};

TEST_F(CompareCliThreeKernels, EachKernelAgainstTheFirstInItsOwnColumnGroup) {
  const std::vector<std::string> kernels = {"--kernels", "6.12", "6.12+inline-inactivation", "6.12+rebuilt"};
  auto args = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = {"compare", std::to_string(three_)};
    a.insert(a.end(), kernels.begin(), kernels.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  auto text = rlab(args({}));
  EXPECT_EQ(text.exit_code, 1) << text.output;  // the inline kernel regressed
  EXPECT_NE(text.output.find("others: kernel 6.12+inline-inactivation, kernel 6.12+rebuilt"), std::string::npos)
      << text.output;
  const auto row = text.output.substr(text.output.find("-11.1%") - 40, 200);
  const auto diff = row.find("different"), same = row.find("same");
  ASSERT_NE(diff, std::string::npos) << row;
  ASSERT_NE(same, std::string::npos) << row;
  EXPECT_LT(diff, same) << "the inline kernel's group comes first: " << row;
  EXPECT_NE(text.output.find("kernel 6.12+rebuilt: 0 different (0 regressions), 1 same"), std::string::npos)
      << text.output;

  auto js = rlab(args({"--json"}));
  const auto j = nlohmann::json::parse(js.output);
  ASSERT_EQ(j["others"].size(), 2u);
  EXPECT_EQ(j["others"][1]["kernel"], "6.12+rebuilt");
  ASSERT_EQ(j["comparisons"].size(), 2u);
  EXPECT_EQ(j["comparisons"][0]["new"]["kernel"], "6.12+inline-inactivation");
  ASSERT_EQ(j["cells"].size(), 1u);
  const auto& others = j["cells"][0]["others"];
  EXPECT_EQ(others[0]["verdict"], "different");
  EXPECT_EQ(others[0]["regression"], true);
  EXPECT_EQ(others[1]["verdict"], "same");
  EXPECT_NEAR(j["cells"][0]["base"]["median"].get<double>(), 270.0, 3.0);
  EXPECT_EQ(j["summary"]["different"], 1);
  EXPECT_EQ(j["summary"]["same"], 1);

  auto csv = csv_records(rlab(args({"--csv"})).output);
  ASSERT_EQ(csv.size(), 3u);  // header + one row x two other kernels
  const auto& h = csv[0];
  const auto col = [&](const std::string& name) { return std::find(h.begin(), h.end(), name) - h.begin(); };
  ASSERT_LT(col("base_median_lpm"), static_cast<long>(h.size()));
  EXPECT_EQ(csv[1][col("new_kernel")], "6.12+inline-inactivation");
  EXPECT_EQ(csv[1][col("verdict")], "different");
  EXPECT_NEAR(std::stod(csv[1][col("change")]), -0.111, 0.005);
  EXPECT_EQ(csv[2][col("new_kernel")], "6.12+rebuilt");
  EXPECT_EQ(csv[2][col("verdict")], "same");
  EXPECT_EQ(csv[1][col("base_median_lpm")], csv[2][col("base_median_lpm")]) << "one base for both";
}

TEST_F(CompareCli, ThreeRunsAndBadCountsOfSides) {
  auto r = rlab({"compare", std::to_string(base_), std::to_string(new_), std::to_string(base_), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["others"].size(), 2u);
  EXPECT_EQ(j["others"][0]["run"], new_);
  EXPECT_EQ(j["comparisons"][0]["summary"]["regressions"], 1);
  EXPECT_EQ(j["comparisons"][1]["summary"]["different"], 0) << "the base against itself";
  auto one_kernel = rlab({"compare", std::to_string(base_), "--kernels", "6.12"});
  EXPECT_EQ(one_kernel.exit_code, 2) << one_kernel.output;
  EXPECT_NE(one_kernel.output.find("--kernels"), std::string::npos) << one_kernel.output;
  auto two_runs_kernels = rlab({"compare", std::to_string(base_), std::to_string(new_), "--kernels", "6.12", "6.12"});
  EXPECT_EQ(two_runs_kernels.exit_code, 2) << two_runs_kernels.output;
  EXPECT_NE(two_runs_kernels.output.find("give one run id"), std::string::npos) << two_runs_kernels.output;
}

TEST_F(CompareCli, TwoWayCsvAndWhatChangedSwitch) {
  auto csv = csv_records(rlab({"compare", std::to_string(base_), std::to_string(new_), "--csv"}).output);
  ASSERT_EQ(csv.size(), 5u);  // header + 4 cells
  EXPECT_EQ(csv[0][11], "base_median_lpm");
  auto shown = rlab({"compare", std::to_string(base_), std::to_string(new_)});
  EXPECT_NE(shown.output.find("what changed"), std::string::npos) << shown.output;
  auto hidden = rlab({"compare", std::to_string(base_), std::to_string(new_), "--no-what-changed"});
  EXPECT_EQ(hidden.exit_code, 1) << hidden.output;
  EXPECT_EQ(hidden.output.find("what changed"), std::string::npos) << hidden.output;
  EXPECT_NE(hidden.output.find("-11.1%"), std::string::npos) << "the verdicts stay: " << hidden.output;
  const auto j = nlohmann::json::parse(
      rlab({"compare", std::to_string(base_), std::to_string(new_), "--json", "--no-what-changed"}).output);
  EXPECT_TRUE(j["cells"][0]["what_changed"].is_null());
  auto flames = rlab({"compare", std::to_string(base_), std::to_string(new_), "--no-what-changed", "--flame-graphs",
                      (dir_ / "fg").string()});
  EXPECT_EQ(flames.exit_code, 2) << flames.output;
  EXPECT_NE(flames.output.find("--no-what-changed"), std::string::npos) << flames.output;
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
