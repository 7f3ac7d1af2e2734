// Patch application: success, and the documented error naming the patch and the file.
#include "build/patches.hpp"

#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace rlab::build {
namespace {
namespace fs = std::filesystem;

class Patches : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-patch-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tree/fs/xfs");
    util::write_file_atomic(dir_ / "tree/fs/xfs/xfs_icache.c", "one\ntwo\nthree\nfour\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write_patch(const std::string& name, const std::string& text) {
    util::write_file_atomic(dir_ / name, text);
    return dir_ / name;
  }
  fs::path dir_;
};

const char* kGood =
    "--- a/fs/xfs/xfs_icache.c\n+++ b/fs/xfs/xfs_icache.c\n@@ -1,4 +1,4 @@\n one\n-two\n+TWO\n three\n four\n";
const char* kStale =
    "--- a/fs/xfs/xfs_icache.c\n+++ b/fs/xfs/xfs_icache.c\n@@ -1,4 +1,4 @@\n uno\n-dos\n+DOS\n tres\n cuatro\n";
const char* kMissing =
    "--- a/fs/xfs/xfs_inode.c\n+++ b/fs/xfs/xfs_inode.c\n@@ -1,1 +1,1 @@\n-a\n+b\n";

TEST_F(Patches, AppliesInOrder) {
  auto p1 = write_patch("1.patch", kGood);
  auto p2 = write_patch("2.patch",
      "--- a/fs/xfs/xfs_icache.c\n+++ b/fs/xfs/xfs_icache.c\n@@ -2,3 +2,3 @@\n TWO\n-three\n+THREE\n four\n");
  apply_patches(dir_ / "tree", {p1, p2});
  EXPECT_EQ(util::read_file(dir_ / "tree/fs/xfs/xfs_icache.c"), "one\nTWO\nTHREE\nfour\n");
}

TEST_F(Patches, RejectedHunkNamesPatchAndFileAndLeavesTreeAlone) {
  auto good = write_patch("good.patch", kGood);
  auto stale = write_patch("stale.patch", kStale);
  try {
    apply_patches(dir_ / "tree", {good, stale});
    FAIL() << "stale patch applied";
  } catch (const PatchError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind("patch " + stale.string() + " does not apply to ", 0), 0u) << what;
    EXPECT_NE(what.find("fs/xfs/xfs_icache.c: Hunk #1 FAILED"), std::string::npos) << what;
    EXPECT_EQ(e.file, "fs/xfs/xfs_icache.c");
    EXPECT_EQ(e.patch, stale);
  }
  // The good patch stays applied; the failed one left nothing behind (no .rej/.orig either).
  EXPECT_EQ(util::read_file(dir_ / "tree/fs/xfs/xfs_icache.c"), "one\nTWO\nthree\nfour\n");
  EXPECT_FALSE(fs::exists(dir_ / "tree/fs/xfs/xfs_icache.c.rej"));
}

TEST_F(Patches, MissingFileIsNamed) {
  auto p = write_patch("missing.patch", kMissing);
  try {
    apply_patches(dir_ / "tree", {p});
    FAIL() << "applied";
  } catch (const PatchError& e) {
    EXPECT_EQ(e.file, "fs/xfs/xfs_inode.c") << e.what();
    EXPECT_NE(std::string(e.what()).find("missing.patch"), std::string::npos);
  }
}

TEST_F(Patches, AlreadyAppliedIsAnError) {
  auto p = write_patch("good.patch", kGood);
  apply_patches(dir_ / "tree", {p});
  try {
    apply_patches(dir_ / "tree", {p});
    FAIL() << "applied twice";
  } catch (const PatchError& e) {
    EXPECT_EQ(e.file, "fs/xfs/xfs_icache.c") << e.what();
    EXPECT_NE(std::string(e.what()).find("previously applied"), std::string::npos) << e.what();
  }
}

TEST_F(Patches, HardLinkedOriginalIsNotModified) {
  fs::create_directories(dir_ / "copy/fs/xfs");
  fs::create_hard_link(dir_ / "tree/fs/xfs/xfs_icache.c", dir_ / "copy/fs/xfs/xfs_icache.c");
  apply_patches(dir_ / "copy", {write_patch("good.patch", kGood)});
  EXPECT_EQ(util::read_file(dir_ / "copy/fs/xfs/xfs_icache.c"), "one\nTWO\nthree\nfour\n");
  EXPECT_EQ(util::read_file(dir_ / "tree/fs/xfs/xfs_icache.c"), "one\ntwo\nthree\nfour\n");
}

TEST_F(Patches, UnreadablePatchIsAnError) {
  EXPECT_THROW(apply_patches(dir_ / "tree", {dir_ / "nope.patch"}), std::runtime_error);
}

TEST(PatchOutput, FirstFailureAndPatchedFiles) {
  auto f = first_patch_failure("checking file a.c\nchecking file fs/b.c\nHunk #2 FAILED at 10.\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->first, "fs/b.c");
  EXPECT_EQ(f->second, "Hunk #2 FAILED at 10.");
  EXPECT_FALSE(first_patch_failure("patching file a.c\n"));
  auto files = patched_files("--- a/x.c\t2020\n+++ b/dir/x.c\t2020\n--- /dev/null\n+++ b/new.c\n");
  EXPECT_EQ(files, (std::vector<std::string>{"dir/x.c", "new.c"}));
}

TEST(ShippedPatch, IsAUnifiedDiffOfXfsIcache) {
  auto text = util::read_file(std::filesystem::path(RLAB_SOURCE_DIR) / "images/patches/xfs-inline-inactivation.patch");
  EXPECT_EQ(patched_files(text), std::vector<std::string>{"fs/xfs/xfs_icache.c"});
  EXPECT_NE(text.find("xfs_inodegc_inline_ok"), std::string::npos);
}

}  // namespace
}  // namespace rlab::build
