#pragma once
// Which process owns a stored run, and the sweep of runs whose owner is gone. A process that
// boots a run's guests (`rlab run`, `rlab nightly`, a bisect step) holds an flock on
// `<store>.locks/run-<id>.lock` for as long as it does; the kernel drops the lock when the
// process dies, however it dies (SIGKILL, a crash, power loss). A stored run that still says
// `running` and whose lock nobody holds is dead: its guests (domains named with its run label,
// run_label()) are destroyed and it is marked `interrupted`, so `rlab run --resume` can finish
// it and nothing it left behind blocks the next night. docs/operations.md "Leftovers".
#include "store/store.hpp"
#include "util/file_lock.hpp"
#include "run/lab_host.hpp"

#include <filesystem>
#include <memory>
#include <vector>

namespace rlab::run {

/// `<db>.locks/run-<run>.lock`.
std::filesystem::path run_lock_path(const std::filesystem::path& db, store::RunId run);

/// Takes the lock of run `run` of store `db` for this process. Throws UsageError naming the
/// run when another live process holds it (e.g. a `--resume` of a run still running).
util::FileLock own_run(const std::filesystem::path& db, store::RunId run);

/// What a sweep found.
struct Swept {
  std::vector<store::RunId> runs;  ///< dead runs marked interrupted, ascending
  std::size_t domains = 0;         ///< their guests destroyed
};

/// Sweeps the dead runs of `st` recorded by this machine (runs.hostname): every run whose
/// status is `running` and whose lock is free. Their active domains on `hosts` are destroyed,
/// their host-side files removed (BootFiles::sweep: storage volumes) and they are marked
/// interrupted. A host that does not answer is skipped with a warning (its guests die with
/// it). Throws store::StoreError only.
Swept sweep_dead_runs(store::Store& st, const std::vector<LabHost*>& hosts);

}  // namespace rlab::run
