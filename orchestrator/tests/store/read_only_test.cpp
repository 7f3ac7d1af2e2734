// The store's read-only mode, its state enums, the environment by field name and the
// migration of bisect steps stored before each step booted both ends.
#include "store/bisect_sessions.hpp"
#include "store/readers.hpp"
#include "store/store.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <set>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

class ReadOnlyStore : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rlab-store-ro-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::string sql(const fs::path& db, const std::string& q) const {
    auto r = util::run({"sqlite3", db.string(), q});
    EXPECT_TRUE(r.ok()) << r.output;
    return r.output;
  }

  fs::path dir_;
};

TEST_F(ReadOnlyStore, MissingDirectoryAndForeignFilesAreRefusedAndNothingIsCreated) {
  try {
    store::Store::open_read_only(dir_ / "none.db");
    FAIL();
  } catch (const store::NotAStoreError&) {
    FAIL() << "a missing store is not a foreign file";
  } catch (const store::StoreError& e) {
    EXPECT_EQ(std::string(e.what()), (dir_ / "none.db").string() + ": no results store");
  }
  EXPECT_FALSE(fs::exists(dir_ / "none.db"));
  EXPECT_THROW(store::Store::open_read_only(dir_), store::NotAStoreError);

  const fs::path text = dir_ / "notes.db";
  { std::ofstream(text) << "not sqlite at all, just some text that is long enough\n"; }
  const fs::path foreign = dir_ / "places.sqlite";
  sql(foreign, "CREATE TABLE bookmarks(url TEXT); INSERT INTO bookmarks VALUES('x');");
  for (const auto& f : {text, foreign}) {
    const std::string before = slurp(f);
    try {
      store::Store::open_read_only(f);
      FAIL() << f;
    } catch (const store::NotAStoreError& e) {
      EXPECT_NE(std::string(e.what()).find(f.string() + ": not an rlab results store"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("left unchanged"), std::string::npos) << e.what();
    }
    EXPECT_EQ(slurp(f), before);
  }
}

TEST_F(ReadOnlyStore, ReadsAnOldStoreWithoutMigratingAndRefusesWrites) {
  const fs::path db = dir_ / "rlab.db";
  { auto st = store::Store::open(db); st->create_run({"m.yaml", "text", 1, "matrix", "old"}); }
  sql(db, "ALTER TABLE boots DROP COLUMN boot_s; DROP TABLE bisect_steps; PRAGMA user_version = 1;");
  const std::string before = slurp(db);
  {
    auto st = store::Store::open_read_only(db);
    ASSERT_EQ(st->runs().size(), 1u);
    EXPECT_EQ(st->runs()[0].note, "old");
    EXPECT_EQ(st->runs()[0].status, store::RunStatus::running);
    EXPECT_TRUE(store::scored_boots(*st, 1).empty());
    EXPECT_THROW(st->create_run({"m.yaml", "text", 2, "matrix", ""}), store::StoreError);
    EXPECT_THROW(st->finish_run(1, store::RunStatus::done), store::StoreError);
  }
  EXPECT_EQ(slurp(db), before) << "reading changed the file";
  EXPECT_EQ(sql(db, "PRAGMA user_version"), "1\n");
  EXPECT_EQ(sql(db, "SELECT count(*) FROM sqlite_master WHERE name = 'bisect_steps'"), "0\n");
}

TEST_F(ReadOnlyStore, BisectStepsOfAnOlderStoreGainTheEndsColumns) {
  const fs::path db = dir_ / "rlab.db";
  { auto st = store::Store::open(db); }
  // The steps table as sessions first created it, with one answered step.
  sql(db, "DROP TABLE bisect_steps; CREATE TABLE bisect_steps (session_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
          " commit_sha TEXT NOT NULL, result TEXT NOT NULL CHECK (result IN ('good', 'bad', 'skip')),"
          " samples INTEGER NOT NULL, median REAL NOT NULL, change_vs_good REAL NOT NULL,"
          " p_vs_good REAL NOT NULL, p_vs_bad REAL NOT NULL, reason TEXT NOT NULL, answered_at TEXT NOT NULL,"
          " PRIMARY KEY (session_id, commit_sha));"
          "INSERT INTO bisect_steps VALUES (1, 1, 'abc', 'bad', 3, 90, -0.1, 0.001, 0.5, 'like bad', 'then');");
  auto st = store::Store::open(db);
  const auto steps = store::bisect_steps(*st, 1);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].commit, "abc");
  EXPECT_EQ(steps[0].median, 90);
  EXPECT_EQ(steps[0].good_median, 0);
  EXPECT_EQ(steps[0].reference_samples, 0u);
  store::BisectStepRow next;
  next.commit = "def";
  next.result = bisection::StepResult::good;
  next.good_median = 100;
  next.reference_samples = 4;
  EXPECT_EQ(store::record_bisect_step(*st, 1, next), 2);
  EXPECT_EQ(store::bisect_step(*st, 1, "def")->reference_samples, 4u);
  next.reason = "again";
  EXPECT_EQ(store::record_bisect_step(*st, 1, next), 2) << "the same commit keeps its seq";
}

TEST(StoreStates, EveryStateHasItsStoredTextAndBack) {
  for (auto s : {store::BootStatus::pending, store::BootStatus::running, store::BootStatus::done,
                 store::BootStatus::failed})
    EXPECT_EQ(store::parse_boot_status(store::to_string(s)), s);
  for (auto s : {store::RunStatus::running, store::RunStatus::done, store::RunStatus::failed,
                 store::RunStatus::interrupted})
    EXPECT_EQ(store::parse_run_status(store::to_string(s)), s);
  using P = store::FailurePhase;
  std::set<std::string> texts;
  for (auto p : {P::build, P::boot, P::hello, P::hello_timeout, P::page_size, P::prepare, P::run,
                 P::timeout, P::shutdown, P::host, P::interrupted}) {
    EXPECT_EQ(store::parse_failure_phase(store::to_string(p)), p);
    texts.insert(std::string(store::to_string(p)));
  }
  EXPECT_EQ(texts, (std::set<std::string>{"build", "boot", "hello", "hello-timeout", "page-size", "prepare",
                                          "run", "timeout", "shutdown", "host", "interrupted"}));
  EXPECT_EQ(store::to_string(store::BootStatus::done), "done");
  EXPECT_EQ(store::to_string(store::RunStatus::interrupted), "interrupted");
  EXPECT_THROW(store::parse_boot_status("finished"), store::StoreError);
  EXPECT_THROW(store::parse_run_status(""), store::StoreError);
  EXPECT_THROW(store::parse_failure_phase("page_size"), store::StoreError);
}

TEST(StoreEnvironment, EveryFieldHasItsNameAndTheStoresText) {
  store::Environment e;
  e.host = "qemu:///system";
  e.memory_mib = 1024;
  e.duration_s = 20;
  e.drop_caches = true;
  e.attribution = "counts";
  std::set<std::string> names;
  for (const auto name : store::kEnvFields) {
    EXPECT_NO_THROW(store::env_field(e, name)) << name;
    names.insert(std::string(name));
  }
  EXPECT_EQ(names.size(), store::kEnvFields.size());
  EXPECT_EQ(store::env_field(e, "host"), "qemu:///system");
  EXPECT_EQ(store::env_field(e, "memory_mib"), "1024");
  EXPECT_EQ(store::env_field(e, "duration_s"), "20.0") << "as SQLite writes a REAL";
  e.duration_s = 2.5;
  EXPECT_EQ(store::env_field(e, "duration_s"), "2.5");
  e.duration_s = 1e-5;
  EXPECT_EQ(store::env_field(e, "duration_s"), "1.0e-05");
  EXPECT_EQ(store::env_field(e, "drop_caches"), "1");
  EXPECT_EQ(store::env_field(e, "attribution"), "counts");
  EXPECT_THROW(store::env_field(e, "kernel"), std::out_of_range);
}

}  // namespace
