// A store written by rlab at schema version 5 (data/schema5-store.sql: nightly and matrix runs,
// failed and pending boots, samples with host facts, XFS placement and attribution of a pass,
// host facts of a boot, a noise report, a bisect session with a step), and what that rlab read
// from it (data/schema5-reads/): results tables, runs and boots, boot timings, samples,
// comparisons, change points, a night's reports, metrics and the bisect session. A store of
// that version must open, keep its schema and read the same.
#include "kernel_bisect/session.hpp"
#include "changepoint/detect.hpp"
#include "compare/compare.hpp"
#include "compare/render.hpp"
#include "metrics/store_collector.hpp"
#include "nightly/analysis.hpp"
#include "nightly/report_dirs.hpp"
#include "noise/render.hpp"
#include "results/results_table.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include "store/schema.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <prometheus/text_serializer.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace rlab;
namespace fs = std::filesystem;

namespace {

const std::string kOld = "1111111111111111111111111111111111111111";
const std::string kNew = "2222222222222222222222222222222222222222";

nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

std::map<std::string, std::string> golden_reads(const fs::path& db) {
  std::map<std::string, std::string> out;
  {
    auto st = store::Store::open(db);
    nlohmann::json runs = nlohmann::json::array(), tables = nlohmann::json::array();
    for (const auto& r : st->runs()) {
      runs.push_back({r.id, r.kind, std::string(store::to_string(r.status)), r.created_at, r.finished_at, r.matrix_path, r.seed, r.note});
      tables.push_back(results::to_json(results::load_table(*st, r.id)));
    }
    out["runs.json"] = runs.dump(1);
    out["results.json"] = tables.dump(1);
    nlohmann::json boots = nlohmann::json::array();
    for (const auto& b : st->boots(13))
      boots.push_back({b.id, b.cell_id, b.repeat, std::string(store::to_string(b.status)), b.order_index, b.attempts});
    for (const auto& b : st->unfinished_boots(11, true))
      boots.push_back({b.id, b.cell_id, b.repeat, std::string(store::to_string(b.status)), b.order_index, b.attempts});
    out["boots.json"] = boots.dump(1);
    nlohmann::json timings = nlohmann::json::array();
    for (const auto& t : st->boot_timings(13)) {
      nlohmann::json pass_share = nlohmann::json::array(), pass_steal = nlohmann::json::array();
      for (const auto& v : t.pass_vcpu_share) pass_share.push_back(opt(v));
      for (const auto& v : t.pass_host_steal) pass_steal.push_back(opt(v));
      nlohmann::json host = nullptr;
      if (t.host)
        host = {t.host->cpus, t.host->load1_before, t.host->load1_after, t.host->busy_fraction,
                t.host->steal_fraction, t.host->seconds, t.host->vcpu_pins, t.host->emulator_pin};
      timings.push_back({t.boot_id, t.cell_id, t.repeat, t.order_index, std::string(store::to_string(t.status)), opt(t.score),
                         t.warmup_passes, t.pass_lpm, pass_share, pass_steal, host,
                         t.started_unix_s.has_value()});
    }
    out["boot_timings.json"] = timings.dump(1);
    nlohmann::json samples = nlohmann::json::array();
    const auto first = st->boots(13).front().id;
    for (const auto& s : st->samples(first))
      samples.push_back({s.pass, s.t_s, s.loops, s.failures, s.counters_json, opt(s.host_s),
                         opt(s.host_busy), opt(s.host_steal), opt(s.host_mhz), opt(s.vcpu_share)});
    samples.push_back(opt(st->boot_seconds(first)));
    out["samples.json"] = samples.dump(1);
    out["noise_history.txt"] = noise::render_history(st->noise_reports(""));
  }
  {
    const auto read_only = store::Store::open_read_only(db);
    const store::Store& rdb = *read_only;
    compare::CompareOptions o;
    nlohmann::json cmp = nlohmann::json::array();
    cmp.push_back(compare::to_json(compare::compare_runs(rdb, 12, 13, o)));
    cmp.push_back(compare::to_json(compare::compare_runs(rdb, 7, 8, o)));
    cmp.push_back(compare::to_json(compare::compare_kernels(rdb, 5, "6.12", "6.12+inline-inactivation", o)));
    cmp.push_back(compare::to_json(compare::compare_kernels(rdb, 13, "6.12", "6.12+inline-inactivation", o)));
    auto with_control = o;
    with_control.control = "inline";
    cmp.push_back(compare::to_json(compare::compare_runs(rdb, 5, 6, with_control)));
    out["compare.json"] = cmp.dump(1);
    std::ostringstream text;
    compare::render_text(compare::compare_runs(rdb, 12, 13, o), text);
    out["compare.txt"] = text.str();
    changepoint::DetectOptions d;
    const auto cells = changepoint::detect(rdb, d);
    out["detect.json"] = changepoint::to_json(cells, d, true).dump(1);
    std::ostringstream dt;
    changepoint::render_text(cells, d, true, false, dt);
    out["detect.txt"] = dt.str();
  }
  {
    nightly::AnalyseOptions a;
    const auto night = nightly::analyse(db, 12, a);
    out["nightly-summary.txt"] = nightly::render_summary(night);
    out["nightly-kcidb.json"] = nightly::to_kcidb(night).dump(1);
    out["nightly-junit.xml"] = nightly::render_junit(night);
    out["nightly.html"] = nightly::render_html(night);
  }
  {
    metrics::StoreCollector c(db);
    // What the store gave: the rlab_cache_* families describe this machine's cache, not the store.
    std::istringstream text(prometheus::TextSerializer().Serialize(c.Collect()));
    std::string line, from_store;
    while (std::getline(text, line))
      if (line.find("rlab_cache_") == std::string::npos) from_store += line + "\n";
    out["metrics.txt"] = from_store;
  }
  {
    kernel_bisect::SessionDb sdb(db);
    const auto s = sdb.get(1);
    nlohmann::json j = {s->id, s->spec.tree.string(), s->spec.good_ref, s->spec.bad_ref,
                        s->spec.good_commit, s->spec.bad_commit, s->spec.cell_id, s->spec.matrix_path,
                        kernel_bisect::direction_name(s->spec.direction), s->spec.alpha,
                        s->spec.min_effect, s->spec.initial, s->spec.cap, s->spec.commit_count,
                        std::string(kernel_bisect::state_name(s->status)), s->message, s->first_bad,
                        s->candidates};
    for (const auto& r : sdb.steps(1))
      j.push_back({r.seq, r.commit, std::string(bisection::step_result_name(r.result)), r.samples, r.median, r.change_vs_good, r.p_vs_good,
                   r.p_vs_bad, r.reason, r.good_median, r.bad_median, r.reference_samples});
    j.push_back(sdb.batches(1, kOld));
    j.push_back(sdb.batches(1, kNew, "ends"));
    j.push_back(sdb.samples(1, kOld));
    j.push_back(sdb.last_failure(1, kNew));
    out["bisect.json"] = j.dump(1);
  }
  return out;
}

class Schema5Store : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-schema5-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ / "rlab.db";
    const auto sql = fs::path(RLAB_TEST_DATA) / "schema5-store.sql";
    ASSERT_TRUE(util::run({"sqlite3", db_.string(), ".read " + sql.string()}).ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// sqlite3's answer to `sql` on the store, read-only.
  std::string sql(const std::string& q) const {
    return util::run({"sqlite3", "-readonly", db_.string(), q}).output;
  }

  fs::path dir_, db_;
};

}  // namespace

TEST_F(Schema5Store, MigratesGainingOnlyBootPlatformAndReadsWhatRlabReadThen) {
  const std::string schema = sql("SELECT type, name, sql FROM sqlite_master ORDER BY name");
  ASSERT_EQ(sql("PRAGMA user_version"), "5\n");
  const auto reads = golden_reads(db_);
  EXPECT_EQ(sql("PRAGMA user_version"), std::to_string(store::detail::kSchemaVersion) + "\n");
  // Version 6 adds one table (what each boot ran on), 7 one column of results (how often the
  // agent sampled) and three of boots (the guest's boot timeline), 8 one of bisect sessions (a
  // gap's second cell) and one of bisect steps (whether the ends still differed), 9 one of
  // kernels (where each came from); nothing else changes.
  std::string after = sql("SELECT type, name, sql FROM sqlite_master ORDER BY name");
  const auto at = after.find("table|boot_platform|");
  ASSERT_NE(at, std::string::npos) << after;
  after.erase(at, after.find("\n)\n", at) + 3 - at);
  // SQLite writes an added column after the table's last column definition.
  for (const auto& [added, was] : {std::pair<std::string, std::string>{"\n, env_sample_interval_s REAL NOT NULL DEFAULT 1.0)", "\n)"},
                                   {", guest_init_s REAL, guest_agent_s REAL, guest_hello_s REAL,", ","},
                                   {", against_cell_id TEXT NOT NULL DEFAULT '')", ")"},
                                   {", ends_differ INTEGER NOT NULL DEFAULT 1,", ","},
                                   {"\n, origin TEXT NOT NULL DEFAULT '')", "\n)"}}) {
    const auto col = after.find(added);
    ASSERT_NE(col, std::string::npos) << added << " in " << after;
    after.replace(col, added.size(), was);
  }
  EXPECT_EQ(after, schema) << "a schema-5 store gained or lost more than versions 6 to 9 add";
  const fs::path golden = fs::path(RLAB_TEST_DATA) / "schema5-reads";
  // A deliberate change of what these reads show (a table's layout, a report's text) is
  // recorded by running this test once with RLAB_UPDATE_GOLDEN=1; review the files' diff.
  if (const char* u = std::getenv("RLAB_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    fs::remove_all(golden);
    fs::create_directories(golden);
    for (const auto& [name, text] : reads) util::write_file_atomic(golden / name, text);
    GTEST_SKIP() << "golden reads rewritten in " << golden;
  }
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(golden)) {
    const auto name = e.path().filename().string();
    ++files;
    ASSERT_TRUE(reads.count(name)) << name << " is not read any more";
    EXPECT_EQ(reads.at(name), util::read_file(e.path())) << name << " reads differently";
  }
  EXPECT_EQ(files, reads.size());
}

// The store of the previous released version: a real run of the default matrix by the rlab of
// schema version 4 (data/schema4-run.sql, 8 boots on 64K 6.12 guests), and the results that
// rlab printed for it (`rlab results --json`, data/schema4-run-results.json). Opened now, it
// migrates to version 5 keeping every row, and reads the same cells, boots, loops and scores.
TEST(Schema4Store, ARealRunOfThePreviousVersionMigratesAndReadsTheSameResults) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-schema4-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path db = dir / "rlab.db";
  ASSERT_TRUE(util::run({"sqlite3", db.string(), ".read " + (fs::path(RLAB_TEST_DATA) / "schema4-run.sql").string()}).ok());
  auto count = [&](const char* table) {
    return util::run({"sqlite3", "-readonly", db.string(), std::string("SELECT count(*) FROM ") + table}).output;
  };
  const std::string passes = count("passes"), samples = count("samples"), results = count("results");
  const auto old = nlohmann::json::parse(util::read_file(fs::path(RLAB_TEST_DATA) / "schema4-run-results.json"));
  {
    auto st = store::Store::open(db);
    EXPECT_EQ(util::run({"sqlite3", "-readonly", db.string(), "PRAGMA user_version"}).output, std::to_string(store::detail::kSchemaVersion) + "\n");
    EXPECT_EQ(count("passes"), passes);
    EXPECT_EQ(count("samples"), samples);
    EXPECT_EQ(count("results"), results);
    const auto now = results::to_json(results::load_table(*st, old["run"]["id"].get<store::RunId>()));
    ASSERT_EQ(now["cells"].size(), old["cells"].size());
    ASSERT_EQ(old["cells"].size(), 8u);
    for (std::size_t i = 0; i < old["cells"].size(); ++i) {
      const auto &a = old["cells"][i], &b = now["cells"][i];
      for (const char* k : {"cell_id", "boots", "done", "failed", "loops", "scores", "inode_ags", "agcount",
                            "layout", "kernel", "fs", "vcpus", "copies", "unixbench_index"})
        EXPECT_EQ(b[k], a[k]) << a["cell_id"] << " ." << k;
      // That rlab printed a cell's mean as score_lpm; this one prints the median as median_lpm
      // (one boot a cell: the same figure).
      EXPECT_EQ(b["median_lpm"], a["score_lpm"]) << a["cell_id"];
    }
  }
  EXPECT_EQ(util::run({"sqlite3", "-readonly", db.string(), "SELECT DISTINCT env_attribution FROM results"}).output, "off\n");
  EXPECT_EQ(util::run({"sqlite3", "-readonly", db.string(), "SELECT count(*) FROM passes WHERE window_s IS NOT NULL"}).output, "0\n");
  fs::remove_all(dir);
}
