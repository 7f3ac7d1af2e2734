// Which cells `rlab noise` boots: the selectors against a matrix file, and the matrix's
// `control:` as the default control.
#include "matrix/matrix.hpp"
#include "noise/measure.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;

constexpr const char* kResolveMatrix = R"(kernels:
  "6.12": {source: {debian: "6.12", suite: trixie}}
axes:
  kernel: ["6.12"]
  vcpus: [2]
  filesystem: [{fs: xfs}, {fs: ext4}]
  workload: [{type: shell1}]
)";

class NoiseResolve : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() / ("rlab-noise-resolve-" + std::to_string(::getpid()) + ".yaml");
  }
  void TearDown() override { fs::remove(path_); }
  rlab::noise::MeasureOptions options(const std::string& extra, std::string cell, std::string control) {
    std::ofstream(path_) << kResolveMatrix << extra;
    rlab::noise::MeasureOptions o;
    o.matrix = path_;
    o.cell = std::move(cell);
    o.control = std::move(control);
    return o;
  }
  fs::path path_;
};

TEST_F(NoiseResolve, WithoutAControlTheCellIsItsOwn) {
  const auto [cell, control] = rlab::noise::resolve_cells(options("", "xfs", ""));
  EXPECT_EQ(cell, "6.12/xfs-defaults/2vcpu/shell1");
  EXPECT_EQ(control, cell);
}

TEST_F(NoiseResolve, TheMatrixsControlIsTheDefaultAndTheOptionOverridesIt) {
  auto [cell, control] = rlab::noise::resolve_cells(options("control: ext4\n", "xfs", ""));
  EXPECT_EQ(cell, "6.12/xfs-defaults/2vcpu/shell1");
  EXPECT_EQ(control, "6.12/ext4-defaults/2vcpu/shell1");
  std::tie(cell, control) = rlab::noise::resolve_cells(options("control: ext4\n", "ext4", "xfs"));
  EXPECT_EQ(cell, "6.12/ext4-defaults/2vcpu/shell1");
  EXPECT_EQ(control, "6.12/xfs-defaults/2vcpu/shell1");
  EXPECT_THROW(rlab::noise::resolve_cells(options("", "shell1", "")), rlab::UsageError)
      << "'shell1' is a part of both cells";
}

TEST(NoiseBenchMatrix, LoadsWithPinningAndBothMethods) {
  rlab::matrix::LoadOptions o;
  o.check_paths = false;
  auto m = rlab::matrix::load_matrix(std::filesystem::path(RLAB_TEST_DATA) / "noise-bench.yaml", o);
  EXPECT_TRUE(m.guest.pinning.vcpus);
  auto cells = rlab::matrix::expand_cells(m);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].id, "6.12/xfs-defaults/2vcpu/naive");
  EXPECT_EQ(cells[0].workload.warmup_passes, 0u);
  EXPECT_EQ(cells[1].id, "6.12/xfs-defaults/2vcpu/default");
  EXPECT_EQ(cells[1].workload.warmup_passes, 1u);
  EXPECT_EQ(cells[1].workload.passes, 3u);
}

}  // namespace
