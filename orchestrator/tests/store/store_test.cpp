// Store round trips against a real SQLite file: schema, records, resume, transactions.
#include "matrix/matrix.hpp"
#include "store/store.hpp"

#include "store/schema.hpp"

#include "sql.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <fstream>
#include <thread>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

const char* kMatrix = R"(kernels:
  "6.12": {source: {debian: "6.12", suite: trixie}}
  6.12+x: {extends: "6.12", patchset: x}
axes:
  kernel: ["6.12", 6.12+x]
  vcpus: [1, 2]
  filesystem: [{fs: xfs, mkfs: [[], [-d, agcount=4]]}, {fs: ext4}]
  workload: [{type: shell1, passes: 2, duration_s: 10}]
  repeats: 2
seed: 7
)";

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rlab-store-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    db_ = dir_ / "sub" / "rlab.db";
    m_ = matrix::parse_matrix(kMatrix, dir_ / "matrix.yaml");
    cells_ = matrix::expand_cells(m_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  store::RunId new_run(store::Store& st) {
    store::NewRun r;
    r.matrix_path = m_.path.string();
    r.matrix_text = m_.text;
    r.seed = m_.seed;
    auto id = st.create_run(r);
    st.add_cells(id, matrix::cell_rows(cells_), m_.repeats);
    return id;
  }

  /// Runs one boot to a result: hello, images, 2 samples, 2 passes, result.
  void complete(store::Store& st, store::BootId b, double lpm, int throttle) {
    st.start_boot(b, "qemu:///system", "rlab-1-x", "/tmp/console.log");
    st.record_images(b, {"kkey", "6.12", "6.12.57", "6.12.57-1", "cfgsha", 64, ""}, "ikey");
    st.record_hello(b, {65536, 2, "6.12.57", "0.1.0", 1000000, R"(["xfs:xfs_inodegc_throttle"])"});
    for (unsigned p = 0; p < 2; ++p) {
      st.record_sample(b, {p, 1.0, 10, 0, R"({"ctxt": 5})"});
      nlohmann::json counters = {{"tracepoints", {{"xfs:xfs_inodegc_throttle", throttle}}}};
      st.record_pass(b, {p, 100, 1, 10.0, lpm, R"({"bounds_s":[0.1],"counts":[100]})",
                         counters.dump()});
    }
    store::Environment env;
    env.host = "qemu:///system";
    env.accel = "tcg";
    env.page_size = 65536;
    st.record_result(b, {lpm, 2, "[]"}, env);
  }

  fs::path dir_, db_;
  matrix::Matrix m_;
  std::vector<matrix::Cell> cells_;
};

/// The first value `sql` gives on `db`, "" for none or NULL.
std::string pragma(const fs::path& db, const std::string& sql) {
  const auto v = rlab::test::sql_column(db, sql, "");
  return v.empty() ? "" : v[0];
}

TEST_F(StoreTest, OpenCreatesWalDatabaseWithSchema) {
  auto st = store::Store::open(db_);
  EXPECT_TRUE(fs::exists(db_));
  EXPECT_EQ(pragma(db_, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(pragma(db_, "PRAGMA user_version"), std::to_string(rlab::store::detail::kSchemaVersion));
  for (const char* t : {"runs", "cells", "boots", "passes", "samples", "results", "failures",
                        "kernels", "images", "boot_results", "latest_cell_results"}) {
    EXPECT_EQ(pragma(db_, (std::string("SELECT name FROM sqlite_master WHERE name = '") + t + "'").c_str()), t);
  }
  // Opening again keeps the schema and the data.
  auto id = st->create_run({"m.yaml", "text", 1, "matrix", ""});
  st.reset();
  auto again = store::Store::open(db_);
  EXPECT_EQ(again->latest_run(), id);
}

TEST_F(StoreTest, RoundTripOfARun) {
  auto st = store::Store::open(db_);
  const auto run = new_run(*st);
  auto info = st->run(run);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->matrix_text, m_.text);
  EXPECT_EQ(info->seed, 7u);
  EXPECT_EQ(info->status, rlab::store::RunStatus::running);
  EXPECT_FALSE(info->created_at.empty());
  EXPECT_FALSE(info->hostname.empty());

  const auto boots = st->boots(run);
  ASSERT_EQ(boots.size(), cells_.size() * 2);
  for (const auto& b : boots) EXPECT_EQ(b.status, rlab::store::BootStatus::pending);

  const auto b0 = st->boot_id(run, "6.12/xfs-agcount4/2vcpu/shell1", 1);
  complete(*st, b0, 250.0, 30);
  const auto b1 = st->boot_id(run, "6.12/xfs-agcount4/2vcpu/shell1", 0);
  complete(*st, b1, 270.0, 10);
  const auto b2 = st->boot_id(run, "6.12+x/ext4-defaults/1vcpu/shell1", 0);
  st->start_boot(b2, "qemu:///system", "rlab-1-y", "/tmp/c2.log");
  st->record_failure(b2, rlab::store::FailurePhase::hello, "no hello within 120 s", "[   1.0] Booting Linux...\n");
  st->finish_run(run, rlab::store::RunStatus::failed);

  EXPECT_EQ(st->run(run)->status, rlab::store::RunStatus::failed);
  EXPECT_FALSE(st->run(run)->finished_at.empty());
  const auto rows = st->boot_results(run);
  ASSERT_EQ(rows.size(), boots.size());
  int done = 0, failed = 0;
  for (const auto& r : rows) {
    if (r.boot_id == b0 || r.boot_id == b1) {
      ++done;
      EXPECT_EQ(r.status, rlab::store::BootStatus::done);
      ASSERT_TRUE(r.score);
      EXPECT_DOUBLE_EQ(*r.score, r.boot_id == b0 ? 250.0 : 270.0);
      EXPECT_EQ(r.loops, 200u);
      EXPECT_EQ(r.loop_failures, 2u);
      EXPECT_TRUE(r.throttle_counted);
      EXPECT_EQ(r.inodegc_throttle, r.boot_id == b0 ? 60u : 20u);
      EXPECT_EQ(r.guest_page_size, 65536u);
      EXPECT_EQ(r.kernel, "6.12");
      EXPECT_EQ(r.fs, "xfs");
      EXPECT_EQ(r.mkfs_label, "agcount=4");
      EXPECT_EQ(r.vcpus, 2u);
      EXPECT_EQ(r.copies, 2u);
    } else if (r.boot_id == b2) {
      ++failed;
      EXPECT_EQ(r.status, rlab::store::BootStatus::failed);
      EXPECT_FALSE(r.score);
      EXPECT_EQ(r.failure, "hello: no hello within 120 s");
      EXPECT_EQ(r.patchset, "x");
    } else {
      EXPECT_EQ(r.status, rlab::store::BootStatus::pending);
      EXPECT_FALSE(r.throttle_counted);
    }
  }
  EXPECT_EQ(done, 2);
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM samples"), "4");
  EXPECT_EQ(pragma(db_, "SELECT console_tail FROM failures"), "[   1.0] Booting Linux...\n");
  EXPECT_EQ(pragma(db_, "SELECT env_accel FROM results LIMIT 1"), "tcg");
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM kernels"), "1");
  EXPECT_EQ(pragma(db_, "SELECT mkfs_options FROM cells WHERE cell_key = '6.12/xfs-agcount4/1vcpu/shell1'"),
            R"(["-d","agcount=4"])");
}

TEST_F(StoreTest, ResumeListsOnlyUnfinishedBootsAndRestartsThemClean) {
  store::RunId run = 0;
  store::BootId done = 0, failed = 0, interrupted = 0;
  {
    auto st = store::Store::open(db_);
    run = new_run(*st);
    const auto boots = st->boots(run);
    for (std::size_t i = 0; i < boots.size(); ++i)
      st->set_boot_order(boots[i].id, static_cast<int>(boots.size() - i));
    done = boots[0].id;
    failed = boots[1].id;
    interrupted = boots[2].id;
    complete(*st, done, 100.0, 0);
    st->start_boot(failed, "qemu:///system", "d", "c");
    st->record_failure(failed, rlab::store::FailurePhase::page_size, "guest reports 4096, cell needs 65536", "");
    st->start_boot(interrupted, "qemu:///system", "d", "c");
    st->record_pass(interrupted, {0, 5, 0, 10.0, 30.0, "{}", "{}"});
    // The process dies here: no finish_run, boot still "running".
  }
  auto st = store::Store::open(db_);
  EXPECT_EQ(st->run(run)->status, rlab::store::RunStatus::running);
  const auto all = st->boots(run);
  const auto todo = st->unfinished_boots(run);
  EXPECT_EQ(todo.size(), all.size() - 2);
  for (const auto& b : todo) {
    EXPECT_NE(b.id, done);
    EXPECT_NE(b.id, failed);
    EXPECT_TRUE(b.status == rlab::store::BootStatus::pending || b.status == rlab::store::BootStatus::running);
  }
  // Same order as the recorded shuffle (order_index ascending).
  for (std::size_t i = 1; i < todo.size(); ++i) EXPECT_LT(todo[i - 1].order_index, todo[i].order_index);
  const auto with_failed = st->unfinished_boots(run, true);
  EXPECT_EQ(with_failed.size(), all.size() - 1);

  // Restarting the interrupted boot discards its partial pass; its attempt count goes up.
  EXPECT_EQ(pragma(db_, ("SELECT COUNT(*) FROM passes WHERE boot_id = " + std::to_string(interrupted)).c_str()), "1");
  st->start_boot(interrupted, "qemu:///system", "d2", "c2");
  EXPECT_EQ(pragma(db_, ("SELECT COUNT(*) FROM passes WHERE boot_id = " + std::to_string(interrupted)).c_str()), "0");
  for (const auto& b : st->boots(run)) {
    if (b.id == interrupted) {
      EXPECT_EQ(b.attempts, 2u);
    }
  }
  // The finished boot's data is untouched.
  EXPECT_EQ(pragma(db_, ("SELECT COUNT(*) FROM passes WHERE boot_id = " + std::to_string(done)).c_str()), "2");
  // The failure stays as history after a retry.
  st->start_boot(failed, "qemu:///system", "d3", "c3");
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM failures"), "1");
}

TEST_F(StoreTest, AFailedWriteLosesNothingAlreadyStored) {
  auto st = store::Store::open(db_);
  const auto run = new_run(*st);
  const auto b = st->boots(run).front().id;
  complete(*st, b, 123.0, 0);
  const auto cells_before = pragma(db_, "SELECT COUNT(*) FROM cells");
  // A batch whose second cell duplicates an existing id: the whole batch rolls back.
  std::vector<matrix::Cell> batch = {cells_[0], cells_[0]};
  batch[0].id = "brand/new/1vcpu/shell1";
  EXPECT_THROW(st->add_cells(run, matrix::cell_rows(batch), 1), store::StoreError);
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM cells"), cells_before);
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM cells WHERE cell_key = 'brand/new/1vcpu/shell1'"), "0");
  // Writes for a boot that does not exist fail (foreign keys) and change nothing.
  EXPECT_THROW(st->record_result(999999, {1.0, 0, "[]"}, {}), store::StoreError);
  EXPECT_THROW(st->record_failure(999999, rlab::store::FailurePhase::boot, "x", ""), store::StoreError);
  EXPECT_THROW(st->record_pass(999999, {0, 1, 0, 1.0, 60.0, "{}", "{}"}), store::StoreError);
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM failures"), "0");
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM results"), "1");
  EXPECT_EQ(pragma(db_, "SELECT score FROM results"), "123.0");
}

// Thinning deletes the samples of runs finished before the cutoff (and only theirs), keeps
// everything else of them, and gives the space back (VACUUM).
TEST_F(StoreTest, ThinningDropsOldSamplesKeepsResultsAndShrinksTheFile) {
  auto st = store::Store::open(db_);
  const auto old_run = new_run(*st), running = new_run(*st);
  const std::string filler(2000, 'x');  // samples large enough that the file visibly shrinks
  for (const auto run : {old_run, running}) {
    const auto b = st->boots(run).front().id;
    complete(*st, b, 250.0, 1);
    for (unsigned i = 0; i < 3000; ++i) st->record_sample(b, {0, 1.0 + i, i, 0, R"({"pad": ")" + filler + "\"}"});
  }
  st->finish_run(old_run, store::RunStatus::done);
  const auto b_old = st->boots(old_run).front().id, b_running = st->boots(running).front().id;
  // The store's bytes on disk: the file and its write-ahead log.
  auto on_disk = [&] {
    const fs::path wal = db_.string() + "-wal";
    return fs::file_size(db_) + (fs::exists(wal) ? fs::file_size(wal) : 0);
  };
  const auto size_before = on_disk();

  // A cutoff before the run finished thins nothing.
  auto t = st->thin("2000-01-01T00:00:00Z");
  EXPECT_TRUE(t.old_runs.empty());
  EXPECT_EQ(t.samples_deleted, 0u);
  EXPECT_FALSE(t.vacuumed);

  t = st->thin("9999-01-01T00:00:00Z");
  EXPECT_EQ(t.old_runs, std::vector<store::RunId>{old_run}) << "the running run is not old";
  EXPECT_EQ(t.samples_deleted, 3002u);
  EXPECT_TRUE(t.vacuumed) << t.vacuum_error;
  EXPECT_TRUE(st->samples(b_old).empty());
  EXPECT_EQ(st->samples(b_running).size(), 3002u);
  EXPECT_LT(on_disk(), size_before * 6 / 10) << "VACUUM gave half the pages back (" << size_before << " bytes before)";
  // What stays: the boot, its passes and its score.
  const auto rows = st->boot_results(old_run);
  ASSERT_FALSE(rows.empty());
  ASSERT_TRUE(rows.front().score);
  EXPECT_DOUBLE_EQ(*rows.front().score, 250.0);
  EXPECT_EQ(rows.front().loops, 200u);

  // Again: nothing more to delete, nothing to vacuum; the old run is still listed.
  t = st->thin("9999-01-01T00:00:00Z");
  EXPECT_EQ(t.samples_deleted, 0u);
  EXPECT_FALSE(t.vacuumed);
  EXPECT_EQ(t.old_runs.size(), 1u);
}

TEST_F(StoreTest, ConcurrentWritersFromTwoConnections) {
  auto a = store::Store::open(db_);
  auto b = store::Store::open(db_);
  const auto run = new_run(*a);
  const auto boots = a->boots(run);
  auto work = [&](store::Store& st, std::size_t from) {
    for (std::size_t i = from; i < boots.size(); i += 2) complete(st, boots[i].id, 10.0 + i, 1);
  };
  std::thread t1(work, std::ref(*a), 0), t2(work, std::ref(*b), 1);
  t1.join();
  t2.join();
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM results"), std::to_string(boots.size()));
  EXPECT_EQ(pragma(db_, "SELECT COUNT(*) FROM passes"), std::to_string(boots.size() * 2));
  EXPECT_TRUE(a->unfinished_boots(run).empty());
}

TEST_F(StoreTest, LatestResultOfEveryCellAcrossRuns) {
  auto st = store::Store::open(db_);
  const auto r1 = new_run(*st);
  const auto r2 = new_run(*st);
  const std::string cell = "6.12/xfs-defaults/1vcpu/shell1";
  complete(*st, st->boot_id(r1, cell, 0), 100.0, 0);
  complete(*st, st->boot_id(r2, cell, 0), 200.0, 0);
  EXPECT_EQ(pragma(db_, ("SELECT score FROM latest_cell_results WHERE cell_key = '" + cell + "'").c_str()),
            "200.0");
  EXPECT_EQ(pragma(db_, ("SELECT run_id FROM latest_cell_results WHERE cell_key = '" + cell + "'").c_str()),
            std::to_string(r2));
  const auto runs = st->runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].id, r2);
  EXPECT_TRUE(runs[0].matrix_text.empty());
  EXPECT_FALSE(st->run(12345));
  EXPECT_THROW(st->boot_id(r1, "no/such/cell", 0), store::StoreError);
}

TEST_F(StoreTest, UnwritableLocationIsAClearError) {
  fs::create_directories(dir_);
  const fs::path file = dir_ / "plain-file";
  { std::ofstream(file) << "x"; }
  try {
    store::Store::open(file / "rlab.db");
    FAIL();
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find((file / "rlab.db").string()), std::string::npos) << e.what();
  }
}

}  // namespace

namespace {

std::string store_slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path scratch_dir(const char* name) {
  fs::path d = fs::temp_directory_path() / ("rlab-store-open-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

// `--db` pointing at another program's SQLite database must not turn it into an rlab store
// (WAL mode, rlab tables): refuse and leave every byte as it was.
TEST(StoreOrder, BootResultsFollowTheMatrixKernelOrderNotTheAlphabet) {
  // The results table takes the first kernel it meets as its base column: that must be the
  // matrix's first kernel even when its name sorts last.
  const auto dir = fs::temp_directory_path() / ("rlab-store-order-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const char* text = R"(kernels:
  zeta: {source: {debian: "6.12", suite: trixie}}
  alpha: {extends: zeta, patchset: p}
axes:
  kernel: [zeta, alpha]
  vcpus: [2, 1]
  filesystem: [{fs: xfs}]
  workload: [{type: shell1, duration_s: 10}]
  repeats: 2
)";
  auto m = matrix::parse_matrix(text, dir / "matrix.yaml");
  auto st = store::Store::open(dir / "rlab.db");
  auto run = st->create_run({m.path.string(), text, 1, "matrix", ""});
  st->add_cells(run, matrix::cell_rows(matrix::expand_cells(m)), m.repeats);
  auto rows = st->boot_results(run);
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows.front().kernel, "zeta");
  EXPECT_EQ(rows.back().kernel, "alpha");
  EXPECT_EQ(rows[0].vcpus, 2u);
  EXPECT_EQ(rows[0].repeat, 0u);
  EXPECT_EQ(rows[1].repeat, 1u);
  fs::remove_all(dir);
}

TEST(StoreOpen, ForeignSqliteDatabaseIsRefusedAndUnchanged) {
  const fs::path dir = scratch_dir("foreign");
  const fs::path db = dir / "places.sqlite";
  rlab::test::sql_exec(db, "CREATE TABLE bookmarks(url TEXT); INSERT INTO bookmarks VALUES('x');");
  const std::string before = store_slurp(db);
  try {
    store::Store::open(db);
    FAIL() << "opened a foreign database";
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("not an rlab results store"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(db.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(store_slurp(db), before);
  EXPECT_FALSE(fs::exists(db.string() + "-wal"));
  fs::remove_all(dir);
}

TEST(StoreOpen, NonDatabaseFileIsRefusedAndUnchanged) {
  const fs::path dir = scratch_dir("garbage");
  const fs::path db = dir / "notes.db";
  { std::ofstream(db) << "not sqlite at all, just some text that is long enough\n"; }
  const std::string before = store_slurp(db);
  try {
    store::Store::open(db);
    FAIL() << "opened a text file";
  } catch (const store::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("not an rlab results store"), std::string::npos) << e.what();
  }
  EXPECT_EQ(store_slurp(db), before);
  // A fresh path is still created, and reopening our own store works.
  const fs::path ok = dir / "new.db";
  { auto s = store::Store::open(ok); }
  EXPECT_NO_THROW(store::Store::open(ok));
  fs::remove_all(dir);
}

// The boot's timeline: host seconds to hello and the guest's own, per boot in boot order; a
// boot without a hello is not listed, one from an agent that does not say has no guest side.
TEST_F(StoreTest, BootPhasesKeepTheHostAndGuestTimelineOfEachHello) {
  auto st = store::Store::open(db_);
  const auto run = new_run(*st);
  const auto boots = st->boots(run);
  ASSERT_GE(boots.size(), 3u);
  st->start_boot(boots[0].id, "qemu:///system", "rlab-1-a", "/tmp/a.log");
  store::Hello h{65536, 1, "6.12.57", "0.1.0", 1000000, "[]"};
  h.init_s = 0.80;
  h.agent_s = 0.82;
  h.hello_s = 0.93;
  st->record_hello(boots[0].id, h);
  st->record_boot_seconds(boots[0].id, 2.31);
  st->start_boot(boots[1].id, "qemu:///system", "rlab-1-b", "/tmp/b.log");
  st->record_hello(boots[1].id, {65536, 1, "6.12.57", "0.0.9", 1000000, "[]"});  // an older agent
  st->record_boot_seconds(boots[1].id, 2.5);
  st->start_boot(boots[2].id, "qemu:///system", "rlab-1-c", "/tmp/c.log");  // no hello
  const auto p = st->boot_phases(run);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].boot_id, boots[0].id);
  EXPECT_DOUBLE_EQ(p[0].boot_s.value_or(-1), 2.31);
  EXPECT_DOUBLE_EQ(p[0].init_s.value_or(-1), 0.80);
  EXPECT_DOUBLE_EQ(p[0].agent_s.value_or(-1), 0.82);
  EXPECT_DOUBLE_EQ(p[0].hello_s.value_or(-1), 0.93);
  EXPECT_DOUBLE_EQ(p[1].boot_s.value_or(-1), 2.5);
  EXPECT_FALSE(p[1].init_s || p[1].agent_s || p[1].hello_s);
  EXPECT_TRUE(st->boot_phases(run + 100).empty());
}
