#include "store/sqlite.hpp"

#include <chrono>
#include <ctime>

namespace rlab::store::detail {

void throw_error(sqlite3* db, const std::string& what) {
  const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
  throw StoreError(std::string(file && *file ? file : "(store)") + ": " + what + ": " +
                   (db ? sqlite3_errmsg(db) : "out of memory"));
}

void exec(sqlite3* db, const char* sql, const std::string& what) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    const char* file = sqlite3_db_filename(db, "main");
    throw StoreError(std::string(file && *file ? file : "(store)") + ": " + what + ": " + msg);
  }
}

Stmt::Stmt(sqlite3* db, const char* sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK)
    throw_error(db, std::string("preparing \"") + sql + "\"");
}

Stmt::~Stmt() { sqlite3_finalize(st_); }

Stmt& Stmt::bind(int i, std::int64_t v) {
  if (sqlite3_bind_int64(st_, i, v) != SQLITE_OK) throw_error(db_, "binding");
  return *this;
}
Stmt& Stmt::bind(int i, double v) {
  if (sqlite3_bind_double(st_, i, v) != SQLITE_OK) throw_error(db_, "binding");
  return *this;
}
Stmt& Stmt::bind(int i, std::string_view v) {
  if (sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) !=
      SQLITE_OK)
    throw_error(db_, "binding");
  return *this;
}
Stmt& Stmt::bind_null(int i) {
  if (sqlite3_bind_null(st_, i) != SQLITE_OK) throw_error(db_, "binding");
  return *this;
}

bool Stmt::step() {
  int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw_error(db_, "executing \"" + sql_.substr(0, 60) + "...\"");
}

void Stmt::run() {
  if (step()) throw StoreError("statement returned rows: " + sql_);
}

std::int64_t Stmt::i64(int col) const { return sqlite3_column_int64(st_, col); }
double Stmt::real(int col) const { return sqlite3_column_double(st_, col); }
std::optional<double> Stmt::opt_real(int col) const {
  return is_null(col) ? std::nullopt : std::optional<double>(real(col));
}
Stmt& Stmt::bind(int i, const std::optional<double>& v) { return v ? bind(i, *v) : bind_null(i); }
Stmt& Stmt::bind(int i, const std::optional<std::int64_t>& v) { return v ? bind(i, *v) : bind_null(i); }
std::string Stmt::text(int col) const {
  const unsigned char* t = sqlite3_column_text(st_, col);
  return t ? std::string(reinterpret_cast<const char*>(t),
                         static_cast<std::size_t>(sqlite3_column_bytes(st_, col)))
           : std::string();
}
bool Stmt::is_null(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }

Tx::Tx(sqlite3* db) : db_(db) { exec(db, "BEGIN IMMEDIATE", "beginning a transaction"); }
Tx::~Tx() {
  if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}
void Tx::commit() {
  exec(db_, "COMMIT", "committing");
  done_ = true;
}

ReadTx::ReadTx(sqlite3* db) : db_(db) { sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr); }
ReadTx::~ReadTx() { sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr); }

bool has_table(sqlite3* db, std::string_view table) {
  Stmt st(db, "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?");
  st.bind(1, table);
  return st.step() && st.i64(0) > 0;
}

bool has_column(sqlite3* db, std::string_view table, std::string_view column) {
  Stmt st(db, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?");
  st.bind(1, table).bind(2, column);
  return st.step() && st.i64(0) > 0;
}

std::int64_t last_insert_id(sqlite3* db) { return sqlite3_last_insert_rowid(db); }
int changes(sqlite3* db) { return sqlite3_changes(db); }

std::string now_iso() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03lldZ", buf, static_cast<long long>(ms));
  return out;
}

}  // namespace rlab::store::detail
