#pragma once
// Raw SQL on a store file, for tests that check what rlab wrote (or plant what it must read)
// without going through store/: the one place tests use the SQLite C API.
#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlab::test {

/// Runs `sql` (one statement or several) on `db`, creating the file when missing.
/// Throws std::runtime_error "<db>: <SQLite's message>".
inline void sql_exec(const std::filesystem::path& db, const std::string& sql) {
  sqlite3* h = nullptr;
  const int open = sqlite3_open(db.c_str(), &h);
  char* err = nullptr;
  const int rc = open == SQLITE_OK ? sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err) : open;
  const std::string msg = err ? err : sqlite3_errmsg(h);
  sqlite3_free(err);
  sqlite3_close(h);
  if (rc != SQLITE_OK) throw std::runtime_error(db.string() + ": " + msg);
}

/// Every row `sql` gives on `db` opened read-only (waiting up to 10 s for a writer), each
/// column as text, NULL as `null_text`. Throws std::runtime_error "<db>: <SQLite's message>"
/// when the file does not open or the statement does not compile.
inline std::vector<std::vector<std::string>> sql_rows(const std::filesystem::path& db, const std::string& sql,
                                                      const std::string& null_text = "NULL") {
  sqlite3* h = nullptr;
  sqlite3_stmt* st = nullptr;
  std::vector<std::vector<std::string>> out;
  int rc = sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(h, 10000);
    rc = sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr);
  }
  while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    auto& row = out.emplace_back();
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const unsigned char* t = sqlite3_column_text(st, c);
      row.emplace_back(t ? reinterpret_cast<const char*>(t) : null_text);
    }
    rc = SQLITE_OK;
  }
  const std::string msg = sqlite3_errmsg(h);
  sqlite3_finalize(st);
  sqlite3_close(h);
  if (rc != SQLITE_DONE) throw std::runtime_error(db.string() + ": " + msg + " (" + sql + ")");
  return out;
}

/// The first column of sql_rows().
inline std::vector<std::string> sql_column(const std::filesystem::path& db, const std::string& sql,
                                           const std::string& null_text = "NULL") {
  std::vector<std::string> out;
  for (auto& row : sql_rows(db, sql, null_text)) out.push_back(row.empty() ? null_text : row[0]);
  return out;
}

}  // namespace rlab::test
