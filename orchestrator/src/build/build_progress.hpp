#pragma once
// Percentage and ETA of a running kernel build. `make` prints about one line per step (CC,
// AS, LD, AR, ...); a running build's line count is compared with the line count of an
// earlier build, which each kernel cache entry records in its manifest (`build_steps`; older
// entries: the lines of the build.log kept beside the Image). Times are in seconds.
#include "build/artifact_cache.hpp"
#include "build/progress.hpp"
#include "util/process.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rlab::build {

/// What a running build's steps are measured against.
struct StepBasis {
  std::size_t steps = 0;  ///< expected output lines of the whole build; 0: nothing to go by
  /// False only when the reference built the same source with the same .config (its step
  /// count is then what this build prints); true for any other kernel or the built-in figure.
  bool estimate = true;
  std::string from;       ///< where `steps` comes from, for people
};

/// Expected steps when the cache holds no earlier build: the lines `make Image` printed for
/// linux-source-6.12 (6.12.117-1) with images/kernel/base.config + 64k.config, built from an
/// empty object directory (docs/images.md; 1770 since base.config carries the KVM host's
/// options, 1426 before). An estimate for any other kernel or config.
inline constexpr std::size_t kTypicalBuildSteps = 1770;

/// Output lines a kernel cache entry's build printed: manifest `build_steps`, else the lines
/// of <entry>/build.log; 0 when neither is there or the build did not start from an empty
/// object directory (manifest `build_from_scratch: false`: too few lines to go by).
std::size_t entry_build_steps(const CacheEntry& entry);

/// The reference for a build of `source_identity` with the .config whose SHA-256 hex is
/// `config_sha256`, among `entries` (list_cache()): the newest kernel entry (manifest
/// `created`, seconds since the epoch) with the same source and config, else the newest
/// kernel entry of any kind (an estimate), else kTypicalBuildSteps (an estimate). Entries
/// without a step count (entry_build_steps() == 0) are passed over.
StepBasis choose_step_basis(const std::vector<CacheEntry>& entries, const std::string& source_identity,
                            const std::string& config_sha256);

/// Wall seconds a kernel build not in the cache is expected to take (`rlab run --dry-run`).
struct BuildTime {
  double seconds = 0;
  std::string from;  ///< where the figure comes from, for people
};

/// Wall seconds of a from-scratch kernel build on 2 cores with an empty ccache (README), used
/// when the cache records no build.
inline constexpr double kTypicalBuildSeconds = 600;

/// The longest recorded from-scratch build (manifest `build_seconds`) of `source_identity`
/// among `entries`, else of any kernel, else kTypicalBuildSeconds. The longest, because a
/// build that found most objects in ccache is much shorter than a cold one. Always an
/// estimate: the machine's load and ccache decide the real time.
BuildTime expected_build_time(const std::vector<CacheEntry>& entries, const std::string& source_identity);

/// Percent of `expected` steps done after `steps`, rounded down, at most 99 (a build is
/// done when make exits, not when it reaches its reference's count); nullopt when
/// `expected` is 0.
std::optional<unsigned> build_percent(std::size_t steps, std::size_t expected);

/// Seconds of a build before its rate is taken for an ETA (the first lines come in bursts).
inline constexpr double kMinEtaElapsedS = 10;

/// Seconds left when `steps` steps took `elapsed_s` seconds and `expected` are expected, at
/// that rate; nullopt when it cannot be told (under kMinEtaElapsedS seconds, no step yet, no
/// expectation, or already past it).
std::optional<double> build_eta_s(double elapsed_s, std::size_t steps, std::size_t expected);

/// The status of a running build after `elapsed_s` seconds and `steps` lines against
/// `basis`: "[ 120s, 400/1000 steps, 40%, ETA 3m00s]"; an estimated basis reads
/// "[ 120s, 400/~1000 steps, ~40%, ETA ~3m00s, estimate]"; past the reference's count or
/// with no basis the ETA is left out ("ETA ?").
std::string build_status(double elapsed_s, std::size_t steps, const StepBasis& basis);

/// What run_logged() ran.
struct LoggedRun {
  util::ProcessResult result;
  std::size_t lines = 0;  ///< complete output lines (steps) of the whole run
};

/// Runs `argv` with its output going to `opts.log_file` (which must be set); every `every`
/// reports ("build" phase) build_status() of the lines so far against `basis`, followed by
/// the newest output line. Throws what util::run() throws.
LoggedRun run_logged(const std::vector<std::string>& argv, const util::ProcessOptions& opts,
                     const StepBasis& basis, const Progress& progress, std::chrono::milliseconds every);

/// "1h02m", "4m10s", "35s" (`seconds` rounded; negative counts as 0).
std::string format_duration(double seconds);

}  // namespace rlab::build
