// `rlab results` end to end: the real binary reading a real store.
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/process.hpp"

#include "sql.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

class ResultsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("RLAB_BIN");
    ASSERT_TRUE(bin && *bin) << "RLAB_BIN is set by ctest to the rlab binary";
    bin_ = bin;
    dir_ = fs::temp_directory_path() / ("rlab-results-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ / "rlab.db";
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
    auto m = matrix::parse_matrix(text, dir_ / "matrix.yaml");
    auto st = store::Store::open(db_);
    run_ = st->create_run({m.path.string(), text, 5, "matrix", ""});
    st->add_cells(run_, matrix::cell_rows(matrix::expand_cells(m)), m.repeats);
    const double scores[] = {140.0, 150.0, 120.0};
    int i = 0;
    for (const auto& b : st->boots(run_)) {
      st->start_boot(b.id, "qemu:///system", "d", "c");
      if (i == 3) {
        st->record_failure(b.id, rlab::store::FailurePhase::hello, "no hello", "tail");
      } else {
        st->record_pass(b.id, {0, 25, 0, 10.0, scores[i] , "{}",
                               R"({"tracepoints":{"xfs:xfs_inodegc_throttle":5}})"});
        st->record_result(b.id, {scores[i], 0, "[]"}, {});
      }
      ++i;
    }
    st->finish_run(run_, rlab::store::RunStatus::failed);
  }
  void TearDown() override { fs::remove_all(dir_); }

  util::ProcessResult rlab(std::vector<std::string> args) {
    args.insert(args.begin(), bin_);
    return util::run(args);
  }

  std::string bin_;
  fs::path dir_, db_;
  store::RunId run_ = 0;
};

TEST_F(ResultsCli, JsonOfTheLatestRun) {
  auto r = rlab({"results", "--db", db_.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["run"]["id"], run_);
  EXPECT_EQ(j["kernels"], (nlohmann::json{"a", "b"}));
  ASSERT_EQ(j["cells"].size(), 2u);
  EXPECT_EQ(j["cells"][0]["cell_id"], "a/xfs-defaults/1vcpu/shell1");
  EXPECT_DOUBLE_EQ(j["cells"][0]["median_lpm"].get<double>(), 145.0);
  EXPECT_DOUBLE_EQ(j["cells"][0]["throttle_per_1k_loops"].get<double>(), 200.0);  // 10 per 50 loops
  EXPECT_EQ(j["cells"][1]["failed"], 1);
}

TEST_F(ResultsCli, TextTableByRunId) {
  auto r = rlab({"results", std::to_string(run_), "--db", db_.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("xfs(defaults).1vcpu.shell1.score_lpm"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("-17.2%"), std::string::npos) << r.output;  // 120 vs 145
  EXPECT_NE(r.output.find("b/xfs-defaults/1vcpu/shell1: 1/2 boots done, 1 failed"), std::string::npos)
      << r.output;
}

TEST_F(ResultsCli, CsvHasOneRecordPerCellWithTheVerdictAgainstTheFirstKernel) {
  auto r = rlab({"results", std::to_string(run_), "--db", db_.string(), "--csv"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = r.output.find("\r\n", at)) != std::string::npos; at = end + 2)
    lines.push_back(r.output.substr(at, end - at));
  ASSERT_EQ(lines.size(), 3u) << r.output;  // the header, cells a and b
  EXPECT_EQ(lines[0].substr(0, lines[0].find(",median_lpm")), "run,cell,kernel,fs,mkfs,vcpus,workload,copies,boots,done,failed");
  EXPECT_NE(lines[0].find(",base_kernel,change,p,verdict"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].find(std::to_string(run_) + ",a/xfs-defaults/1vcpu/shell1,a,xfs,defaults,1,shell1,1,2,2,0,145,"), 0u)
      << lines[1];
  EXPECT_EQ(lines[1].substr(lines[1].size() - 4), ",,,,") << "the first kernel is not judged against itself";
  EXPECT_NE(lines[2].find(",1,1,120,"), std::string::npos) << "1 done, 1 failed, median 120: " << lines[2];
  EXPECT_NE(lines[2].find(",a,-0.172413"), std::string::npos) << "120 vs 145 against kernel a: " << lines[2];
  auto both = rlab({"results", "--db", db_.string(), "--csv", "--json"});
  EXPECT_EQ(both.exit_code, 2) << both.output;
  EXPECT_NE(both.output.find("excludes"), std::string::npos) << both.output;
}

TEST_F(ResultsCli, ListsRuns) {
  auto r = rlab({"results", "--db", db_.string(), "--list"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("failed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find((dir_ / "matrix.yaml").string()), std::string::npos) << r.output;
}

TEST_F(ResultsCli, UnknownRunOrStoreIsAUsageError) {
  auto r = rlab({"results", "999", "--db", db_.string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no run 999"), std::string::npos) << r.output;
  auto missing = rlab({"results", "--db", (dir_ / "none.db").string()});
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_FALSE(fs::exists(dir_ / "none.db"));  // reading never creates a store
}

// A --db that is another program's SQLite database (or not SQLite at all) is bad input: exit
// 2, the message says so, and the file is left exactly as it was (no WAL, no rlab tables).
TEST_F(ResultsCli, ForeignDatabaseIsAUsageErrorAndLeftUnchanged) {
  const fs::path foreign = dir_ / "places.sqlite";
  rlab::test::sql_exec(foreign, "CREATE TABLE bookmarks(url TEXT)");
  const fs::path text = dir_ / "notes.db";
  { std::ofstream(text) << "just text, not a database at all\n"; }
  for (const fs::path& p : {foreign, text}) {
    const auto before = fs::file_size(p);
    auto r = rlab({"results", "--list", "--db", p.string()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("not an rlab results store"), std::string::npos) << r.output;
    EXPECT_EQ(fs::file_size(p), before);
    EXPECT_FALSE(fs::exists(p.string() + "-wal"));
  }
  EXPECT_EQ(rlab::test::sql_column(foreign, "SELECT count(*) FROM sqlite_master").at(0), "1")
      << "rlab added tables to a foreign database";
}

TEST_F(ResultsCli, RunIdMustBePositive) {
  for (const char* bad : {"-1", "0", "abc"}) {
    auto r = rlab({"results", "--db", db_.string(), "--", bad});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("not in range 1 to"), std::string::npos) << bad << ": " << r.output;
  }
}

// One vocabulary: the same cell reads the same in `rlab results` and `rlab compare --kernels`:
// the median (not the mean: the scores are skewed so the two differ), the same %change, p and
// verdict word, under the same row label and metric name.
TEST(ResultsAndCompare, TheSameCellPrintsTheSameFiguresUnderTheSameLabel) {
  const char* bin = std::getenv("RLAB_BIN");
  ASSERT_TRUE(bin && *bin) << "RLAB_BIN is set by ctest to the rlab binary";
  const fs::path dir = fs::temp_directory_path() / ("rlab-one-vocabulary-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path db = dir / "rlab.db";
  const std::string text = R"(kernels:
  a: {source: {debian: "6.12", suite: trixie}}
  b: {extends: a, patchset: p}
axes:
  kernel: [a, b]
  vcpus: [1]
  filesystem: [{fs: xfs}]
  workload: [{type: shell1, duration_s: 10}]
  repeats: 5
)";
  auto m = matrix::parse_matrix(text, dir / "matrix.yaml");
  store::RunId run = 0;
  {
    auto st = store::Store::open(db);
    run = st->create_run({m.path.string(), text, 5, "matrix", ""});
    st->add_cells(run, matrix::cell_rows(matrix::expand_cells(m)), m.repeats);
    // a: median 210, mean 214; b: median 190, mean 193.
    const std::map<std::string, std::vector<double>> scores{{"a", {200, 205, 210, 216, 239}},
                                                            {"b", {180, 185, 190, 195, 215}}};
    std::map<std::string, std::size_t> next;
    for (const auto& b : st->boots(run)) {
      const std::string kernel = b.cell_id.substr(0, 1);
      const double score = scores.at(kernel).at(next[kernel]++);
      st->start_boot(b.id, "qemu:///system", "d", "c");
      st->record_pass(b.id, {0, 25, 0, 10.0, score, "{}", "{}"});
      st->record_result(b.id, {score, 0, "[]"}, {});
    }
    st->finish_run(run, rlab::store::RunStatus::done);
  }
  auto results = util::run({bin, "results", std::to_string(run), "--db", db.string()});
  auto compare = util::run({bin, "compare", std::to_string(run), "--kernels", "a", "b", "--db", db.string()});
  ASSERT_EQ(results.exit_code, 0) << results.output;
  ASSERT_EQ(compare.exit_code, 0) << compare.output;  // not different: no regression
  const std::string label = "  xfs(defaults).1vcpu.shell1.score_lpm  (";
  auto score_line = [&](const std::string& out) {
    const auto at = out.find(label);
    if (at == std::string::npos) return std::string("(no score line in)\n") + out;
    return out.substr(out.rfind('\n', at) + 1, at - out.rfind('\n', at) - 1);
  };
  EXPECT_EQ(score_line(results.output), score_line(compare.output)) << results.output << compare.output;
  EXPECT_NE(score_line(results.output).find("    210.00 ±  7%"), std::string::npos) << results.output;
  EXPECT_NE(score_line(results.output).find("    190.00 ±  7%"), std::string::npos) << results.output;
  for (const auto* out : {&results.output, &compare.output})
    EXPECT_NE(out->find("  median %stddev     %change  median %stddev         p  verdict"), std::string::npos) << *out;
  // The machine-readable forms carry the same median under the same name.
  auto json = nlohmann::json::parse(util::run({bin, "results", std::to_string(run), "--db", db.string(), "--json"}).output);
  EXPECT_DOUBLE_EQ(json["cells"][0]["median_lpm"].get<double>(), 210.0);
  auto cmp = nlohmann::json::parse(
      util::run({bin, "compare", std::to_string(run), "--kernels", "a", "b", "--db", db.string(), "--json"}).output);
  EXPECT_DOUBLE_EQ(cmp["cells"][0]["base"]["median"].get<double>(), 210.0);
  EXPECT_EQ(cmp["cells"][0]["label"], "xfs(defaults).1vcpu.shell1");
  EXPECT_EQ(cmp["cells"][0]["verdict"], json["cells"][1]["vs_first"]["verdict"]);
  fs::remove_all(dir);
}

}  // namespace
