#pragma once
// A read-only SQLite connection to the results store (docs/store.md), for queries the
// Store interface does not offer. It never creates, migrates or writes the database.
#include "store/store.hpp"  // StoreError

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <variant>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace rlab::compare {

/// One bound parameter of a query (1-based, in order).
using Param = std::variant<std::int64_t, double, std::string>;

/// One result row; columns are 0-based.
class Row {
 public:
  explicit Row(sqlite3_stmt* st) : st_(st) {}
  bool is_null(int col) const;
  std::int64_t i64(int col) const;
  double real(int col) const;
  /// The column as text (numbers in SQLite's text form); "" for NULL.
  std::string text(int col) const;

 private:
  sqlite3_stmt* st_;
};

/// Read-only connection (SQLITE_OPEN_READONLY, 10 s busy timeout).
class ReadOnlyDb {
 public:
  /// Opens `path`; throws store::StoreError "<path>: no results store" when the file does not
  /// exist, or naming SQLite's message when it cannot be opened; store::NotAStoreError when
  /// it is not an rlab store (not SQLite, or without rlab's schema version). Never writes.
  explicit ReadOnlyDb(const std::filesystem::path& path);
  ~ReadOnlyDb();
  ReadOnlyDb(const ReadOnlyDb&) = delete;
  ReadOnlyDb& operator=(const ReadOnlyDb&) = delete;

  /// Runs `sql` with `params` and calls `on_row` for each row. Throws store::StoreError
  /// "<path>: <what>: <message>" on any SQLite error.
  void query(const std::string& what, const char* sql, const std::vector<Param>& params,
             const std::function<void(const Row&)>& on_row) const;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

}  // namespace rlab::compare
