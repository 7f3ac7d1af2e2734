// Store: runs, cells, boots and their records (schema in schema.cpp, docs/store.md).
#include "store/store.hpp"

#include "store/environment_columns.hpp"
#include "store/schema.hpp"
#include "store/sqlite.hpp"
#include "util/hash.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#ifndef RLAB_VERSION
#define RLAB_VERSION "unknown"
#endif

namespace rlab::store {

using detail::exec;
using detail::now_iso;
using detail::Stmt;
using detail::Tx;
using detail::Lock;

Store::Store(std::filesystem::path path) : path_(std::move(path)) {}

Store::~Store() { sqlite3_close_v2(db_); }

namespace {

/// The schema version of the store open on `db`. Throws NotAStoreError, before anything is
/// changed, when the file is not ours: an rlab store always has user_version >= 1, a new one
/// has no objects yet.
std::int64_t rlab_version_of(sqlite3* db, const std::filesystem::path& path) {
  std::int64_t version = 0, objects = 0;
  try {
    Stmt ver(db, "PRAGMA user_version");
    if (ver.step()) version = ver.i64(0);
    Stmt count(db, "SELECT count(*) FROM sqlite_master");
    if (count.step()) objects = count.i64(0);
  } catch (const StoreError&) {
    throw NotAStoreError(path.string() + ": not an rlab results store (SQLite: " +
                     sqlite3_errmsg(db) + ")");
  }
  if (version == 0 && objects > 0)
    throw NotAStoreError(path.string() + ": not an rlab results store (an SQLite database with " +
                     std::to_string(objects) +
                     " tables or indexes but no rlab schema version); left unchanged");
  return version;
}

/// Creates the schema, or upgrades a store of an older `version` in place keeping every row
/// (schema.cpp), in one transaction.
void migrate(sqlite3* db, const std::filesystem::path& path, std::int64_t version) {
  {
    Stmt wal(db, "PRAGMA journal_mode=WAL");
    if (!wal.step() || wal.text(0) != "wal")
      throw StoreError(path.string() + ": cannot switch to WAL mode");
  }
  exec(db, "PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;", "setting pragmas");
  if (version > detail::kSchemaVersion)
    throw StoreError(path.string() + ": schema version " + std::to_string(version) +
                     " is newer than this rlab's (" + std::to_string(detail::kSchemaVersion) + ")");
  Tx tx(db);
  exec(db, detail::kSchemaSql, "creating the schema");
  for (int i = 0; i < detail::kAddedColumnCount; ++i) {  // older stores: add, keep every row
    const auto& c = detail::kAddedColumns[i];
    if (!detail::has_column(db, c.table, c.column))
      exec(db, (std::string("ALTER TABLE ") + c.table + " ADD COLUMN " + c.column + " " + c.decl).c_str(),
           std::string("adding column ") + c.table + "." + c.column);
  }
  exec(db, ("PRAGMA user_version=" + std::to_string(detail::kSchemaVersion)).c_str(),
       "setting the schema version");
  tx.commit();
}

}  // namespace

std::unique_ptr<Store> Store::open(const std::filesystem::path& path) {
  std::unique_ptr<Store> s(new Store(path));
  if (std::error_code dir_ec; std::filesystem::is_directory(path, dir_ec))
    throw NotAStoreError(path.string() + ": is a directory, not a results store (name a file)");
  else if (dir_ec == std::errc::filename_too_long)
    throw NotAStoreError(path.string().substr(0, 80) + "...: the path is too long for this system");
  if (path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) throw StoreError(path.string() + ": cannot create its directory: " + ec.message());
  }
  int rc = sqlite3_open_v2(path.c_str(), &s->db_,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = s->db_ ? sqlite3_errmsg(s->db_) : "out of memory";
    throw StoreError(path.string() + ": cannot open: " + msg);
  }
  sqlite3_busy_timeout(s->db_, 10000);
  const std::int64_t version = rlab_version_of(s->db_, path);
  // A file SQLite could open for reading only (read-only mount, no write permission, an
  // immutable file): read a current store as it is; an older one cannot be migrated.
  if (sqlite3_db_readonly(s->db_, "main") == 1) {
    if (version == detail::kSchemaVersion) return s;
    if (version == 0) throw StoreError(path.string() + ": read-only: cannot create a results store in it");
    throw StoreError(path.string() + ": read-only, and its schema version " + std::to_string(version) +
                     " needs migrating to " + std::to_string(detail::kSchemaVersion) +
                     ": open it writable once");
  }
  migrate(s->db_, path, version);
  return s;
}

std::unique_ptr<Store> Store::open_read_only(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) throw StoreError(path.string() + ": no results store");
  if (std::filesystem::is_directory(path))
    throw NotAStoreError(path.string() + ": is a directory, not a results store (name a file)");
  std::unique_ptr<Store> s(new Store(path));
  if (sqlite3_open_v2(path.c_str(), &s->db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK)
    throw StoreError(path.string() + ": open read-only: " +
                     (s->db_ ? sqlite3_errmsg(s->db_) : "out of memory"));
  sqlite3_busy_timeout(s->db_, 10000);
  // An rlab store has user_version >= 1 (open() sets it); anything else is another program's
  // file, or not SQLite at all (SQLite says so on the first statement).
  std::int64_t version = 0;
  try {
    Stmt ver(s->db_, "PRAGMA user_version");
    if (ver.step()) version = ver.i64(0);
  } catch (const StoreError&) {
    throw NotAStoreError(path.string() + ": not an rlab results store (SQLite: " +
                         sqlite3_errmsg(s->db_) + "); left unchanged");
  }
  if (version < 1)
    throw NotAStoreError(path.string() + ": not an rlab results store (no rlab schema version); left unchanged");
  return s;
}

RunId Store::create_run(const NewRun& r) {
  Lock l(mu_);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  Stmt st(db_,
          "INSERT INTO runs (kind, status, created_at, matrix_path, matrix_text, matrix_sha256,"
          " seed, rlab_version, hostname, note) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, r.kind).bind(2, now_iso()).bind(3, r.matrix_path).bind(4, r.matrix_text)
      .bind(5, util::sha256_hex(r.matrix_text)).bind(6, static_cast<std::int64_t>(r.seed))
      .bind(7, std::string_view(RLAB_VERSION)).bind(8, std::string_view(host)).bind(9, r.note);
  st.run();
  return static_cast<RunId>(sqlite3_last_insert_rowid(db_));
}

void Store::add_cells(RunId run, const std::vector<CellRow>& cells, unsigned repeats) {
  Lock l(mu_);
  Tx tx(db_);
  for (const auto& c : cells) {
    Stmt st(db_,
            "INSERT INTO cells (run_id, cell_key, kernel, patchset, page_size, fs, mkfs_label,"
            " mkfs_options, mount_options, vcpus, workload, workload_kind, scripts_per_loop,"
            " copies, passes, duration_s) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    st.bind(1, run).bind(2, c.id).bind(3, c.kernel).bind(4, c.patchset)
        .bind(5, static_cast<std::int64_t>(c.page_size)).bind(6, c.fs)
        .bind(7, c.mkfs_label).bind(8, nlohmann::json(c.mkfs_options).dump())
        .bind(9, c.mount_options).bind(10, static_cast<std::int64_t>(c.vcpus))
        .bind(11, c.workload).bind(12, c.workload_kind)
        .bind(13, static_cast<std::int64_t>(c.scripts_per_loop))
        .bind(14, static_cast<std::int64_t>(c.copies))
        .bind(15, static_cast<std::int64_t>(c.passes)).bind(16, c.duration_s);
    st.run();
    const std::int64_t cell_row = sqlite3_last_insert_rowid(db_);
    Stmt(db_, "INSERT INTO cell_methods (cell_id, warmup_passes) VALUES (?, ?)")
        .bind(1, cell_row).bind(2, static_cast<std::int64_t>(c.warmup_passes)).run();
    for (unsigned r = 0; r < repeats; ++r) {
      Stmt b(db_, "INSERT INTO boots (cell_id, repeat) VALUES (?, ?)");
      b.bind(1, cell_row).bind(2, static_cast<std::int64_t>(r)).run();
    }
  }
  tx.commit();
}

std::size_t Store::add_repeats(RunId run, const std::vector<std::pair<std::string, unsigned>>& extra) {
  Lock l(mu_);
  Tx tx(db_);
  struct Cell { std::int64_t row; std::int64_t next_repeat; unsigned count; };
  std::vector<Cell> cells;
  unsigned rounds = 0;
  for (const auto& [id, count] : extra) {
    Stmt st(db_, "SELECT c.id, COALESCE(MAX(b.repeat) + 1, 0) FROM cells c LEFT JOIN boots b"
                 " ON b.cell_id = c.id WHERE c.run_id = ? AND c.cell_key = ? GROUP BY c.id");
    st.bind(1, run).bind(2, id);
    if (!st.step()) throw StoreError("run " + std::to_string(run) + " has no cell " + id);
    cells.push_back({st.i64(0), st.i64(1), count});
    rounds = std::max(rounds, count);
  }
  Stmt last(db_, "SELECT COALESCE(MAX(b.order_index), -1) FROM boots b JOIN cells c ON c.id = b.cell_id"
                 " WHERE c.run_id = ?");
  last.bind(1, run);
  last.step();
  std::int64_t order = last.i64(0) + 1;
  std::size_t added = 0;
  for (unsigned k = 0; k < rounds; ++k)
    for (const auto& c : cells) {
      if (k >= c.count) continue;
      Stmt b(db_, "INSERT INTO boots (cell_id, repeat, order_index) VALUES (?, ?, ?)");
      b.bind(1, c.row).bind(2, c.next_repeat + k).bind(3, order++).run();
      ++added;
    }
  tx.commit();
  return added;
}

void Store::set_boot_order(BootId boot, int order_index) {
  Lock l(mu_);
  Stmt st(db_, "UPDATE boots SET order_index = ? WHERE id = ?");
  st.bind(1, static_cast<std::int64_t>(order_index)).bind(2, boot).run();
  if (sqlite3_changes(db_) != 1) throw StoreError("no boot " + std::to_string(boot));
}

void Store::finish_run(RunId run, RunStatus status) {
  Lock l(mu_);
  Stmt st(db_, "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?");
  st.bind(1, to_string(status)).bind(2, now_iso()).bind(3, run).run();
  if (sqlite3_changes(db_) != 1) throw StoreError("no run " + std::to_string(run));
}

namespace {
constexpr const char* kRunCols =
    "id, kind, status, created_at, COALESCE(finished_at, ''), matrix_path, matrix_text, seed,"
    " rlab_version, hostname, note";

RunInfo read_run(const Stmt& st, bool with_text) {
  RunInfo r;
  st.columns(0, r.id, r.kind);
  r.status = parse_run_status(st.text(2));
  st.columns(3, r.created_at, r.finished_at, r.matrix_path);
  if (with_text) r.matrix_text = st.text(6);
  st.columns(7, r.seed, r.rlab_version, r.hostname, r.note);
  return r;
}
}  // namespace

std::optional<RunInfo> Store::run(RunId id) const {
  Lock l(mu_);
  Stmt st(db_, (std::string("SELECT ") + kRunCols + " FROM runs WHERE id = ?").c_str());
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return read_run(st, true);
}

std::optional<RunId> Store::latest_run() const {
  Lock l(mu_);
  Stmt st(db_, "SELECT MAX(id) FROM runs");
  if (!st.step() || st.is_null(0)) return std::nullopt;
  return st.i64(0);
}

std::vector<RunInfo> Store::runs() const {
  Lock l(mu_);
  Stmt st(db_, (std::string("SELECT ") + kRunCols + " FROM runs ORDER BY id DESC").c_str());
  std::vector<RunInfo> out;
  while (st.step()) out.push_back(read_run(st, false));
  return out;
}

namespace {
std::vector<BootRef> query_boots(sqlite3* db, RunId run, const char* status_filter) {
  std::string sql =
      "SELECT b.id, c.cell_key, b.repeat, b.status, COALESCE(b.order_index, -1), b.attempts"
      " FROM boots b JOIN cells c ON c.id = b.cell_id WHERE c.run_id = ?";
  if (status_filter) sql += std::string(" AND b.status IN ") + status_filter;
  sql += " ORDER BY b.order_index IS NULL, b.order_index, b.id";
  Stmt st(db, sql.c_str());
  st.bind(1, run);
  std::vector<BootRef> out;
  while (st.step()) {
    BootRef b;
    st.columns(0, b.id, b.cell_id, b.repeat);
    b.status = parse_boot_status(st.text(3));
    st.columns(4, b.order_index, b.attempts);
    out.push_back(std::move(b));
  }
  return out;
}
}  // namespace

std::vector<BootRef> Store::boots(RunId run) const {
  Lock l(mu_);
  return query_boots(db_, run, nullptr);
}

std::vector<BootRef> Store::unfinished_boots(RunId run, bool include_failed) const {
  Lock l(mu_);
  return query_boots(db_, run,
                     include_failed ? "('pending','running','failed')" : "('pending','running')");
}

BootId Store::boot_id(RunId run, const std::string& cell_id, unsigned repeat) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT b.id FROM boots b JOIN cells c ON c.id = b.cell_id"
          " WHERE c.run_id = ? AND c.cell_key = ? AND b.repeat = ?");
  st.bind(1, run).bind(2, cell_id).bind(3, static_cast<std::int64_t>(repeat));
  if (!st.step())
    throw StoreError("run " + std::to_string(run) + " has no boot " + cell_id + " repeat " +
                     std::to_string(repeat));
  return st.i64(0);
}

namespace {
void require_changed(sqlite3* db, BootId boot) {
  if (sqlite3_changes(db) != 1) throw StoreError("no boot " + std::to_string(boot));
}
}  // namespace

void Store::start_boot(BootId boot, const std::string& host_uri, const std::string& domain,
                       const std::string& console_log) {
  Lock l(mu_);
  Tx tx(db_);
  Stmt(db_, "DELETE FROM passes WHERE boot_id = ?").bind(1, boot).run();
  Stmt(db_, "DELETE FROM samples WHERE boot_id = ?").bind(1, boot).run();
  Stmt(db_, "DELETE FROM results WHERE boot_id = ?").bind(1, boot).run();
  Stmt st(db_,
          "UPDATE boots SET status = 'running', attempts = attempts + 1, host_uri = ?,"
          " domain = ?, console_log = ?, started_at = ?, finished_at = NULL, boot_s = NULL"
          " WHERE id = ?");
  st.bind(1, host_uri).bind(2, domain).bind(3, console_log).bind(4, now_iso()).bind(5, boot).run();
  require_changed(db_, boot);
  tx.commit();
}

void Store::record_images(BootId boot, const KernelIdentity& k, const std::string& image_key) {
  Lock l(mu_);
  Tx tx(db_);
  const std::string now = now_iso();
  Stmt(db_,
       "INSERT INTO kernels (kernel_key, name, kernel_release, source_commit, config_sha256,"
       " page_size_kib, patchset, first_seen, origin) VALUES (?,?,?,?,?,?,?,?,?)"
       " ON CONFLICT(kernel_key) DO UPDATE SET origin = excluded.origin WHERE kernels.origin = ''")
      .bind(1, k.kernel_key).bind(2, k.name).bind(3, k.kernel_release).bind(4, k.source_commit)
      .bind(5, k.config_sha256).bind(6, static_cast<std::int64_t>(k.page_size_kib))
      .bind(7, k.patchset).bind(8, now).bind(9, k.origin).run();
  Stmt(db_, "INSERT INTO images (image_key, first_seen) VALUES (?, ?) ON CONFLICT DO NOTHING")
      .bind(1, image_key).bind(2, now).run();
  Stmt(db_, "UPDATE boots SET kernel_key = ?, image_key = ? WHERE id = ?")
      .bind(1, k.kernel_key).bind(2, image_key).bind(3, boot).run();
  require_changed(db_, boot);
  tx.commit();
}

void Store::record_hello(BootId boot, const Hello& h) {
  Lock l(mu_);
  Stmt(db_,
       "UPDATE boots SET guest_page_size = ?, guest_nr_cpus = ?, guest_kernel_release = ?,"
       " agent_version = ?, guest_mem_total_kib = ?, guest_tracepoints = ?, guest_init_s = ?,"
       " guest_agent_s = ?, guest_hello_s = ? WHERE id = ?")
      .bind(1, static_cast<std::int64_t>(h.page_size)).bind(2, static_cast<std::int64_t>(h.nr_cpus))
      .bind(3, h.kernel_release).bind(4, h.agent_version)
      .bind(5, static_cast<std::int64_t>(h.mem_total_kib)).bind(6, h.tracepoints_json)
      .bind(7, h.init_s).bind(8, h.agent_s).bind(9, h.hello_s)
      .bind(10, boot).run();
  require_changed(db_, boot);
}

void Store::record_boot_seconds(BootId boot, double seconds) {
  Lock l(mu_);
  Stmt(db_, "UPDATE boots SET boot_s = ? WHERE id = ?").bind(1, seconds).bind(2, boot).run();
  require_changed(db_, boot);
}

std::optional<double> Store::boot_seconds(BootId boot) const {
  Lock l(mu_);
  Stmt st(db_, "SELECT boot_s FROM boots WHERE id = ?");
  st.bind(1, boot);
  if (!st.step()) throw StoreError("no boot " + std::to_string(boot));
  if (st.is_null(0)) return std::nullopt;
  return st.real(0);
}

std::vector<BootPhases> Store::boot_phases(RunId run) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT b.id, c.cell_key, b.boot_s, b.guest_init_s, b.guest_agent_s, b.guest_hello_s FROM boots b"
          " JOIN cells c ON c.id = b.cell_id WHERE c.run_id = ? AND (b.boot_s IS NOT NULL OR b.guest_hello_s"
          " IS NOT NULL) ORDER BY b.order_index, b.id");
  st.bind(1, run);
  std::vector<BootPhases> out;
  while (st.step()) out.push_back({st.i64(0), st.text(1), st.opt_real(2), st.opt_real(3), st.opt_real(4), st.opt_real(5)});
  return out;
}


void Store::record_pass(BootId boot, const Pass& p) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT INTO passes (boot_id, pass, loops, failures, duration_s, lpm, latency_json,"
          " counters_json, inode_ags, agcount, inodes_seen, attribution_json, window_s)"
          " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
          " ON CONFLICT(boot_id, pass) DO UPDATE SET loops = excluded.loops,"
          " failures = excluded.failures, duration_s = excluded.duration_s, lpm = excluded.lpm,"
          " latency_json = excluded.latency_json, counters_json = excluded.counters_json,"
          " inode_ags = excluded.inode_ags, agcount = excluded.agcount, inodes_seen = excluded.inodes_seen,"
          " attribution_json = excluded.attribution_json, window_s = excluded.window_s");
  st.bind(1, boot).bind(2, static_cast<std::int64_t>(p.index))
      .bind(3, static_cast<std::int64_t>(p.loops)).bind(4, static_cast<std::int64_t>(p.failures))
      .bind(5, p.duration_s).bind(6, p.lpm).bind(7, p.latency_json).bind(8, p.counters_json);
  const auto opt = [&st](int i, auto v) {
    if (v) st.bind(i, static_cast<std::int64_t>(*v));
    else st.bind_null(i);
  };
  opt(9, p.inode_ags);
  opt(10, p.agcount);
  opt(11, p.inodes_seen);
  if (p.attribution_json) st.bind(12, *p.attribution_json);
  else st.bind_null(12);
  st.bind(13, p.window_s);
  st.run();
}

void Store::record_result(BootId boot, const Result& r, const Environment& e) {
  Lock l(mu_);
  Tx tx(db_);
  std::string marks = "?,?,?,?,?";
  for (std::size_t i = 0; i < kEnvFields.size(); ++i) marks += ",?";
  Stmt ins(db_, fmt::format("INSERT OR REPLACE INTO results (boot_id, score, failures,"
                            " failure_examples_json, recorded_at, {}) VALUES ({})",
                            detail::env_column_names(), marks).c_str());
  ins.bind(1, boot).bind(2, r.score).bind(3, static_cast<std::int64_t>(r.failures))
      .bind(4, r.failure_examples_json).bind(5, now_iso());
  detail::bind_env(ins, 6, e);
  ins.run();
  Stmt(db_, "UPDATE boots SET status = 'done', finished_at = ? WHERE id = ?")
      .bind(1, now_iso()).bind(2, boot).run();
  require_changed(db_, boot);
  tx.commit();
}

void Store::record_failure(BootId boot, FailurePhase phase, const std::string& message,
                           const std::string& console_tail) {
  Lock l(mu_);
  Tx tx(db_);
  const std::string now = now_iso();
  Stmt(db_,
       "INSERT INTO failures (boot_id, phase, message, console_tail, recorded_at)"
       " VALUES (?,?,?,?,?)")
      .bind(1, boot).bind(2, to_string(phase)).bind(3, message).bind(4, console_tail).bind(5, now).run();
  Stmt(db_, "UPDATE boots SET status = 'failed', finished_at = ? WHERE id = ?")
      .bind(1, now).bind(2, boot).run();
  require_changed(db_, boot);
  tx.commit();
}

std::vector<BootResult> Store::boot_results(RunId run) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT br.boot_id, br.cell_key, br.kernel, br.patchset, br.fs, br.mkfs_label,"
          " br.vcpus, br.workload, br.copies, br.repeat, br.status, br.score, br.loops,"
          " br.loop_failures, br.inodegc_throttle, COALESCE(br.guest_page_size, 0),"
          " COALESCE(br.guest_kernel_release, ''),"
          " (SELECT f.phase || ': ' || f.message FROM failures f WHERE f.boot_id = br.boot_id"
          "  ORDER BY f.id DESC LIMIT 1),"
          " (SELECT c.workload_kind FROM boots b JOIN cells c ON c.id = b.cell_id WHERE b.id = br.boot_id),"
          " (SELECT AVG(p.inode_ags) FROM passes p WHERE p.boot_id = br.boot_id),"
          " (SELECT MAX(p.agcount) FROM passes p WHERE p.boot_id = br.boot_id),"
          " (SELECT r.env_layout FROM results r WHERE r.boot_id = br.boot_id)"
          " FROM boot_results br WHERE br.run_id = ? ORDER BY br.boot_id");
  st.bind(1, run);
  std::vector<BootResult> out;
  while (st.step()) {
    BootResult b;
    st.columns(0, b.boot_id, b.cell_id, b.kernel, b.patchset, b.fs, b.mkfs_label, b.vcpus,
               b.workload, b.copies, b.repeat);
    b.status = parse_boot_status(st.text(10));
    if (b.status == BootStatus::done) st.columns(11, b.score);
    st.columns(12, b.loops, b.loop_failures);
    b.throttle_counted = !st.is_null(14);
    st.columns(14, b.inodegc_throttle, b.guest_page_size, b.kernel_release, b.failure,
               b.workload_kind, b.inode_ags, b.agcount, b.layout);
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace rlab::store
