// The pure parts of the real lab: the cell at a commit, cell selection, build failure lines.
#include "kernel_bisect/vm_lab.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace rlab::kernel_bisect {
namespace {

matrix::Matrix test_matrix() {
  return matrix::load_matrix(std::filesystem::path(RLAB_TEST_DATA) / "matrix.yaml");
}

TEST(VmLab, CellAtACommitKeepsEverythingButTheSource) {
  auto m = test_matrix();
  auto cell = rlab::matrix::select_cell(m, "6.12/xfs-defaults/1vcpu/shell1");
  const std::string sha = "0123456789abcdef0123456789abcdef01234567";
  auto c = cell_at(cell, "/srv/linux", sha);
  EXPECT_EQ(c.id, "0123456789ab/xfs-defaults/1vcpu/shell1");
  EXPECT_EQ(c.kernel.name, "0123456789ab");
  EXPECT_EQ(c.kernel.source.kind, build::KernelSource::Kind::kGitTree);
  EXPECT_EQ(c.kernel.source.git_tree, "/srv/linux");
  EXPECT_EQ(c.kernel.source.git_ref, sha);
  EXPECT_EQ(c.kernel.page_size_kib, 64u);
  EXPECT_EQ(c.kernel.fragments, cell.kernel.fragments);
  EXPECT_EQ(c.kernel.patches, cell.kernel.patches);
  EXPECT_EQ(c.vcpus, 1u);
  EXPECT_EQ(c.filesystem.fs, matrix::Fs::kXfs);
  EXPECT_EQ(c.workload.duration_s, 10);
}

TEST(VmLab, SelectorMustNameOneCell) {
  auto m = test_matrix();
  EXPECT_EQ(rlab::matrix::select_cell(m, "1vcpu/shell1").id, "6.12/xfs-defaults/1vcpu/shell1");
  try {
    rlab::matrix::select_cell(m, "ext4");
    ADD_FAILURE() << "no error";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no cell matches 'ext4'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("matrix.yaml"), std::string::npos) << e.what();
  }
  auto root = std::filesystem::path(RLAB_SOURCE_DIR) / "matrix.yaml";
  auto big = matrix::load_matrix(root);
  try {
    rlab::matrix::select_cell(big, "xfs");
    ADD_FAILURE() << "no error for an ambiguous selector";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("matches 2 cells"), std::string::npos) << e.what();
  }
}

TEST(VmLab, BuildFailureInOneLine) {
  EXPECT_EQ(brief_build_failure("kernel x: make Image failed (exit 2); log /o/build.log:\n"
                                "  CC fs/xfs/xfs_super.o\n"
                                "../src/fs/xfs/xfs_super.c:2200:2: error: #error \"no\"\n"
                                "make[4]: *** [x] Error 1\n"),
            "kernel x: make Image failed (exit 2); log /o/build.log: | "
            "../src/fs/xfs/xfs_super.c:2200:2: error: #error \"no\"");
  // The error far above the tail: read from the log the message names.
  auto log = std::filesystem::temp_directory_path() / ("rlab-bisect-build-" + std::to_string(::getpid()) + ".log");
  std::ofstream(log) << "  CC fs/xfs/xfs_super.o\nsrc/fs/xfs/xfs_super.c:9:2: error: #error \"x\"\n"
                     << "  CC fs/xfs/xfs_log.o\nmake: *** Error 2\n";
  EXPECT_EQ(brief_build_failure("kernel y: make Image failed (exit 2); log " + log.string() +
                                ":\n  CC fs/xfs/xfs_log.o\nmake: *** Error 2\n"),
            "kernel y: make Image failed (exit 2); log " + log.string() +
                ": | src/fs/xfs/xfs_super.c:9:2: error: #error \"x\"");
  std::filesystem::remove(log);
  EXPECT_EQ(brief_build_failure("patch does not apply"), "patch does not apply");
  EXPECT_EQ(brief_build_failure("first\nsecond"), "first");
}

}  // namespace
}  // namespace rlab::kernel_bisect
