// The exit code of a failure: input the user gave is bad usage (2), wherever it is checked;
// a value rlab's own code refuses (std::invalid_argument) is the lab's failure (3), not 2.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"

#include "kernel_bisect/git.hpp"
#include "kernel_bisect/session.hpp"
#include "changepoint/e_divisive.hpp"
#include "compare/compare.hpp"
#include "matrix/matrix.hpp"
#include "metrics/push.hpp"
#include "nightly/analysis.hpp"
#include "noise/measure.hpp"
#include "host/pinning.hpp"
#include "run/progress.hpp"
#include "run/run.hpp"
#include "store/store.hpp"
#include "util/usage_error.hpp"
#include "vm/domain_xml.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

/// The exit code rlab answers when `f` throws (-1 when it does not).
template <class F>
int exit_of(F&& f) {
  try {
    f();
  } catch (...) {
    return cli::exit_code_of_current_exception("test");
  }
  return -1;
}

class ExitCodes : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rlab-exit-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    matrix_ = dir_ / "matrix.yaml";
    std::ofstream(matrix_) << R"(kernels:
  "6.12": {source: {debian: "6.12", suite: trixie}}
axes:
  kernel: ["6.12"]
  filesystem: [{fs: xfs, mkfs: [[], [-d, agcount=4]]}]
  vcpus: [1]
  workload: [{type: shell1, passes: 1, duration_s: 5}]
results: )" << (dir_ / "rlab.db").string() << "\n";
    auto st = store::Store::open(dir_ / "rlab.db");
    run_ = st->create_run({matrix_.string(), "text", 1, "matrix", ""});
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_, matrix_;
  store::RunId run_ = 0;
};

TEST_F(ExitCodes, AnInternalInvalidArgumentIsNotBadUsage) {
  EXPECT_EQ(exit_of([] { throw std::invalid_argument("schedule: no hosts"); }), cli::kInfrastructure);
  // Values rlab's own code builds and then refuses: a domain spec, E-Divisive's options.
  EXPECT_EQ(exit_of([] { vm::domain_xml(vm::DomainSpec{}); }), cli::kInfrastructure);
  changepoint::EDivisiveOptions bad;
  bad.alpha = 2;
  EXPECT_EQ(exit_of([&] { changepoint::e_divisive(std::vector<double>(20, 1.0), bad); }),
            cli::kInfrastructure);
  EXPECT_EQ(exit_of([] { throw store::StoreError("rlab.db: database is locked"); }), cli::kInfrastructure);
  EXPECT_EQ(exit_of([] { throw std::runtime_error("libvirt went away"); }), cli::kInfrastructure);
  EXPECT_EQ(exit_of([] { throw 7; }), cli::kInfrastructure);
}

TEST_F(ExitCodes, EveryKindOfUserInputErrorIsBadUsage) {
  EXPECT_EQ(exit_of([] { throw UsageError("--boots 1: needs at least 2 boots"); }), cli::kUsage);
  // A matrix that does not load, and a store path naming something else.
  EXPECT_EQ(exit_of([&] { matrix::load_matrix(dir_ / "none.yaml"); }), cli::kUsage);
  EXPECT_EQ(exit_of([&] { store::Store::open(dir_); }), cli::kUsage);
  EXPECT_EQ(exit_of([&] { store::Store::open_read_only(matrix_); }), cli::kUsage);
  EXPECT_EQ(exit_of([&] { store::Store::open(dir_ / std::string(5000, 'x')); }), cli::kUsage);
  // A git tree that is none, a push URL, a bisect direction.
  EXPECT_EQ(exit_of([&] { kernel_bisect::GitTree t(dir_); }), cli::kUsage);
  EXPECT_EQ(exit_of([] { metrics::parse_push_url("ftp://gateway"); }), cli::kUsage);
  EXPECT_EQ(exit_of([] { kernel_bisect::parse_direction("sideways"); }), cli::kUsage);
  // Cell selectors: none or several cells.
  const std::vector<std::string> ids = {"6.12/xfs-defaults/1vcpu/shell1", "6.12/xfs-agcount4/1vcpu/shell1"};
  EXPECT_EQ(exit_of([&] { matrix::select_cell_id(ids, "ext4"); }), cli::kUsage);
  EXPECT_EQ(exit_of([&] { matrix::select_cell_id(ids, "xfs"); }), cli::kUsage);
  EXPECT_EQ(exit_of([&] { nightly::resolve_night_control(ids, "6.13"); }), cli::kUsage);
}

TEST_F(ExitCodes, RunIdsSelectionsAndComparisonsTheUserNamesAreBadUsage) {
  run::Progress progress(stderr, false);
  run::RunOptions resume;
  resume.matrix = matrix_;
  resume.resume = 42;
  EXPECT_EQ(exit_of([&] { run::execute(resume, progress); }), cli::kUsage) << "no run 42 to resume";
  run::RunOptions select;
  select.matrix = matrix_;
  select.selection = run::Selection{{"6.12/ext4-defaults/1vcpu/shell1"}, 2, ""};
  EXPECT_EQ(exit_of([&] { run::execute(select, progress); }), cli::kUsage) << "no such cell";
  noise::MeasureOptions few;
  few.matrix = matrix_;
  few.cell = "agcount4";
  few.boots = 1;
  EXPECT_EQ(exit_of([&] { noise::measure(few, progress); }), cli::kUsage);
  EXPECT_EQ(exit_of([&] { nightly::analyse(dir_ / "rlab.db", 99, {}); }), cli::kUsage) << "no run 99";
  auto st = store::Store::open_read_only(dir_ / "rlab.db");
  EXPECT_EQ(exit_of([&] { compare::compare_kernels(*st, run_, "6.12", "7.0", {}); }), cli::kUsage);
  matrix::Pinning pin;
  pin.vcpus = true;
  EXPECT_EQ(exit_of([&] { host::pinning_cpus(pin, {{0, 0, 0}}, "qemu:///system", 2, 1); }), cli::kUsage)
      << "two vCPUs pinned to one host CPU";
}

}  // namespace
