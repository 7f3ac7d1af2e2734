// Read-only queries over the store for metrics (see store_reader.hpp).
#include "metrics/store_reader.hpp"

#include "rlab/protocol/score.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <set>

namespace rlab::metrics {
namespace {

using store::StoreError;

// One prepared statement; binds 1-based, columns 0-based.
class Query {
 public:
  Query(sqlite3* db, const std::filesystem::path& file, const char* sql) : db_(db), file_(file) {
    if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK) fail("preparing a query");
  }
  ~Query() { sqlite3_finalize(st_); }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  void bind_run(int i, std::optional<store::RunId> run) {
    int rc = run ? sqlite3_bind_int64(st_, i, *run) : sqlite3_bind_null(st_, i);
    if (rc != SQLITE_OK) fail("binding a parameter");
  }
  void bind(int i, std::int64_t v) {
    if (sqlite3_bind_int64(st_, i, v) != SQLITE_OK) fail("binding a parameter");
  }
  void bind(int i, const char* v) {
    if (sqlite3_bind_text(st_, i, v, -1, SQLITE_TRANSIENT) != SQLITE_OK) fail("binding a parameter");
  }
  bool step() {
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("reading");
  }
  std::string text(int c) const {
    auto* p = sqlite3_column_text(st_, c);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  std::int64_t i64(int c) const { return sqlite3_column_int64(st_, c); }
  double real(int c) const { return sqlite3_column_double(st_, c); }
  bool is_null(int c) const { return sqlite3_column_type(st_, c) == SQLITE_NULL; }

 private:
  [[noreturn]] void fail(const char* what) {
    throw StoreError(file_.string() + ": metrics: " + what + ": " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  const std::filesystem::path& file_;
  sqlite3_stmt* st_ = nullptr;
};

// Columns 0..9 of a cell's label source: kernel, patchset, page_size, fs, mkfs_label, vcpus,
// copies, workload, host_uri, runs.hostname.
CellLabels labels_at(const Query& q, int c) {
  CellLabels l;
  l.kernel = q.text(c);
  l.patchset = q.text(c + 1);
  l.page_size = static_cast<unsigned>(q.i64(c + 2));
  l.fs = q.text(c + 3);
  l.mkfs = q.text(c + 4);
  l.vcpus = static_cast<unsigned>(q.i64(c + 5));
  l.copies = static_cast<unsigned>(q.i64(c + 6));
  l.workload = q.text(c + 7);
  l.host = host_label(q.text(c + 8), q.text(c + 9));
  return l;
}

constexpr const char* kLabelCols =
    "c.kernel, c.patchset, c.page_size, c.fs, c.mkfs_label, c.vcpus, c.copies, c.workload,"
    " COALESCE(b.host_uri, ''), r.hostname";

const std::string kLatestSql = std::string(R"SQL(
WITH done AS (
  SELECT b.id AS boot_id, c.cell_key AS cell_key, res.recorded_at AS recorded_at,
         )SQL") + kLabelCols + R"SQL(,
         res.score, (julianday(res.recorded_at) - 2440587.5) * 86400.0,
         COALESCE(k.source_commit, ''), COALESCE(k.kernel_release, b.guest_kernel_release, '')
  FROM results res
  JOIN boots b ON b.id = res.boot_id
  JOIN cells c ON c.id = b.cell_id
  JOIN runs r ON r.id = c.run_id
  LEFT JOIN kernels k ON k.kernel_key = b.kernel_key
  WHERE b.status = 'done' AND (?1 IS NULL OR c.run_id = ?1)),
ranked AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY cell_key
                                        ORDER BY recorded_at DESC, boot_id DESC) AS rn
           FROM done)
SELECT * FROM ranked WHERE rn = 1 ORDER BY cell_key
)SQL";

// Cell keys of a run (or of all runs): totals and outcomes are limited to them.
constexpr const char* kScopeSql =
    "(?1 IS NULL OR c.cell_key IN (SELECT cell_key FROM cells WHERE run_id = ?1))";

}  // namespace

StoreReader::StoreReader(const std::filesystem::path& db) : path_(db) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db, ec))
    throw StoreError(db.string() + ": no results store here (run `rlab run` first, or pass --db)");
  if (sqlite3_open_v2(db.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError(db.string() + ": cannot open read-only: " + msg);
  }
  sqlite3_busy_timeout(db_, 10000);
  Query q(db_, path_, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'");
  if (!q.step() || q.i64(0) != 1) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError(db.string() + ": not an rlab results store (no runs table)");
  }
  Query col(db_, path_, "SELECT count(*) FROM pragma_table_info('boots') WHERE name = 'boot_s'");
  has_boot_s_ = col.step() && col.i64(0) == 1;
}

StoreReader::~StoreReader() { sqlite3_close_v2(db_); }

std::optional<LatencyHistogram> parse_latency(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("bounds_s") || !j.contains("counts")) return std::nullopt;
  const auto& b = j["bounds_s"];
  const auto& c = j["counts"];
  if (!b.is_array() || !c.is_array() || c.size() != b.size() + 1) return std::nullopt;
  LatencyHistogram h;
  for (const auto& v : b) {
    if (!v.is_number()) return std::nullopt;
    double d = v.get<double>();
    if (!h.bounds_s.empty() && d <= h.bounds_s.back()) return std::nullopt;
    h.bounds_s.push_back(d);
  }
  for (const auto& v : c) {
    if (!v.is_number() || v.get<double>() < 0) return std::nullopt;
    h.counts.push_back(v.get<double>());
  }
  if (auto s = j.find("sum_s"); s != j.end() && s->is_number()) h.sum_s = s->get<double>();
  return h;
}

Snapshot StoreReader::read(std::optional<store::RunId> run) const {
  std::lock_guard lock(mu_);
  // One read transaction: every query sees the same state of a store being written.
  sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
  struct EndTx {
    sqlite3* db;
    ~EndTx() { sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr); }
  } end_tx{db_};

  Snapshot s;
  std::map<std::int64_t, std::size_t> boot_index;  // latest boot id -> results index
  {
    Query q(db_, path_, kLatestSql.c_str());
    q.bind_run(1, run);
    while (q.step()) {
      CellResult r;
      r.cell_key = q.text(1);
      r.labels = labels_at(q, 3);
      r.score_lpm = q.real(13);
      r.recorded_at_s = q.real(14);
      r.commit = q.text(15);
      r.kernel_release = q.text(16);
      boot_index[q.i64(0)] = s.results.size();
      s.results.push_back(std::move(r));
    }
  }
  for (auto& [boot, idx] : boot_index) {
    auto& r = s.results[idx];
    {
      Query q(db_, path_,
              "SELECT c.workload_kind, (SELECT AVG(p.inode_ags) FROM passes p WHERE p.boot_id = ?1)"
              " FROM boots b JOIN cells c ON c.id = b.cell_id WHERE b.id = ?1");
      q.bind(1, boot);
      if (q.step()) {
        r.unixbench_index = protocol::unixbench_index(q.text(0), r.score_lpm);
        if (!q.is_null(1)) r.inode_ags = q.real(1);
      }
    }
    Query q(db_, path_,
            "SELECT pass, loops, lpm, latency_json FROM passes WHERE boot_id = ?1 ORDER BY pass");
    q.bind(1, boot);
    while (q.step()) {
      r.loops += static_cast<std::uint64_t>(q.i64(1));
      r.pass_lpm[static_cast<unsigned>(q.i64(0))] = q.real(2);
      auto h = parse_latency(q.text(3));
      if (!h) continue;
      if (!r.latency) {
        r.latency = std::move(h);
      } else if (r.latency->bounds_s == h->bounds_s) {
        for (std::size_t i = 0; i < h->counts.size(); ++i) r.latency->counts[i] += h->counts[i];
        r.latency->sum_s += h->sum_s;
      } else {
        spdlog::warn("{}: cell {} pass {}: latency buckets differ from pass 0; pass not merged",
                     path_.string(), r.cell_key, q.i64(0));
      }
    }
  }

  for (const auto& r : s.results) s.totals[r.cell_key].labels = r.labels;
  {
    Query q(db_, path_, (std::string(
        "SELECT c.cell_key, SUM(p.duration_s), SUM(p.loops) FROM passes p"
        " JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id"
        " WHERE b.status = 'done' AND ") + kScopeSql + " GROUP BY c.cell_key").c_str());
    q.bind_run(1, run);
    while (q.step()) {
      auto it = s.totals.find(q.text(0));
      if (it == s.totals.end()) continue;
      it->second.load_seconds = q.real(1);
      it->second.loops = static_cast<std::uint64_t>(q.i64(2));
    }
  }
  for (const char* path : {"$.tracepoints", "$.xfs_stats"}) {
    const bool tracepoints = std::string_view(path) == "$.tracepoints";
    Query q(db_, path_, (std::string(
        "SELECT c.cell_key, je.key, SUM(je.value) FROM passes p"
        " JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id,"
        " json_each(p.counters_json, ?2) AS je"
        " WHERE b.status = 'done' AND json_valid(p.counters_json) AND ") + kScopeSql +
        " GROUP BY c.cell_key, je.key").c_str());
    q.bind_run(1, run);
    q.bind(2, path);
    while (q.step()) {
      auto it = s.totals.find(q.text(0));
      if (it == s.totals.end()) continue;
      const std::string key = q.text(1);
      const double v = q.real(2);
      if (tracepoints) {
        if (auto ev = inodegc_event(key); !ev.empty()) it->second.inodegc_events[ev] += v;
        else if (key == "xfs:xfs_inode_set_need_inactive")
          it->second.inactivation_events["set_need_inactive"] += v;
        else if (key == "xfs:xfs_inode_inactivating")
          it->second.inactivation_events["inactivating"] += v;
      } else if (auto name = xfs_stat_name(key); !name.empty()) {
        it->second.xfs_stats[name] += v;
      }
    }
  }
  {
    Query q(db_, path_, (std::string("SELECT ") + kLabelCols + ", b.status, c.cell_key, COUNT(*)"
        " FROM boots b JOIN cells c ON c.id = b.cell_id JOIN runs r ON r.id = c.run_id"
        " WHERE b.status IN ('done', 'failed') AND " + kScopeSql +
        " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12").c_str());
    q.bind_run(1, run);
    while (q.step())
      s.outcomes[{q.text(11), labels_at(q, 0), q.text(10)}] += static_cast<std::uint64_t>(q.i64(12));
  }
  if (has_boot_s_) {
    Query q(db_, path_, (std::string("SELECT ") + kLabelCols + ", c.cell_key, b.boot_s"
        " FROM boots b JOIN cells c ON c.id = b.cell_id JOIN runs r ON r.id = c.run_id"
        " WHERE b.boot_s IS NOT NULL AND b.status IN ('done', 'failed') AND " + kScopeSql +
        " ORDER BY b.id").c_str());
    q.bind_run(1, run);
    while (q.step()) s.boot_seconds[{q.text(10), labels_at(q, 0)}].push_back(q.real(11));
  }
  {
    std::map<std::string, std::pair<double, KernelInfo>> newest;
    for (const auto& r : s.results) {
      if (r.commit.empty()) continue;
      auto& slot = newest[r.labels.kernel];
      if (slot.second.kernel.empty() || r.recorded_at_s > slot.first)
        slot = {r.recorded_at_s, KernelInfo{r.labels.kernel, r.commit, r.kernel_release,
                                            r.labels.patchset}};
    }
    for (auto& [name, v] : newest) s.kernels.push_back(std::move(v.second));
  }
  {
    std::map<std::pair<std::string, std::string>, RunProgress> progress;
    if (!run) {  // every kind/host seen, so "nothing running" is a 0, not a missing series
      Query q(db_, path_, "SELECT DISTINCT kind, hostname FROM runs");
      while (q.step()) {
        auto& p = progress[{q.text(0), q.text(1)}];
        p.kind = q.text(0);
        p.host = q.text(1);
        for (const char* st : {"planned", "pending", "running", "done", "failed"}) p.boots[st];
      }
    }
    Query q(db_, path_,
            "SELECT r.id, r.kind, r.hostname, b.status, COUNT(b.id) FROM runs r"
            " LEFT JOIN cells c ON c.run_id = r.id LEFT JOIN boots b ON b.cell_id = c.id"
            " WHERE (?1 IS NULL AND r.status = 'running') OR r.id = ?1"
            " GROUP BY r.id, b.status ORDER BY r.id");
    q.bind_run(1, run);
    std::set<std::int64_t> active;
    while (q.step()) {
      auto& p = progress[{q.text(1), q.text(2)}];
      p.kind = q.text(1);
      p.host = q.text(2);
      for (const char* st : {"planned", "pending", "running", "done", "failed"}) p.boots[st];
      if (!run && active.insert(q.i64(0)).second) ++p.active_runs;
      const auto n = static_cast<std::uint64_t>(q.i64(4));
      if (n == 0) continue;
      p.boots["planned"] += n;
      p.boots[q.text(3)] += n;
    }
    if (run) {
      Query st(db_, path_, "SELECT status FROM runs WHERE id = ?1");
      st.bind_run(1, run);
      if (st.step() && st.text(0) == "running")
        for (auto& [k, p] : progress) p.active_runs = 1;
    }
    for (auto& [k, p] : progress) s.runs.push_back(std::move(p));
  }
  return s;
}

}  // namespace rlab::metrics
