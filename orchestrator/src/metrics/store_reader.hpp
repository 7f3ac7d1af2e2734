#pragma once
// The store as metrics see it: store::metrics_rows() shaped into a Snapshot. StoreReader opens
// its own read-only connection, so `rlab serve` can read a store another process is writing
// (WAL) without ever changing it.
#include "metrics/snapshot.hpp"
#include "store/store.hpp"

#include <filesystem>
#include <memory>
#include <optional>

namespace rlab::metrics {

/// The whole store: the latest result of every cell over all runs, the cells' totals over
/// all their results, boot outcomes and boot seconds of all runs (none from a store that
/// predates boots.boot_s), and progress of runs with status running. With `run`: only the
/// cells of that run, their latest result within that run (totals and outcomes still over
/// all runs, so counters stay monotonic), and that run's progress whatever its status.
/// Throws store::StoreError.
Snapshot read_snapshot(const store::Store& st, std::optional<store::RunId> run = std::nullopt);

/// A read-only store (store::Store::open_read_only) and its snapshots.
class StoreReader {
 public:
  /// Opens `db` read-only. Throws store::StoreError naming the file when it is not a regular
  /// file ("no results store here"), store::NotAStoreError when it is not an rlab store.
  explicit StoreReader(const std::filesystem::path& db);

  /// read_snapshot() of the store. Thread-safe.
  Snapshot read(std::optional<store::RunId> run = std::nullopt) const { return read_snapshot(*st_, run); }

  /// The read-only store (for the noise families, store::latest_noise_figures).
  const store::Store& store() const { return *st_; }
  /// The store's file.
  const std::filesystem::path& path() const { return st_->path(); }

 private:
  std::unique_ptr<store::Store> st_;
};

/// Parses an agent latency object ({"bounds_s": [...], "counts": [...], "sum_s": x});
/// nullopt when it is empty ("{}"), malformed or inconsistent (counts must have one entry
/// more than bounds_s, bounds strictly increasing).
std::optional<LatencyHistogram> parse_latency(const std::string& json);

}  // namespace rlab::metrics
