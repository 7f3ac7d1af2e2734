#pragma once
// `rlab run`: a matrix (or an unfinished stored run) -> a store run with its boots in order ->
// run::run_batch (run/batch.hpp: hosts, guest images, boots scheduled onto the matrix's libvirt
// hosts) -> results in the store. `rlab noise`, `rlab fidelity` and the nightly run through here.
#include "run/batch.hpp"
#include "run/progress.hpp"
#include "run/run_dir.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/usage_error.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlab::run {

/// Some cells of a matrix measured in a fixed, interleaved order, one boot at a time on the
/// matrix's first host (`rlab noise`): run::interleaved_order over the cells in the given order
/// (A B, B A, A B, ...), so a linear drift of the host affects every cell alike.
struct Selection {
  std::vector<std::string> cell_ids;  ///< ids of the matrix's cells, each once
  unsigned repeats = 1;               ///< boots per cell
  std::string note;                   ///< the store's run note
};

/// What to run.
struct RunOptions {
  std::filesystem::path matrix;               ///< matrix file (new run; for --resume it names the store)
  std::optional<store::RunId> resume;         ///< continue this run's unfinished boots
  bool retry_failed = false;                  ///< with resume: run failed boots again too
  std::filesystem::path db;                   ///< store override; "" -> the matrix's `results:`
  std::filesystem::path agent_binary;         ///< "" -> image::default_agent_binary()
  std::string kind = "matrix";                ///< store run kind of a new run ("matrix", "nightly")
  std::optional<Selection> selection;         ///< new run of these cells only (no resume)
  /// Called once each time every boot of repeats 0..r-1 has finished (done or failed), with
  /// the run and r, while later repeats still run (not after the last one): an interim
  /// results table can be shown. From a scheduler thread, one call at a time.
  std::function<void(const std::filesystem::path& db, store::RunId run, unsigned rounds_done, unsigned rounds)> on_round;
};

/// Runs a matrix or resumes a run. Throws matrix::MatrixError for a bad matrix (nothing
/// booted), UsageError for a bad resume id, a selection naming no cell of the
/// matrix, or pinning that would oversubscribe a host (host/pinning.hpp; the run is then
/// stored as failed before any boot), HostsDrainedError when no host can be reached or every
/// host was drained during the run (a host that fails is drained and its boots move to the
/// others: RunSummary::drained), DiskFullError when a kernel build ran out of disk (the run
/// stored as failed, to be resumed), store::StoreError when the store cannot be written. Other
/// kernel build failures are recorded as failed boots (phase "build") of that kernel's cells
/// and the run goes on.
RunSummary execute(const RunOptions& options, Progress& progress);

}  // namespace rlab::run
