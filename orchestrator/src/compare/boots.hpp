#pragma once
// The scored boots of one run as comparisons need them: score, cell identity, the recorded
// environment (results.env_*) and the inodegc tracepoint totals, read from the store's
// `boot_results` view, `results` and `passes` tables (docs/store.md).
#include "compare/readonly_db.hpp"
#include "store/store.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::compare {

/// The environment's field names (store::kEnvFields, the one list), in BootData::env order.
using store::kEnvFields;

/// One boot with a result.
struct BootData {
  std::int64_t boot_id = 0;
  std::string cell_id;        ///< cells.cell_key
  std::string kernel;         ///< the matrix's kernel name
  std::string fs;
  std::string mkfs_label;
  unsigned vcpus = 0;
  std::string workload;
  unsigned copies = 0;
  unsigned repeat = 0;
  double score = 0;           ///< lpm
  std::uint64_t loops = 0;    ///< loops over all passes
  std::string source_commit;  ///< kernels.source_commit ("" when not recorded)
  std::array<std::string, kEnvFields.size()> env;  ///< env_* values as text, kEnvFields order
  /// Tracepoint hits summed over the boot's passes ("xfs:xfs_inodegc_queue" -> count); only
  /// events some pass reported.
  std::map<std::string, double> tracepoints;
  /// XFS: mean over the boot's passes of the allocation groups its load's inodes were seen in
  /// (passes.inode_ags); nullopt when no pass reported a placement.
  std::optional<double> inode_ags;
};

/// Every boot of run `run` with status "done" and a score, ordered by cell id and repeat.
/// Throws store::StoreError on a database error.
std::vector<BootData> load_boots(const ReadOnlyDb& db, std::int64_t run);

/// Whether run `run` exists.
bool run_exists(const ReadOnlyDb& db, std::int64_t run);

/// The newest run id (0 when the store holds none).
std::int64_t latest_run(const ReadOnlyDb& db);

}  // namespace rlab::compare
