#pragma once
// The states the store keeps as text: a boot's status, a run's status and the phase a boot
// failed in. Each is an enum everywhere else and becomes its text (the schema's values,
// docs/store.md) only here, when it is written or read.
#include <string_view>

namespace rlab::store {

/// A boot's state (boots.status): pending, then running, then done or failed.
enum class BootStatus { pending, running, done, failed };

/// A run's state (runs.status): running, then done, failed (some boot failed) or interrupted.
enum class RunStatus { running, done, failed, interrupted };

/// Where a boot failed (failures.phase).
enum class FailurePhase {
  build,          ///< the cell's kernel or image could not be built
  boot,           ///< the domain could not be created or started
  hello,          ///< the agent's hello failed or disagrees with the cell (CPUs online)
  hello_timeout,  ///< no hello within the timeout
  page_size,      ///< the guest's page size is not the cell's
  prepare,        ///< mkfs or mount of the filesystem under test
  run,            ///< the load (an agent error, caches not dropped)
  timeout,        ///< the agent went silent during prepare or the load
  shutdown,       ///< the guest's shutdown
  host,           ///< the boot's host failed and was drained
  interrupted,    ///< SIGINT/SIGTERM: never stored (the boot stays running for --resume)
};

/// "pending", "running", "done", "failed".
std::string_view to_string(BootStatus s);
/// "running", "done", "failed", "interrupted".
std::string_view to_string(RunStatus s);
/// "build", "boot", "hello", "hello-timeout", "page-size", "prepare", "run", "timeout",
/// "shutdown", "host", "interrupted".
std::string_view to_string(FailurePhase p);

/// The status whose text is `text`. Throws StoreError naming the text otherwise (a store
/// another program wrote into).
BootStatus parse_boot_status(std::string_view text);
/// The run status whose text is `text`. Throws StoreError naming the text otherwise.
RunStatus parse_run_status(std::string_view text);
/// The failure phase whose text is `text`. Throws StoreError naming the text otherwise.
FailurePhase parse_failure_phase(std::string_view text);

}  // namespace rlab::store
