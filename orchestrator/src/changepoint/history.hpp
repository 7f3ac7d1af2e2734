#pragma once
// A cell's history across runs: one point per run (the median score of its scored boots),
// oldest first, from the store's history of the cell (store::cell_history, docs/store.md).
#include "store/readers.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rlab::changepoint {

/// One run of a cell.
struct HistoryPoint {
  std::int64_t run = 0;
  std::string created_at;      ///< the run's start, ISO 8601 UTC
  std::string kernel_release;  ///< as the guest reported it ("" when unknown)
  std::string source_commit;   ///< kernels.source_commit: git SHA or Debian version ("" when unknown)
  std::size_t boots = 0;       ///< scored boots of the cell in the run
  double score = 0;            ///< median lpm over those boots
  store::Environment env;      ///< the environment of the run's first scored boot
};

/// A cell's points, oldest first (by run start, then run id).
struct CellHistory {
  std::string cell_id;
  std::vector<HistoryPoint> points;
};

/// Cell ids with at least one scored boot in a run of `kind` ("" = every kind) whose cell id
/// matches `selector`, a SQLite GLOB pattern ("*" any text, "?" one character, "[...]"); ""
/// matches all. Sorted.
std::vector<std::string> matching_cells(const store::Store& st, const std::string& selector,
                                        const std::string& kind);

/// The history of `cell_id` over runs of `kind` ("" = every kind). Throws store::StoreError.
CellHistory load_history(const store::Store& st, const std::string& cell_id,
                         const std::string& kind);

}  // namespace rlab::changepoint
