#pragma once
// Read queries for comparisons and histories: a run's scored boots with their environment
// and counters (compare, nightly, bisect reports), and a cell's scored boots over runs
// (changepoint). Plain rows; the SQL is store/'s (docs/store.md).
#include "store/store.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rlab::store {

/// One counted pass of a boot (a pass after its cell's warm-up passes), as the "what changed"
/// ranking reads it (attribution/profile.hpp).
struct CountedPass {
  std::uint64_t loops = 0;
  std::string counters_json = "{}";             ///< protocol Counters, totalled over the pass
  std::optional<std::string> attribution_json;  ///< protocol Attribution; nullopt when not collected
};

/// One done boot with a score, as comparisons read it.
struct ScoredBoot {
  BootId boot_id = 0;
  std::string cell_id;        ///< cells.cell_key
  std::string kernel;         ///< the matrix's kernel name
  std::string fs;
  std::string mkfs_label;
  unsigned vcpus = 0;
  std::string workload;       ///< the cell's workload name
  unsigned copies = 0;
  unsigned repeat = 0;
  double score = 0;           ///< lpm
  std::uint64_t loops = 0;    ///< loops over all passes
  std::string source_commit;  ///< kernels.source_commit ("" when not recorded)
  Environment env;            ///< the result's environment
  /// The boot's counted passes, by pass index.
  std::vector<CountedPass> passes;
  /// XFS: mean over the boot's passes of the allocation groups its load's inodes were seen in
  /// (passes.inode_ags); nullopt when no pass reported a placement.
  std::optional<double> inode_ags;
};

/// Every boot of run `run` that is done and has a score, ordered by cell id and repeat (none
/// for an unknown run). Throws StoreError.
std::vector<ScoredBoot> scored_boots(const Store& st, RunId run);

/// One scored boot of a cell in its history.
struct HistoryBoot {
  RunId run = 0;
  std::string created_at;      ///< the run's start, ISO 8601 UTC
  std::string kernel_release;  ///< as the guest reported it ("" when unknown)
  std::string source_commit;   ///< git SHA or Debian version ("" when unknown)
  double score = 0;            ///< lpm
  Environment env;             ///< the result's environment
  unsigned repeat = 0;         ///< the boot's repeat (round) in its run, 0-based
};

/// Cell ids with a scored boot in a run of `kind` ("" = every kind) whose id matches the
/// SQLite GLOB `glob` ("*" any text, "?" one character, "[...]"; "" matches all). Sorted.
std::vector<std::string> scored_cell_ids(const Store& st, const std::string& glob,
                                         const std::string& kind);

/// The scored boots of `cell_id` in runs of `kind` ("" = every kind), oldest run first (by
/// start, then id), each run's by repeat. Throws StoreError.
std::vector<HistoryBoot> cell_history(const Store& st, const std::string& cell_id,
                                      const std::string& kind);

}  // namespace rlab::store
