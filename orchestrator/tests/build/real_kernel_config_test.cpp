// Against the real Debian linux-source-6.12 tree (fetched through the host's apt mirror on
// first use): the lab's fragments survive olddefconfig for every page size, an option whose
// dependencies are missing fails the configuration naming it, and the shipped patch applies.
#include "build/kernel_build.hpp"
#include "build/kernel_config.hpp"
#include "build/kernel_source.hpp"
#include "build/patches.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace rlab::build {
namespace {
namespace fs = std::filesystem;

class RealKernelTree : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    KernelSource src;
    src.debian_version = "6.12";
    src.debian_suite = "trixie";
    tree_ = new SourceTree(fetch_kernel_source(src, util::cache_dir()));
  }
  static void TearDownTestSuite() { delete tree_; }
  void SetUp() override {
    work_ = util::cache_dir() / "test-work" / ("config-" + std::to_string(::getpid()));
    fs::remove_all(work_);
  }
  void TearDown() override { fs::remove_all(work_); }
  static std::map<std::string, std::string> env() {
    return {{"ARCH", "arm64"}, {"CROSS_COMPILE", "aarch64-linux-gnu-"}};
  }
  static std::vector<std::string> make_args() {
    return {"ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-"};
  }
  static SourceTree* tree_;
  fs::path work_;
};
SourceTree* RealKernelTree::tree_ = nullptr;

TEST_F(RealKernelTree, IsTheDebianPackage) {
  EXPECT_EQ(tree_->identity, "debian:linux-source-6.12@trixie");
  EXPECT_EQ(tree_->commit.rfind("6.12.", 0), 0u) << tree_->commit;
  EXPECT_TRUE(fs::exists(tree_->dir / "fs/xfs/xfs_icache.c"));
}

TEST_F(RealKernelTree, FragmentsSurviveForEveryPageSize) {
  for (unsigned kib : {64u, 16u, 4u}) {
    KernelSpec spec;
    spec.name = "6.12";
    spec.page_size_kib = kib;
    auto obj = work_ / std::to_string(kib);
    ASSERT_NO_THROW(configure_kernel(tree_->dir, obj, fragment_paths(spec, images_dir()), make_args(), env()))
        << kib << "K";
    auto cfg = parse_dot_config(util::read_file(obj / ".config"));
    EXPECT_EQ(cfg["CONFIG_ARM64_" + std::to_string(kib) + "K_PAGES"], "y");
    EXPECT_EQ(cfg["CONFIG_XFS_FS"], "y");
    // Attribution's BPF programs on raw tracepoints, JIT'ed (docs/attribution.md).
    EXPECT_EQ(cfg["CONFIG_BPF_EVENTS"], "y");
    EXPECT_EQ(cfg["CONFIG_BPF_JIT_DEFAULT_ON"], "y");
  }
}

TEST_F(RealKernelTree, OptionWithMissingDependencyFailsNamingIt) {
  // USB mass storage needs USB and SCSI, which the lab's kernels leave out.
  fs::create_directories(work_);
  util::write_file_atomic(work_ / "usb.config", "CONFIG_USB_STORAGE=y\n");
  KernelSpec spec;
  spec.name = "6.12+usb";
  spec.fragments = {work_ / "usb.config"};
  try {
    configure_kernel(tree_->dir, work_ / "obj", fragment_paths(spec, images_dir()), make_args(), env());
    FAIL() << "CONFIG_USB_STORAGE=y without CONFIG_USB was accepted";
  } catch (const ConfigError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("CONFIG_USB_STORAGE=y (" + (work_ / "usb.config").string() + ":1) is not set"),
              std::string::npos) << what;
    ASSERT_EQ(e.mismatches.size(), 1u) << what;
  }
}

TEST_F(RealKernelTree, ShippedPatchAppliesAndAStaleOneIsNamed) {
  fs::create_directories(work_ / "tree/fs/xfs");
  fs::copy_file(tree_->dir / "fs/xfs/xfs_icache.c", work_ / "tree/fs/xfs/xfs_icache.c");
  auto patch = images_dir() / "patches/xfs-inline-inactivation.patch";
  ASSERT_NO_THROW(apply_patches(work_ / "tree", {patch}));
  EXPECT_NE(util::read_file(work_ / "tree/fs/xfs/xfs_icache.c").find("xfs_inodegc_inactivate_inline(ip)"),
            std::string::npos);
  try {  // the second time it is already there
    apply_patches(work_ / "tree", {patch});
    FAIL() << "applied twice";
  } catch (const PatchError& e) {
    EXPECT_EQ(e.file, "fs/xfs/xfs_icache.c");
    EXPECT_NE(std::string(e.what()).find("xfs-inline-inactivation.patch does not apply"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace rlab::build
