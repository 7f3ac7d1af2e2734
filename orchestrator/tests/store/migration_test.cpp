// Schema migration: a version-1 store (no boots.boot_s) opens, gains the column and keeps
// every row; boot seconds round-trip and a restarted boot clears them.
#include "store/readers.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"

#include "store/schema.hpp"

#include "sql.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

matrix::Cell migration_cell(const std::string& fs, unsigned vcpus) {
  matrix::Cell c;
  c.kernel.name = "6.12";
  c.filesystem = {*matrix::parse_fs(fs), {}, "", "defaults"};
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
  st.add_cells(run, matrix::cell_rows({migration_cell("xfs", 1), migration_cell("ext4", 2)}), 1);
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
  st.record_failure(failed, rlab::store::FailurePhase::prepare, "mkfs.ext4 failed", "tail");
  st.finish_run(run, rlab::store::RunStatus::failed);
  return run;
}

std::map<std::string, std::string> row_counts(const fs::path& db) {
  std::map<std::string, std::string> n;
  for (const char* t : {"runs", "cells", "boots", "passes", "samples", "results", "failures",
                        "kernels", "images"})
    n[t] = rlab::test::sql_column(db, std::string("SELECT count(*) FROM ") + t).at(0);
  return n;
}

const char* const kSampleHostColumns[] = {"host_s", "host_busy", "host_steal", "host_mhz", "vcpu_share"};

// What version 2 had: samples without the host facts of version 3.
void drop_sample_host_columns(const fs::path& db) {
  for (const char* c : kSampleHostColumns) rlab::test::sql_exec(db, std::string("ALTER TABLE samples DROP COLUMN ") + c);
}

class StoreMigration : public ::testing::Test {
 protected:
  /// Drops what version 5 added (results.env_attribution, passes.window_s, attribution_json).
  void drop_version_5_columns() {
    rlab::test::sql_exec(db_, "ALTER TABLE results DROP COLUMN env_attribution");
    for (const char* c : {"window_s", "attribution_json"}) rlab::test::sql_exec(db_, std::string("ALTER TABLE passes DROP COLUMN ") + c);
  }

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
  // Make it what rlab wrote before version 2: boots without boot_s, samples without host
  // facts, user_version 1.
  rlab::test::sql_exec(db_, "ALTER TABLE boots DROP COLUMN boot_s");
  drop_sample_host_columns(db_);
  rlab::test::sql_exec(db_, "PRAGMA user_version = 1");
  ASSERT_TRUE(rlab::test::sql_column(db_, "SELECT name FROM pragma_table_info('boots') WHERE name = 'boot_s'").empty());
  const auto counts = row_counts(db_);
  EXPECT_EQ(counts.at("boots"), "2");
  EXPECT_EQ(counts.at("failures"), "1");

  auto st = store::Store::open(db_);
  EXPECT_EQ(rlab::test::sql_column(db_, "PRAGMA user_version").at(0), std::to_string(rlab::store::detail::kSchemaVersion));
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT count(*) FROM pragma_table_info('samples') WHERE name = 'vcpu_share'").at(0), "1");
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT name FROM pragma_table_info('boots') WHERE name = 'boot_s'").size(), 1u);
  EXPECT_EQ(row_counts(db_), counts);
  const auto rows = st->boot_results(run);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, rlab::store::BootStatus::done);
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
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT count(*) FROM pragma_table_info('boots') WHERE name = 'boot_s'").at(0), "1");
}

TEST_F(StoreMigration, AVersion2StoreGainsPerSampleHostFactsNullInOldSamples) {
  store::RunId run;
  {
    auto st = store::Store::open(db_);
    run = fill(*st);
  }
  drop_sample_host_columns(db_);
  rlab::test::sql_exec(db_, "PRAGMA user_version = 2");
  ASSERT_TRUE(rlab::test::sql_column(db_, "SELECT name FROM pragma_table_info('samples') WHERE name LIKE 'host%'").empty());
  const auto counts = row_counts(db_);

  auto st = store::Store::open(db_);
  EXPECT_EQ(rlab::test::sql_column(db_, "PRAGMA user_version").at(0), std::to_string(rlab::store::detail::kSchemaVersion));
  for (const char* c : kSampleHostColumns)
    EXPECT_EQ(rlab::test::sql_column(db_, std::string("SELECT count(*) FROM pragma_table_info('samples') WHERE name = '") + c + "'").at(0), "1") << c;
  EXPECT_EQ(row_counts(db_), counts);
  const auto b = st->boot_id(run, "6.12/xfs/1vcpu/shell1", 0);
  auto old = st->samples(b);
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].loops, 3u);
  EXPECT_FALSE(old[0].host_s || old[0].host_busy || old[0].host_steal || old[0].host_mhz || old[0].vcpu_share)
      << "a sample measured before version 3 has no host facts";
  // The old boot's pass has no vCPU share; its lpm is still read.
  const auto timings = st->boot_timings(run);
  ASSERT_EQ(timings.at(0).pass_lpm.size(), 1u);
  ASSERT_EQ(timings.at(0).pass_vcpu_share.size(), 1u);
  EXPECT_FALSE(timings.at(0).pass_vcpu_share[0]);

  // New samples keep their facts; a partial one (a remote host: vCPU share only) keeps NULLs.
  store::Sample full{0, 2.0, 6, 0, "{}"};
  full.host_s = 1.0;
  full.host_busy = 0.75;
  full.host_steal = 0.0;
  full.host_mhz = 2445.4;
  full.vcpu_share = 0.5;
  store::Sample remote{0, 3.0, 9, 0, "{}"};
  remote.host_s = 3.0;
  remote.vcpu_share = 0.9;
  st->record_sample(b, full);
  st->record_sample(b, remote);
  st.reset();
  st = store::Store::open(db_);
  const auto now = st->samples(b);
  ASSERT_EQ(now.size(), 3u);
  ASSERT_TRUE(now[1].host_busy && now[1].host_mhz && now[1].vcpu_share && now[1].host_steal);
  EXPECT_DOUBLE_EQ(*now[1].host_busy, 0.75);
  EXPECT_DOUBLE_EQ(*now[1].host_steal, 0.0);
  EXPECT_DOUBLE_EQ(*now[1].host_mhz, 2445.4);
  EXPECT_DOUBLE_EQ(*now[1].vcpu_share, 0.5);
  EXPECT_FALSE(now[2].host_busy || now[2].host_steal || now[2].host_mhz);
  ASSERT_TRUE(now[2].vcpu_share);
  // The pass's share weights each sample by the host seconds it covers: (0.5*1 + 0.9*3) / 4.
  const auto share = st->boot_timings(run).at(0).pass_vcpu_share.at(0);
  ASSERT_TRUE(share);
  EXPECT_NEAR(*share, 0.8, 1e-12);
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
  rlab::test::sql_exec(db_, "PRAGMA user_version = 99");
  const auto counts = row_counts(db_);
  try {
    store::Store::open(db_);
    FAIL() << "opened a store of schema version 99";
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
  }
  EXPECT_EQ(row_counts(db_), counts);
  EXPECT_EQ(rlab::test::sql_column(db_, "PRAGMA user_version").at(0), "99");
}

}  // namespace

// Version 3 -> 4: results gain how the load ran, passes where its inodes went. Rows stored
// before say what rlab did then (per-copy directories, its older generated input, caches
// dropped, its own scripts, a virtio disk); passes have no placement.
TEST_F(StoreMigration, AVersion3StoreGainsLoadEnvironmentWithWhatRlabDidThen) {
  store::RunId run;
  {
    auto st = store::Store::open(db_);
    run = fill(*st);
  }
  for (const char* c : {"env_layout", "env_input", "env_drop_caches", "env_runner", "env_disk"})
    rlab::test::sql_exec(db_, std::string("ALTER TABLE results DROP COLUMN ") + c);
  for (const char* c : {"inode_ags", "agcount", "inodes_seen"}) rlab::test::sql_exec(db_, std::string("ALTER TABLE passes DROP COLUMN ") + c);
  drop_version_5_columns();
  rlab::test::sql_exec(db_, "PRAGMA user_version = 3");
  const auto counts = row_counts(db_);

  auto st = store::Store::open(db_);
  EXPECT_EQ(rlab::test::sql_column(db_, "PRAGMA user_version").at(0), std::to_string(rlab::store::detail::kSchemaVersion));
  EXPECT_EQ(row_counts(db_), counts);
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT DISTINCT env_layout || '|' || env_drop_caches || '|' || env_runner || '|' || env_disk FROM results"),
            std::vector<std::string>{"per-copy|1|rlab|virtio"});
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT count(*) FROM passes WHERE inode_ags IS NOT NULL").at(0), "0");
  const auto rows = st->boot_results(run);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].layout, "per-copy");
  EXPECT_FALSE(rows[0].inode_ags.has_value());
}

// Version 4 -> 5: results gain what the guest collected besides the score (nothing, before),
// passes the counting window beside UnixBench's pass time and where their time went (NULL).
TEST_F(StoreMigration, AVersion4StoreGainsAttributionOffAndNoWindow) {
  store::RunId run;
  std::vector<store::BootResult> before;
  {
    auto st = store::Store::open(db_);
    run = fill(*st);
    before = st->boot_results(run);
  }
  drop_version_5_columns();
  rlab::test::sql_exec(db_, "PRAGMA user_version = 4");
  const auto counts = row_counts(db_);

  auto st = store::Store::open(db_);
  EXPECT_EQ(rlab::test::sql_column(db_, "PRAGMA user_version").at(0), std::to_string(rlab::store::detail::kSchemaVersion));
  EXPECT_EQ(row_counts(db_), counts);
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT DISTINCT env_attribution FROM results"), std::vector<std::string>{"off"});
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT count(*) FROM passes WHERE window_s IS NOT NULL OR attribution_json IS NOT NULL").at(0), "0");
  const auto after = st->boot_results(run);
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].cell_id, before[i].cell_id);
    EXPECT_EQ(after[i].score, before[i].score);
    EXPECT_EQ(after[i].loops, before[i].loops);
  }
}

// Version 6 -> 7: results gain how often the agent sampled during a pass (every boot stored
// before sampled each second), boots the guest's boot timeline (not known before).
TEST_F(StoreMigration, AVersion6StoreGainsTheOneSecondSampleItRanWith) {
  store::RunId run;
  std::vector<store::BootResult> before;
  {
    auto st = store::Store::open(db_);
    run = fill(*st);
    before = st->boot_results(run);
  }
  rlab::test::sql_exec(db_, "ALTER TABLE results DROP COLUMN env_sample_interval_s");
  for (const char* c : {"guest_init_s", "guest_agent_s", "guest_hello_s"})
    rlab::test::sql_exec(db_, std::string("ALTER TABLE boots DROP COLUMN ") + c);
  rlab::test::sql_exec(db_, "PRAGMA user_version = 6");
  const auto counts = row_counts(db_);

  auto st = store::Store::open(db_);
  EXPECT_EQ(rlab::test::sql_column(db_, "PRAGMA user_version").at(0), std::to_string(rlab::store::detail::kSchemaVersion));
  EXPECT_EQ(row_counts(db_), counts);
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT DISTINCT env_sample_interval_s FROM results"), std::vector<std::string>{"1.0"});
  const auto after = st->boot_results(run);
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) EXPECT_EQ(after[i].score, before[i].score);
  for (const auto& b : store::scored_boots(*st, run)) EXPECT_DOUBLE_EQ(b.env.sample_interval_s, 1.0);
  for (const auto& p : st->boot_phases(run)) EXPECT_FALSE(p.init_s || p.agent_s || p.hello_s) << "not known then";
}

// Version 8 -> 9: kernels gain where they came from ('' for those stored before); a kernel
// recorded again with its origin fills it in, and an origin once stored is kept.
TEST_F(StoreMigration, AVersion8StoreGainsKernelOrigins) {
  {
    auto st = store::Store::open(db_);
    fill(*st);
  }
  rlab::test::sql_exec(db_, "ALTER TABLE kernels DROP COLUMN origin");
  rlab::test::sql_exec(db_, "PRAGMA user_version = 8");
  const auto counts = row_counts(db_);
  auto st = store::Store::open(db_);
  EXPECT_EQ(rlab::test::sql_column(db_, "PRAGMA user_version").at(0), std::to_string(rlab::store::detail::kSchemaVersion));
  EXPECT_EQ(row_counts(db_), counts);
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT origin FROM kernels"), std::vector<std::string>{""});

  const auto run = st->create_run({"m.yaml", "kernels: {}", 4, "matrix", ""});
  st->add_cells(run, matrix::cell_rows({migration_cell("xfs", 1)}), 2);
  store::KernelIdentity k{"kkey", "6.12", "6.12.57", "6.12.57-1", "cfg", 64, ""};
  k.origin = "debian linux-source-6.12 6.12.57-1 (trixie)";
  const auto b0 = st->boot_id(run, "6.12/xfs/1vcpu/shell1", 0);
  st->start_boot(b0, "qemu:///system", "rlab-2-a", "/tmp/c.log");
  st->record_images(b0, k, "ikey");
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT origin FROM kernels"), std::vector<std::string>{k.origin});
  k.origin = "something else";
  const auto b1 = st->boot_id(run, "6.12/xfs/1vcpu/shell1", 1);
  st->start_boot(b1, "qemu:///system", "rlab-2-b", "/tmp/c.log");
  st->record_images(b1, k, "ikey");
  EXPECT_EQ(rlab::test::sql_column(db_, "SELECT origin FROM kernels"),
            std::vector<std::string>{"debian linux-source-6.12 6.12.57-1 (trixie)"});
}
