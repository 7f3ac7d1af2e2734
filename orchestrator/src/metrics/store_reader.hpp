#pragma once
// Read-only SQL over the results store (schema: store/schema.cpp, docs/store.md). Opens its
// own read-only connection, so `rlab serve` can read a store another process is writing (WAL).
#include "metrics/snapshot.hpp"
#include "store/store.hpp"

#include <filesystem>
#include <mutex>
#include <optional>

struct sqlite3;

namespace rlab::metrics {

/// A read-only connection to a store file.
class StoreReader {
 public:
  /// Opens `db` read-only. Throws store::StoreError naming the file when it does not exist
  /// or is not an rlab store (no `runs` table).
  explicit StoreReader(const std::filesystem::path& db);
  ~StoreReader();
  StoreReader(const StoreReader&) = delete;
  StoreReader& operator=(const StoreReader&) = delete;

  /// The whole store: the latest result of every cell over all runs, the cells' totals over
  /// all their results, boot outcomes and boot seconds of all runs (none from a store that
  /// predates boots.boot_s: serve never changes a store), and progress of runs with status
  /// "running". With `run`: only the cells of that run, their latest result within that run
  /// (totals and outcomes still over all runs, so counters stay monotonic), and that run's
  /// progress whatever its status. Thread-safe. Throws store::StoreError on SQL errors.
  Snapshot read(std::optional<store::RunId> run = std::nullopt) const;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  bool has_boot_s_ = false;  ///< boots.boot_s exists (schema version 2 and later)
  mutable std::mutex mu_;
};

/// Parses an agent latency object ({"bounds_s": [...], "counts": [...], "sum_s": x});
/// nullopt when it is empty ("{}"), malformed or inconsistent (counts must have one entry
/// more than bounds_s, bounds strictly increasing).
std::optional<LatencyHistogram> parse_latency(const std::string& json);

}  // namespace rlab::metrics
