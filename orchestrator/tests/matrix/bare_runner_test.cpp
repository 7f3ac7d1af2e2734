// `runner: bare` in a matrix: accepted with a UnixBench directory and what its agentless guest
// can do; refused, naming the key, for what it cannot.
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab::matrix;

class BareRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-bare-runner-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    for (const char* f : {"src/looper.c", "src/timeit.c", "pgms/multi.sh", "pgms/tst.sh", "testdir/sort.src"}) {
      fs::create_directories((dir_ / "ub" / f).parent_path());
      std::ofstream(dir_ / "ub" / f) << "x\n";
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Loads a matrix with `filesystem` items and the one workload `workload` (flow mappings).
  Matrix load(const std::string& workload, const std::string& filesystem = "{fs: xfs}") {
    const fs::path p = dir_ / "m.yaml";
    std::ofstream(p) << "kernels:\n  \"6.12\": {source: {debian: \"6.12\", suite: trixie}, page_size: 64k}\n"
                        "axes:\n  kernel: [\"6.12\"]\n  filesystem:\n    - " << filesystem << "\n"
                     << "  vcpus: [1]\n  workload:\n    - " << workload << "\nresults: r.db\n";
    return load_matrix(p);
  }
  /// The error of loading, "" when it loads.
  std::string error(const std::string& workload, const std::string& filesystem = "{fs: xfs}") {
    try {
      load(workload, filesystem);
    } catch (const MatrixError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(BareRunner, AcceptedWithUnixbenchsInputAndNoAttribution) {
  const Matrix m = load("{type: shell1, runner: bare, unixbench: ub, duration_s: 20}");
  ASSERT_EQ(m.workload_axis.size(), 1u);
  const auto& w = m.workload_axis[0];
  EXPECT_EQ(w.runner, rlab::matrix::Runner::kBare);
  EXPECT_EQ(w.name, "bare-shell1");
  EXPECT_EQ(w.attribution, rlab::matrix::Attribution::kOff) << "no agent in the guest to collect anything";
  EXPECT_EQ(w.unixbench_dir, dir_ / "ub");
  EXPECT_EQ(w.input_id.rfind("sha256:", 0), 0u) << "UnixBench's sort.src identifies the input";
}

TEST_F(BareRunner, RefusesWhatItsGuestCannotDo) {
  EXPECT_NE(error("{type: shell1, runner: bare, duration_s: 20}").find("'runner: bare' needs 'unixbench:"), std::string::npos);
  EXPECT_NE(error("{type: shell1, runner: bare, unixbench: ub, duration_s: 2.5}").find("whole seconds"), std::string::npos);
  EXPECT_NE(error("{type: shell1, runner: bare, unixbench: ub, duration_s: 20, layout: per-copy}").find(".layout:"),
            std::string::npos);
  EXPECT_NE(error("{type: shell1, runner: bare, unixbench: ub, duration_s: 20, attribution: stacks}").find(".attribution:"),
            std::string::npos);
  EXPECT_NE(error("{type: shell1, runner: bare, unixbench: ub, duration_s: 20, input: ub/testdir/sort.src}").find(".input:"),
            std::string::npos);
  const std::string mkfs =
      error("{type: shell1, runner: bare, unixbench: ub, duration_s: 20}", "{fs: xfs, mkfs: [[-d, agcount=4]]}");
  EXPECT_NE(mkfs.find("mkfs's defaults"), std::string::npos) << mkfs;
  EXPECT_NE(mkfs.find("m.yaml:"), std::string::npos) << "names the place: " << mkfs;
  EXPECT_NE(error("{type: shell1, runner: barely, unixbench: ub}").find("(rlab, unixbench, bare)"), std::string::npos);
}

}  // namespace
