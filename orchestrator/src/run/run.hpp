#pragma once
// `rlab run`: a matrix (or an unfinished stored run) -> guest images -> boots scheduled onto
// the matrix's libvirt hosts -> results in the store.
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

/// A host taken out of a run: it could not be reached, or it failed under a boot
/// (run/scheduler.hpp). Its boots moved to the other hosts.
struct DrainedHostInfo {
  std::string uri;
  std::string reason;   ///< the failure that drained it (libvirt's message)
};

/// Every host of a run was drained: a lab failure (exit 3). Everything measured is stored;
/// the boots not run stay for `rlab run --resume`. what() names each host and why.
struct HostsDrainedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// How a run went.
struct RunSummary {
  store::RunId run = 0;
  std::filesystem::path db;       ///< the store written
  std::size_t boots = 0;          ///< boots attempted in this invocation
  std::size_t done = 0;
  std::size_t failed = 0;
  bool interrupted = false;       ///< SIGINT/SIGTERM arrived; the guests were destroyed
  double wall_s = 0;              ///< from the first boot's start to the last one's end
  double load_vcpu_s = 0;         ///< sum over boots of vCPUs x measured pass seconds (guest clock)
  double load_host_vcpu_s = 0;    ///< sum over boots of vCPUs x host seconds of the passes (BootOutcome)
  unsigned vcpu_budget = 0;       ///< sum of the hosts' budgets
  double boot_to_hello_s = 0;     ///< mean over boots that said hello
  std::size_t leftover_domains = 0;  ///< rlab domains of this run still active at the end (0)
  std::vector<DrainedHostInfo> drained;  ///< hosts taken out of the run, in the order it happened
};

/// Runs a matrix or resumes a run. Throws matrix::MatrixError for a bad matrix (nothing
/// booted), UsageError for a bad resume id, a selection naming no cell of the
/// matrix, or pinning that would oversubscribe a host (host/pinning.hpp; the run is then
/// stored as failed before any boot), HostsDrainedError when no host can be reached or every
/// host was drained during the run (a host that fails is drained and its boots move to the
/// others: RunSummary::drained), store::StoreError when the store cannot be written. Kernel build failures are
/// recorded as failed boots (phase "build") of that kernel's cells and the run goes on.
RunSummary execute(const RunOptions& options, Progress& progress);

}  // namespace rlab::run
