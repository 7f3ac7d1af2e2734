#pragma once
// `rlab run --dry-run`: what a run of a matrix would do (cells, hosts, kernels to build and
// which are cached, boots, an estimate of the time) without building, booting or storing.
#include "build/build_progress.hpp"
#include "build/kernel_build.hpp"
#include "matrix/matrix.hpp"
#include "run/clock.hpp"
#include "vm/domain_xml.hpp"

#include <filesystem>
#include <optional>
#include <utility>
#include <ostream>
#include <string>
#include <vector>

namespace rlab::run {

/// One kernel of the matrix's `kernel` axis.
struct PlannedKernel {
  std::string name;
  build::KernelPlan plan;   ///< source revision, cache key, cached or not
  std::size_t boots = 0;    ///< boots of its cells
  build::BuildTime build;   ///< expected build time (counted only when not cached)
};

/// One host of the matrix as its libvirt answered the dry run.
struct PlannedHost {
  matrix::Host host;
  std::string unreachable;            ///< why it did not answer ("" when it did)
  std::string caps;                   ///< vm::describe() of its capabilities, when it answered
  std::string files;                  ///< BootFiles::describe(), when it answered
  std::string files_error;            ///< LabHost::files_error: a run refuses the matrix
  std::optional<vm::Accel> accel;     ///< what boots get there; nullopt: refusal
  std::string refusal;                ///< why the matrix's guest cannot run there at all
  /// Cells it cannot run and why (host_fit.hpp), in cell order.
  std::vector<std::pair<std::string, std::string>> refused_cells;
};

/// What `rlab run` would do with a matrix. Times are wall seconds.
struct DryRun {
  matrix::Matrix m;
  std::vector<matrix::Cell> cells;
  std::size_t boots = 0;              ///< cells x repeats
  vm::Accel accel = vm::Accel::kTcg;  ///< the first answering host's accelerator (else this machine's)
  unsigned vcpu_budget = 0;           ///< sum of the budgets of the hosts that answered (all when none did)
  std::vector<PlannedKernel> kernels; ///< in axis order
  std::vector<PlannedHost> hosts;     ///< in matrix order
  /// `guest.clock: auto` settled against the hosts (run/clock.hpp): what each answered; empty
  /// when the matrix fixes its clock.
  std::vector<HostClock> clocks;
  /// Why `clock: auto` cannot be settled (the hosts disagree, or none can run the guest): a
  /// run refuses the matrix; the plan then assumes this machine's accelerator.
  std::string clock_error;
  /// Cells no answering host can run (a run refuses them before any boot).
  std::vector<std::string> unrunnable;
  /// Pairs of hosts that report the same host UUID (one machine's CPUs counted twice).
  std::vector<std::pair<std::string, std::string>> same_machine;
  /// Whether `rlab run` would refuse the matrix before any boot (unrunnable cells, a host's
  /// files error): the dry run then exits 2.
  bool refused() const;
  std::filesystem::path store;        ///< the store a run would write (not opened)
  double build_s = 0;                 ///< kernels not in the cache, built one after another
  double boots_s = 0;                 ///< boots_estimate_s() of every boot
};

/// Loads and validates `matrix` as `rlab run` does (matrix::MatrixError, file:line:col), then
/// plans it; `db` overrides the matrix's `results:` when not empty. Asks each host's libvirt
/// what it can run (read-only: capabilities, node info, the storage pool's existence); opens
/// no store, fetches, builds and boots nothing (build::plan_kernel()).
DryRun plan_dry_run(const std::filesystem::path& matrix, const std::filesystem::path& db);

/// The plan for people: validity, cells, hosts, kernels (in the cache or to build), the store,
/// and the estimate with its terms.
void render_dry_run(const DryRun& plan, std::ostream& out);

}  // namespace rlab::run
