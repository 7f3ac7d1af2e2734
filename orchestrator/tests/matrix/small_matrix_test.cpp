// The tests' one small matrix (support/real_lab.hpp): every shape the tests against real
// guests ask of it is a matrix rlab loads, with the cells that shape means.
#include "matrix/matrix.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>

namespace {

using rlab::testing::small_matrix;

std::vector<rlab::matrix::Cell> cells_of(const std::string& text) {
  rlab::matrix::LoadOptions o;
  o.check_paths = false;
  return rlab::matrix::expand_cells(rlab::matrix::parse_matrix(text, "small.yaml", o));
}

TEST(SmallMatrix, DefaultIsOneXfsCellOfOnePass) {
  const auto cells = cells_of(small_matrix({}));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].id, "6.12/xfs-defaults/1vcpu/shell1");
  EXPECT_EQ(cells[0].workload.passes, 1u);
  EXPECT_EQ(cells[0].workload.duration_s, 5u);
}

TEST(SmallMatrix, FilesystemMappingsWorkloadsRepeatsAndKernelsAreKept) {
  const auto text = small_matrix(
      {.filesystems = {"{fs: xfs, mkfs: [[], [-d, agcount=4]]}", "ext4"},
       .vcpus = 2,
       .workloads = {"{type: shell1, name: naive, passes: 1, duration_s: 5}",
                     "{type: shell1, name: warm, warmup_passes: 1, passes: 2, duration_s: 5}"},
       .repeats = 2,
       .extra_kernels = "  6.12+p:\n    extends: \"6.12\"\n    patches: [/nonexistent.patch]\n",
       .kernel_axis = "[\"6.12\", 6.12+p]",
       .hosts = {{"qemu:///system", 2, ""}}});
  const auto cells = cells_of(text);
  // 2 kernels x 3 filesystem variants x 2 workloads; repeats are boots of a cell, not cells.
  ASSERT_EQ(cells.size(), 12u) << text;
  EXPECT_EQ(cells[0].vcpus, 2u);
  bool agcount4 = false, warm = false, patched = false;
  for (const auto& c : cells) {
    agcount4 |= c.id.find("agcount") != std::string::npos;
    warm |= c.workload.warmup_passes == 1;
    patched |= c.kernel.name == "6.12+p";
  }
  EXPECT_TRUE(agcount4 && warm && patched) << text;
  EXPECT_NE(text.find("repeats: 2"), std::string::npos);
  EXPECT_NE(text.find("{uri: \"qemu:///system\", vcpus: 2}"), std::string::npos);
}

}  // namespace
