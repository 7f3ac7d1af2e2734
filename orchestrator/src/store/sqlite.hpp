#pragma once
// Thin RAII helpers over the SQLite C API. Internal to store/.
#include "store/store.hpp"

#include <sqlite3.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rlab::store::detail {

/// The store's mutex held for one operation.
using Lock = std::lock_guard<std::mutex>;

/// Throws StoreError "<db file>: <what>: <sqlite message>".
[[noreturn]] void throw_error(sqlite3* db, const std::string& what);

/// Runs one or more statements without results.
void exec(sqlite3* db, const char* sql, const std::string& what);

/// A prepared statement; binds are 1-based, columns 0-based.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, std::int64_t v);
  Stmt& bind(int i, double v);
  Stmt& bind(int i, std::string_view v);
  Stmt& bind_null(int i);
  /// Binds `v`, or NULL when it is nullopt.
  Stmt& bind(int i, const std::optional<double>& v);
  /// Binds `v`, or NULL when it is nullopt.
  Stmt& bind(int i, const std::optional<std::int64_t>& v);
  /// Steps once: true when a row is available, false when done. Throws StoreError.
  bool step();
  /// step() that must finish without rows (INSERT/UPDATE/DELETE).
  void run();

  std::int64_t i64(int col) const;
  double real(int col) const;
  std::string text(int col) const;
  bool is_null(int col) const;
  /// The column as a double, nullopt when it is NULL.
  std::optional<double> opt_real(int col) const;

  /// Steps to the last row; `read(stmt)` makes one Row of each row, in order.
  template <class Row, class Read>
  std::vector<Row> rows(Read&& read) {
    std::vector<Row> out;
    while (step()) out.push_back(read(static_cast<const Stmt&>(*this)));
    return out;
  }
  /// Binds `v...` to parameters 1..N in order (integers as INTEGER, doubles as REAL, strings
  /// as TEXT, nullopt as NULL).
  template <class... T>
  Stmt& binds(const T&... v) {
    int i = 1;
    (bind_one(i++, v), ...);
    return *this;
  }
  /// Reads columns `from`..`from`+N-1 of the current row into `out...` in order: integral
  /// fields from INTEGER (cast to the field's type), doubles from REAL, strings from TEXT,
  /// a std::optional field nullopt for NULL.
  template <class... T>
  void columns(int from, T&... out) const {
    int c = from;
    (read_one(c++, out), ...);
  }

 private:
  template <class T>
  void bind_one(int i, const T& v) {
    if constexpr (std::is_integral_v<T>) bind(i, static_cast<std::int64_t>(v));
    else bind(i, v);
  }
  void read_one(int c, std::string& v) const { v = text(c); }
  void read_one(int c, double& v) const { v = real(c); }
  template <class T>
  void read_one(int c, std::optional<T>& v) const {
    if (is_null(c)) return v.reset();
    T x{};
    read_one(c, x);
    v = std::move(x);
  }
  template <class T>
  requires std::is_integral_v<T>
  void read_one(int c, T& v) const { v = static_cast<T>(i64(c)); }

  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
  std::string sql_;
};

/// BEGIN IMMEDIATE ... COMMIT; rolls back in the destructor unless commit() ran.
class Tx {
 public:
  explicit Tx(sqlite3* db);
  ~Tx();
  void commit();

 private:
  sqlite3* db_;
  bool done_ = false;
};

/// A read transaction (BEGIN ... COMMIT): the queries between see one state of a store other
/// processes write. Failing to begin or end one only loses that guarantee.
class ReadTx {
 public:
  explicit ReadTx(sqlite3* db);
  ~ReadTx();
  ReadTx(const ReadTx&) = delete;
  ReadTx& operator=(const ReadTx&) = delete;

 private:
  sqlite3* db_;
};

/// The connection and mutex of a Store, for store/'s own source files.
struct Access {
  static sqlite3* db(const Store& s) { return s.db_; }
  static std::mutex& mutex(const Store& s) { return s.mu_; }
};

/// A Store's connection, held under the store's mutex for one operation.
class Locked {
 public:
  explicit Locked(const Store& s) : lock_(Access::mutex(s)), db_(Access::db(s)) {}
  sqlite3* db() const { return db_; }

 private:
  std::lock_guard<std::mutex> lock_;
  sqlite3* db_;
};

/// Whether the database has a table (or view) named `table`.
bool has_table(sqlite3* db, std::string_view table);
/// Whether `table` has a column `column` (false when there is no such table).
bool has_column(sqlite3* db, std::string_view table, std::string_view column);
/// The rowid of the last INSERT on `db`.
std::int64_t last_insert_id(sqlite3* db);
/// Rows the last INSERT, UPDATE or DELETE on `db` changed.
int changes(sqlite3* db);

/// Current UTC time as ISO 8601 with milliseconds.
std::string now_iso();

}  // namespace rlab::store::detail
