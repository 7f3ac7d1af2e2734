#pragma once
// `rlab run --dry-run`: what a run of a matrix would do (cells, hosts, kernels to build and
// which are cached, boots, an estimate of the time) without building, booting or storing.
#include "build/build_progress.hpp"
#include "build/kernel_build.hpp"
#include "matrix/matrix.hpp"
#include "vm/domain_xml.hpp"

#include <filesystem>
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

/// What `rlab run` would do with a matrix. Times are wall seconds.
struct DryRun {
  matrix::Matrix m;
  std::vector<matrix::Cell> cells;
  std::size_t boots = 0;              ///< cells x repeats
  vm::Accel accel = vm::Accel::kTcg;  ///< `accel: auto` resolved on this machine
  unsigned vcpu_budget = 0;           ///< sum of the hosts' budgets
  std::vector<PlannedKernel> kernels; ///< in axis order
  std::filesystem::path store;        ///< the store a run would write (not opened)
  double build_s = 0;                 ///< kernels not in the cache, built one after another
  double boots_s = 0;                 ///< boots_estimate_s() of every boot
};

/// Loads and validates `matrix` as `rlab run` does (matrix::MatrixError, file:line:col), then
/// plans it; `db` overrides the matrix's `results:` when not empty. Opens no store, connects
/// to no host, fetches and builds nothing (build::plan_kernel()).
DryRun plan_dry_run(const std::filesystem::path& matrix, const std::filesystem::path& db);

/// The plan for people: validity, cells, hosts, kernels (in the cache or to build), the store,
/// and the estimate with its terms.
void render_dry_run(const DryRun& plan, std::ostream& out);

}  // namespace rlab::run
