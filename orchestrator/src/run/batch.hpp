#pragma once
// The one batch runner. A batch is a stored run whose cells and boots are in the store, and
// its boots in the order they should start; run_batch() carries it out in the same steps for
// every caller:
//
//   survey_hosts    the matrix's hosts opened; which answered, which cells each can run
//   choose_hosts    all of them, or the first that runs every cell (HostUse)
//   prepare_hosts   the run directory, leftover guests of a resumed run, dead runs swept
//   build_images    each kernel's guest images, once, before anything boots
//   boot_all        run::schedule within the hosts' vCPU budgets: pinned, created paused,
//                   a failing host drained and its boots moved, a stop signal obeyed
//   close_batch     leftover guests destroyed, the run's status stored
//
// `rlab run` (and noise, fidelity, the nightly through it) and a bisection's batches
// (kernel_bisect/vm_lab.hpp) differ only in the Batch (which cells, which order, which hosts,
// whether a kernel that does not build stops the batch) and in the BatchSink (where each
// boot's result goes besides the store). `rlab run --dry-run` runs the first step and stops.
#include "matrix/matrix.hpp"
#include "run/boot.hpp"
#include "run/lab_host.hpp"
#include "run/scheduler.hpp"
#include "store/store.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rlab::run {

/// The matrix's hosts as a run finds them before it boots (read-only libvirt calls).
struct HostSurvey {
  std::vector<LabHost> answering;           ///< the hosts that answered, in matrix order
  /// Per matrix host, in matrix order: why it did not answer; "" when it did (then it is the
  /// next one of `answering`).
  std::vector<std::string> silence;
  std::vector<UnreachableHost> unreachable;  ///< the hosts that did not answer, in matrix order
  /// [cell][answering host]: whether that host can run that cell (LabHost::cell_refusal).
  std::vector<std::vector<char>> runs;
  std::vector<std::string> unrunnable;      ///< ids of cells no answering host can run
  std::vector<std::pair<std::string, std::string>> same_machine;  ///< same_machines(answering)
};

/// Opens every host of `m` (open_lab_host) and asks each which of `cells` it can run. A host
/// that does not answer is listed, not thrown. Throws nothing else but std::bad_alloc.
HostSurvey survey_hosts(const matrix::Matrix& m, const std::vector<matrix::Cell>& cells);

/// Which of the surveyed hosts a batch boots on.
enum class HostUse {
  kAll,           ///< every host that answers, each within its vCPU budget (`rlab run`)
  kFirstFitting,  ///< the first that can run every cell, within its budget (a bisection's batch)
  kOneAtATime,    ///< the first that can run every cell, one boot at a time (`rlab noise`)
};

/// A batch to run: boots already stored under `run` in `st`.
struct Batch {
  store::Store* st = nullptr;
  store::RunId run = 0;
  const matrix::Matrix* m = nullptr;   ///< hosts, guest (clock settled), pinning, cache budget
  std::vector<matrix::Cell> cells;     ///< Job::cell indexes these
  std::vector<Job> order;              ///< the boots, in the order they start
  HostUse hosts = HostUse::kAll;
  /// A kernel that does not build stops the whole batch before any boot (a bisection: no boot
  /// is spent on a step that cannot be answered); otherwise only its own cells fail.
  bool every_kernel_or_none = false;
  bool resumed = false;                ///< the run's guests of an earlier process are destroyed first
  std::filesystem::path agent;         ///< the static aarch64 agent; "" -> image::default_agent_binary()
  /// Appended to the error when every host was drained: how to continue.
  std::string resume_hint;
};

/// Where a batch's events go besides the store (progress lines, interim tables, samples).
/// Calls come from scheduler threads, one at a time.
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  /// A line of kernel `kernel`'s build (image::ensure_guest_images' phases).
  virtual void building(const std::string& kernel, std::string_view phase, std::string_view detail) = 0;
  /// Kernel `kernel`'s images are ready after `seconds` (a cached kernel: a lookup).
  virtual void built(const std::string& kernel, double seconds) { (void)kernel, (void)seconds; }
  /// Kernel `kernel` did not build: `why` is the build's error (its boots are stored as failed).
  virtual void not_built(const std::string& kernel, const std::string& why) { (void)kernel, (void)why; }
  /// `boots` boots are about to start, expected to take `estimate_s` wall seconds in all.
  virtual void starting(std::size_t boots, double estimate_s) { (void)boots, (void)estimate_s; }
  /// Boot `job` is in `phase` ("boot", "hello", "run pass 1/3", or that its host failed).
  virtual void phase(const Job& job, std::string_view phase) { (void)job, (void)phase; }
  /// Boot `job` ended on a host that still answers (ok or failed), its result stored.
  virtual void finished(const Job& job, const BootOutcome& outcome) = 0;
  /// Boot `job`'s hosts failed under it and it was not moved again (stored as failed).
  virtual void abandoned(const Job& job) { (void)job; }
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

/// How a batch went.
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
  unsigned vcpu_budget = 0;       ///< sum of the budgets of the hosts booted on
  double boot_to_hello_s = 0;     ///< mean over boots that said hello
  std::size_t leftover_domains = 0;  ///< rlab domains of this run still active at the end (0)
  std::vector<DrainedHostInfo> drained;  ///< hosts taken out of the run, in the order it happened
  std::vector<std::string> kernels_failed;  ///< kernels whose images could not be built
};

/// Runs `batch` (the steps above) and stores its status: interrupted, failed (a boot or a
/// kernel failed) or done. The caller holds the run (run/owner.hpp). Throws UsageError when a
/// cell can run on no answering host, or pinning would oversubscribe a host (nothing booted;
/// the run stored as failed), HostsDrainedError when no host answers or every host was drained
/// (everything measured stored), DiskFullError when a kernel build ran out of disk (the lab's
/// fault, not the kernel's: the run stored as failed, its boots left to resume),
/// store::StoreError when the store cannot be written.
RunSummary run_batch(const Batch& batch, BatchSink& sink);

}  // namespace rlab::run
