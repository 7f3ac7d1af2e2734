#pragma once
// Test data for the metrics tests: stores filled through the Store API with runs shaped
// like real ones (DESIGN "Statistics": ~145 lpm at 1 vCPU, ~270 at 2 under TCG, 11-12%
// boot-to-boot noise; 3 passes of 30 s; agent counters and latency histograms as
// docs/protocol.md defines them; XFS counts only on XFS cells).
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "sql.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace rlab::metrics::test {

/// The test matrix: kernels `kernels` x {xfs agcount=4, ext4 defaults} x {1, 2} vCPUs x
/// shell1 with copies = vCPUs, 3 passes of 30 s, 64K pages.
std::vector<matrix::Cell> cells(const std::vector<std::string>& kernels = {"6.12", "6.12+inline-inactivation"});

/// What fill_run() should do.
struct RunShape {
  std::vector<matrix::Cell> cells = test::cells();
  unsigned repeats = 2;
  std::string kind = "matrix";
  std::string commit_suffix = "a";   ///< varies the kernels' commits between nightly runs
  std::uint64_t seed = 1;             ///< noise seed
  bool fail_one = true;               ///< the first boot of the last cell fails to boot
  bool finish = true;                 ///< finish_run() at the end (else the run stays "running")
  std::string host_uri = "qemu:///system";
};

/// Records a whole run into `store` (create_run .. finish_run) and returns its id.
store::RunId fill_run(store::Store& store, const RunShape& shape);

/// Records one boot of `cell` as done with realistic passes; returns its score.
double fill_boot(store::Store& store, store::BootId boot, const matrix::Cell& cell,
                 const std::string& commit, std::uint64_t seed, const std::string& host_uri);

/// The store recorded from real runs, RLAB_TEST_DATA/real-run.sql (how it was recorded:
/// RLAB_TEST_DATA/README.md), loaded into a new store file `db` and opened. Throws
/// std::runtime_error when the SQL does not load.
std::unique_ptr<store::Store> load_recorded(const std::filesystem::path& db);

/// The cells of the recorded matrix RLAB_TEST_DATA/real-run.yaml (8 cells).
std::vector<matrix::Cell> recorded_cells();

using ::rlab::test::sql_column;

/// A later night of the same matrix: a new run that copies, for every cell of run `from`, the
/// cell's newest done boot there (hello, boot seconds, passes, result) as measured again by
/// kernels whose commit is now `commit`, booted on the same host (the libvirt host of the
/// copied boot, named by its run's machine when local). Returns the new run.
store::RunId replay_run(store::Store& store, store::RunId from, const std::string& commit);

}  // namespace rlab::metrics::test
