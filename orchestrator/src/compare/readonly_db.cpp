#include "compare/readonly_db.hpp"

#include <sqlite3.h>

namespace rlab::compare {

bool Row::is_null(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
std::int64_t Row::i64(int col) const { return sqlite3_column_int64(st_, col); }
double Row::real(int col) const { return sqlite3_column_double(st_, col); }
std::string Row::text(int col) const {
  const auto* t = sqlite3_column_text(st_, col);
  return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
}

ReadOnlyDb::ReadOnlyDb(const std::filesystem::path& path) : path_(path) {
  if (!std::filesystem::exists(path))
    throw store::StoreError(path.string() + ": no results store");
  if (std::filesystem::is_directory(path))
    throw store::NotAStoreError(path.string() + ": is a directory, not a results store (name a file)");
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw store::StoreError(path.string() + ": open read-only: " + msg);
  }
  sqlite3_busy_timeout(db_, 10000);
  // An rlab store has user_version >= 1 (store::Store sets it); anything else is another
  // program's file, or not SQLite at all (SQLite reports that on the first statement).
  sqlite3_stmt* st = nullptr;
  std::int64_t version = -1;
  if (sqlite3_prepare_v2(db_, "PRAGMA user_version", -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    version = sqlite3_column_int64(st, 0);
  const std::string msg = version < 0 ? std::string(sqlite3_errmsg(db_)) : std::string();
  sqlite3_finalize(st);
  if (version < 1) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw store::NotAStoreError(path.string() + ": not an rlab results store (" +
                                (version < 0 ? "SQLite: " + msg : std::string("no rlab schema version")) +
                                "); left unchanged");
  }
}

ReadOnlyDb::~ReadOnlyDb() { sqlite3_close(db_); }

void ReadOnlyDb::query(const std::string& what, const char* sql, const std::vector<Param>& params,
                       const std::function<void(const Row&)>& on_row) const {
  auto fail = [&] {
    throw store::StoreError(path_.string() + ": " + what + ": " + sqlite3_errmsg(db_));
  };
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK) fail();
  struct Finalize {
    sqlite3_stmt* s;
    ~Finalize() { sqlite3_finalize(s); }
  } fin{st};
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int idx = static_cast<int>(i) + 1;
    int rc = SQLITE_OK;
    if (const auto* v = std::get_if<std::int64_t>(&params[i])) rc = sqlite3_bind_int64(st, idx, *v);
    else if (const auto* d = std::get_if<double>(&params[i])) rc = sqlite3_bind_double(st, idx, *d);
    else {
      const auto& s = std::get<std::string>(params[i]);
      rc = sqlite3_bind_text(st, idx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) fail();
  }
  const Row row(st);
  for (;;) {
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) fail();
    on_row(row);
  }
}

}  // namespace rlab::compare
