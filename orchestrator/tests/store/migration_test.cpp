// Schema migration: a version-1 store (no boots.boot_s) opens, gains the column and keeps
// every row; boot seconds round-trip and a restarted boot clears them.
#include "store/store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <map>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

// Runs `sql` on `db` through its own connection; returns the first column of each row.
std::vector<std::string> sql_rows(const fs::path& db, const std::string& sql) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  std::vector<std::string> out;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(h) << ": " << sql;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    auto* t = sqlite3_column_text(st, 0);
    out.push_back(t ? reinterpret_cast<const char*>(t) : "NULL");
  }
  EXPECT_EQ(rc, SQLITE_DONE) << sqlite3_errmsg(h) << ": " << sql;
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

matrix::Cell cell(const std::string& fs, unsigned vcpus) {
  matrix::Cell c;
  c.kernel.name = "6.12";
  c.filesystem = {fs, {}, "", "defaults"};
  c.vcpus = vcpus;
  c.copies = vcpus;
  c.page_size = 65536;
  c.workload = {"shell1", "shell1", 1, std::nullopt, 1, 10.0};
  c.id = "6.12/" + fs + "/" + std::to_string(vcpus) + "vcpu/shell1";
  return c;
}

// A run with one done boot (hello, a pass, a sample, a result) and one failed boot.
store::RunId fill(store::Store& st) {
  const auto run = st.create_run({"m.yaml", "kernels: {}", 3, "matrix", ""});
  st.add_cells(run, {cell("xfs", 1), cell("ext4", 2)}, 1);
  const auto done = st.boot_id(run, "6.12/xfs/1vcpu/shell1", 0);
  st.start_boot(done, "qemu:///system", "rlab-1-a", "/tmp/c.log");
  st.record_images(done, {"kkey", "6.12", "6.12.57", "6.12.57-1", "cfg", 64, ""}, "ikey");
  st.record_hello(done, {65536, 1, "6.12.57", "0.1.0", 1000000, "[]"});
  st.record_sample(done, {0, 1.0, 3, 0, "{}"});
  st.record_pass(done, {0, 25, 0, 10.0, 150.0, "{}", "{}"});
  store::Environment env;
  env.host = "qemu:///system";
  st.record_result(done, {150.0, 0, "[]"}, env);
  const auto failed = st.boot_id(run, "6.12/ext4/2vcpu/shell1", 0);
  st.start_boot(failed, "qemu:///system", "rlab-1-b", "/tmp/c.log");
  st.record_failure(failed, "prepare", "mkfs.ext4 failed", "tail");
  st.finish_run(run, "failed");
  return run;
}

std::map<std::string, std::string> row_counts(const fs::path& db) {
  std::map<std::string, std::string> n;
  for (const char* t : {"runs", "cells", "boots", "passes", "samples", "results", "failures",
                        "kernels", "images"})
    n[t] = sql_rows(db, std::string("SELECT count(*) FROM ") + t).at(0);
  return n;
}

class StoreMigration : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-store-migration-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ / "rlab.db";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_, db_;
};

TEST_F(StoreMigration, AVersion1StoreOpensGainsBootSecondsAndKeepsEveryRow) {
  store::RunId run;
  {
    auto st = store::Store::open(db_);
    run = fill(*st);
  }
  // Make it what rlab wrote before version 2: boots without boot_s, user_version 1.
  sql_rows(db_, "ALTER TABLE boots DROP COLUMN boot_s");
  sql_rows(db_, "PRAGMA user_version = 1");
  ASSERT_TRUE(sql_rows(db_, "SELECT name FROM pragma_table_info('boots') WHERE name = 'boot_s'").empty());
  const auto counts = row_counts(db_);
  EXPECT_EQ(counts.at("boots"), "2");
  EXPECT_EQ(counts.at("failures"), "1");

  auto st = store::Store::open(db_);
  EXPECT_EQ(sql_rows(db_, "PRAGMA user_version").at(0), "2");
  EXPECT_EQ(sql_rows(db_, "SELECT name FROM pragma_table_info('boots') WHERE name = 'boot_s'").size(), 1u);
  EXPECT_EQ(row_counts(db_), counts);
  const auto rows = st->boot_results(run);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, "done");
  ASSERT_TRUE(rows[0].score);
  EXPECT_DOUBLE_EQ(*rows[0].score, 150.0);
  EXPECT_EQ(rows[1].failure, "prepare: mkfs.ext4 failed");
  EXPECT_FALSE(st->boot_seconds(rows[0].boot_id)) << "an old boot has no boot seconds";

  // The migrated store takes new boot seconds, and opening it again changes nothing.
  st->record_boot_seconds(rows[0].boot_id, 4.25);
  st.reset();
  st = store::Store::open(db_);
  ASSERT_TRUE(st->boot_seconds(rows[0].boot_id));
  EXPECT_DOUBLE_EQ(*st->boot_seconds(rows[0].boot_id), 4.25);
  EXPECT_EQ(row_counts(db_), counts);
  EXPECT_EQ(sql_rows(db_, "SELECT count(*) FROM pragma_table_info('boots') WHERE name = 'boot_s'").at(0), "1");
}

TEST_F(StoreMigration, BootSecondsRoundTripAndARestartedBootClearsThem) {
  auto st = store::Store::open(db_);
  const auto run = fill(*st);
  const auto b = st->boot_id(run, "6.12/xfs/1vcpu/shell1", 0);
  EXPECT_FALSE(st->boot_seconds(b));
  st->record_boot_seconds(b, 5.5);
  ASSERT_TRUE(st->boot_seconds(b));
  EXPECT_DOUBLE_EQ(*st->boot_seconds(b), 5.5);
  st->start_boot(b, "qemu:///system", "rlab-1-a", "/tmp/c.log");  // a resumed attempt
  EXPECT_FALSE(st->boot_seconds(b));
  EXPECT_THROW(st->record_boot_seconds(999999, 1.0), store::StoreError);
  EXPECT_THROW(st->boot_seconds(999999), store::StoreError);
}

TEST_F(StoreMigration, AStoreNewerThanThisRlabIsRefusedUnchanged) {
  { auto st = store::Store::open(db_); fill(*st); }
  sql_rows(db_, "PRAGMA user_version = 99");
  const auto counts = row_counts(db_);
  try {
    store::Store::open(db_);
    FAIL() << "opened a store of schema version 99";
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
  }
  EXPECT_EQ(row_counts(db_), counts);
  EXPECT_EQ(sql_rows(db_, "PRAGMA user_version").at(0), "99");
}

}  // namespace
