#include "bisect_driver/session.hpp"

#include "store/sqlite.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace rlab::bisect_driver {
using store::detail::Stmt;
using store::detail::exec;

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS bisect_sessions (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  tree TEXT NOT NULL,
  good_ref TEXT NOT NULL, bad_ref TEXT NOT NULL,
  good_commit TEXT NOT NULL, bad_commit TEXT NOT NULL,
  cell_id TEXT NOT NULL,
  matrix_path TEXT NOT NULL, matrix_text TEXT NOT NULL,
  direction TEXT NOT NULL,
  alpha REAL NOT NULL, min_effect REAL NOT NULL,
  initial_boots INTEGER NOT NULL, cap_boots INTEGER NOT NULL,
  commit_count INTEGER NOT NULL,
  status TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
  first_bad TEXT NOT NULL DEFAULT '', candidates_json TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS bisect_batch_commits (
  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  commit_sha TEXT NOT NULL,
  purpose TEXT NOT NULL,
  PRIMARY KEY (session_id, run_id, commit_sha));
CREATE TABLE IF NOT EXISTS bisect_steps (
  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),
  seq INTEGER NOT NULL,
  commit_sha TEXT NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('good', 'bad', 'skip')),
  samples INTEGER NOT NULL, median REAL NOT NULL, change_vs_good REAL NOT NULL,
  p_vs_good REAL NOT NULL, p_vs_bad REAL NOT NULL, reason TEXT NOT NULL,
  answered_at TEXT NOT NULL,
  good_median REAL NOT NULL DEFAULT 0, bad_median REAL NOT NULL DEFAULT 0,
  reference_samples INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (session_id, commit_sha));
)sql";

StepRow step_from(const Stmt& s) {
  StepRow r;
  r.seq = static_cast<int>(s.i64(0));
  r.commit = s.text(1);
  r.result = s.text(2);
  r.samples = static_cast<std::size_t>(s.i64(3));
  r.median = s.real(4);
  r.change_vs_good = s.real(5);
  r.p_vs_good = s.real(6);
  r.p_vs_bad = s.real(7);
  r.reason = s.text(8);
  r.good_median = s.real(9);
  r.bad_median = s.real(10);
  r.reference_samples = static_cast<std::size_t>(s.i64(11));
  return r;
}

constexpr const char* kStepCols =
    "seq, commit_sha, result, samples, median, change_vs_good, p_vs_good, p_vs_bad, reason,"
    " good_median, bad_median, reference_samples";

}  // namespace

std::string direction_name(bisect::Direction d) {
  return d == bisect::Direction::regression ? "regression" : "improvement";
}

bisect::Direction parse_direction(const std::string& s) {
  if (s == "regression") return bisect::Direction::regression;
  if (s == "improvement") return bisect::Direction::improvement;
  throw std::invalid_argument("direction '" + s + "': expected regression or improvement");
}

SessionDb::SessionDb(const std::filesystem::path& db) : path_(db), store_(store::Store::open(db)) {
  if (sqlite3_open_v2(db.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw store::StoreError(db.string() + ": opening for bisect sessions: " + msg);
  }
  sqlite3_busy_timeout(db_, 10000);
  exec(db_, "PRAGMA foreign_keys=ON;", "setting pragmas");
  exec(db_, kSchema, "creating the bisect tables");
}

SessionDb::~SessionDb() { sqlite3_close(db_); }

SessionId SessionDb::create(const SessionSpec& s) {
  Stmt st(db_,
          "INSERT INTO bisect_sessions (created_at, tree, good_ref, bad_ref, good_commit, bad_commit,"
          " cell_id, matrix_path, matrix_text, direction, alpha, min_effect, initial_boots, cap_boots,"
          " commit_count, status) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'ends')");
  st.bind(1, store::detail::now_iso()).bind(2, s.tree.string()).bind(3, s.good_ref).bind(4, s.bad_ref);
  st.bind(5, s.good_commit).bind(6, s.bad_commit).bind(7, s.cell_id).bind(8, s.matrix_path);
  st.bind(9, s.matrix_text).bind(10, direction_name(s.direction)).bind(11, s.alpha);
  st.bind(12, s.min_effect).bind(13, static_cast<std::int64_t>(s.initial));
  st.bind(14, static_cast<std::int64_t>(s.cap)).bind(15, static_cast<std::int64_t>(s.commit_count));
  st.run();
  return sqlite3_last_insert_rowid(db_);
}

std::optional<Session> SessionDb::get(SessionId id) const {
  Stmt st(db_,
          "SELECT id, created_at, tree, good_ref, bad_ref, good_commit, bad_commit, cell_id,"
          " matrix_path, matrix_text, direction, alpha, min_effect, initial_boots, cap_boots,"
          " commit_count, status, message, first_bad, candidates_json FROM bisect_sessions WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  Session s;
  s.id = st.i64(0);
  s.created_at = st.text(1);
  s.spec.tree = st.text(2);
  s.spec.good_ref = st.text(3);
  s.spec.bad_ref = st.text(4);
  s.spec.good_commit = st.text(5);
  s.spec.bad_commit = st.text(6);
  s.spec.cell_id = st.text(7);
  s.spec.matrix_path = st.text(8);
  s.spec.matrix_text = st.text(9);
  s.spec.direction = parse_direction(st.text(10));
  s.spec.alpha = st.real(11);
  s.spec.min_effect = st.real(12);
  s.spec.initial = static_cast<std::size_t>(st.i64(13));
  s.spec.cap = static_cast<std::size_t>(st.i64(14));
  s.spec.commit_count = static_cast<std::size_t>(st.i64(15));
  s.status = st.text(16);
  s.message = st.text(17);
  s.first_bad = st.text(18);
  s.candidates = nlohmann::json::parse(st.text(19)).get<std::vector<std::string>>();
  return s;
}

void SessionDb::set_status(SessionId id, const std::string& status, const std::string& message,
                           const std::string& first_bad, const std::vector<std::string>& candidates) {
  Stmt st(db_,
          "UPDATE bisect_sessions SET status = ?, message = ?, first_bad = ?, candidates_json = ?"
          " WHERE id = ?");
  st.bind(1, status).bind(2, message).bind(3, first_bad);
  st.bind(4, nlohmann::json(candidates).dump()).bind(5, id);
  st.run();
  if (sqlite3_changes(db_) != 1)
    throw store::StoreError(path_.string() + ": no bisect session " + std::to_string(id));
}

void SessionDb::add_batch(SessionId id, const std::string& commit, store::RunId run,
                          const std::string& purpose) {
  Stmt st(db_, "INSERT INTO bisect_batch_commits (session_id, run_id, commit_sha, purpose) VALUES (?,?,?,?)");
  st.bind(1, id).bind(2, run).bind(3, commit).bind(4, purpose);
  st.run();
}

std::vector<store::RunId> SessionDb::batches(SessionId id, const std::string& commit,
                                             const std::string& purpose) const {
  Stmt st(db_,
          "SELECT run_id FROM bisect_batch_commits WHERE session_id = ? AND commit_sha = ?"
          " AND (? = '' OR purpose = ?) ORDER BY run_id");
  st.bind(1, id).bind(2, commit).bind(3, purpose).bind(4, purpose);
  std::vector<store::RunId> out;
  while (st.step()) out.push_back(st.i64(0));
  return out;
}

std::vector<double> SessionDb::samples(SessionId id, const std::string& commit,
                                       const std::string& purpose) const {
  std::vector<double> out;
  const std::string kernel = commit.substr(0, 12);  // a batch's cells are named by it
  for (auto run : batches(id, commit, purpose))
    for (const auto& b : store_->boot_results(run))
      if (b.kernel == kernel && b.status == "done" && b.score) out.push_back(*b.score);
  return out;
}

std::string SessionDb::last_failure(SessionId id, const std::string& commit) const {
  std::string last;
  const std::string kernel = commit.substr(0, 12);
  for (auto run : batches(id, commit))
    for (const auto& b : store_->boot_results(run))
      if (b.kernel == kernel && b.status == "failed" && !b.failure.empty()) last = b.failure;
  return last;
}

int SessionDb::record_step(SessionId id, const StepRow& r) {
  int seq = 0;
  if (auto old = step(id, r.commit)) {
    seq = old->seq;
  } else {
    Stmt n(db_, "SELECT COALESCE(MAX(seq), 0) + 1 FROM bisect_steps WHERE session_id = ?");
    n.bind(1, id);
    n.step();
    seq = static_cast<int>(n.i64(0));
  }
  Stmt st(db_,
          "INSERT OR REPLACE INTO bisect_steps (session_id, seq, commit_sha, result, samples, median,"
          " change_vs_good, p_vs_good, p_vs_bad, reason, answered_at, good_median, bad_median,"
          " reference_samples) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  st.bind(1, id).bind(2, static_cast<std::int64_t>(seq)).bind(3, r.commit).bind(4, r.result);
  st.bind(5, static_cast<std::int64_t>(r.samples)).bind(6, r.median).bind(7, r.change_vs_good);
  st.bind(8, r.p_vs_good).bind(9, r.p_vs_bad).bind(10, r.reason).bind(11, store::detail::now_iso());
  st.bind(12, r.good_median).bind(13, r.bad_median).bind(14, static_cast<std::int64_t>(r.reference_samples));
  st.run();
  return seq;
}

std::optional<StepRow> SessionDb::step(SessionId id, const std::string& commit) const {
  Stmt st(db_, (std::string("SELECT ") + kStepCols +
                " FROM bisect_steps WHERE session_id = ? AND commit_sha = ?").c_str());
  st.bind(1, id).bind(2, commit);
  if (!st.step()) return std::nullopt;
  return step_from(st);
}

std::vector<StepRow> SessionDb::steps(SessionId id) const {
  Stmt st(db_, (std::string("SELECT ") + kStepCols +
                " FROM bisect_steps WHERE session_id = ? ORDER BY seq").c_str());
  st.bind(1, id);
  std::vector<StepRow> out;
  while (st.step()) out.push_back(step_from(st));
  return out;
}

}  // namespace rlab::bisect_driver
