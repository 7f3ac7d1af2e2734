// The moving work tree of a git source (build/work_tree.hpp) on a small real git repository:
// a move rewrites only the files that differ (unchanged files keep their mtime, so make
// rebuilds nothing for them), removes files the commit lacks, undoes patches before it moves,
// and asks for a new configuration only when a Kconfig file, the patches or the .config
// changed. A held tree is refused to a second opener.
#include "build/work_tree.hpp"

#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

namespace rlab::build {
namespace {
namespace fs = std::filesystem;

class WorkTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("rlab-work-tree-test-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(repo());
    git({"init", "-q"});
    write("Makefile", "all:\n");
    write("fs/xfs/Kconfig", "config XFS_FS\n");
    write("fs/xfs/xfs_icache.c", "one\ntwo\nthree\n");
    write("fs/xfs/xfs_inode.c", "inode\n");
    first_ = commit("base");
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path repo() const { return root_ / "linux"; }
  fs::path cache() const { return root_ / "cache"; }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((repo() / rel).parent_path());
    util::write_file_atomic(repo() / rel, text);
  }
  void git(std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", repo().string(), "-c", "user.name=t", "-c", "user.email=t@t"});
    util::run_checked(args);
  }
  std::string commit(const std::string& subject) {
    git({"add", "-A"});
    git({"commit", "-qm", subject});
    return util::trim_end(util::run_checked({"git", "-C", repo().string(), "rev-parse", "HEAD"}).output);
  }
  static fs::file_time_type mtime(const fs::path& p) { return fs::last_write_time(p); }

  fs::path root_;
  std::string first_;
};

TEST_F(WorkTreeTest, AMoveRewritesOnlyWhatDiffersAndConfiguresOnlyForKconfig) {
  auto t = WorkTree::try_open(cache(), repo(), "config-a");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->move_to(first_, {}, {})) << "a new tree has no configuration";
  EXPECT_EQ(util::read_file(t->src() / "fs/xfs/xfs_icache.c"), "one\ntwo\nthree\n");
  fs::create_directories(t->obj());
  util::write_file_atomic(t->obj() / ".config", "CONFIG_XFS_FS=y\n");
  t->configured();

  write("fs/xfs/xfs_icache.c", "one\nTWO\nthree\n");
  fs::remove(repo() / "fs/xfs/xfs_inode.c");
  const std::string second = commit("xfs: change icache, drop inode.c");
  const auto kept_before = mtime(t->src() / "Makefile");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(t->move_to(second, {}, {})) << "no Kconfig file changed";
  EXPECT_EQ(t->previous_commit(), first_);
  EXPECT_EQ(util::read_file(t->src() / "fs/xfs/xfs_icache.c"), "one\nTWO\nthree\n");
  EXPECT_FALSE(fs::exists(t->src() / "fs/xfs/xfs_inode.c"));
  EXPECT_EQ(mtime(t->src() / "Makefile"), kept_before) << "an unchanged file was rewritten";
  EXPECT_GT(mtime(t->src() / "fs/xfs/xfs_icache.c"), kept_before);

  write("fs/xfs/Kconfig", "config XFS_FS\nconfig XFS_ONLINE_SCRUB\n");
  const std::string third = commit("xfs: a new option");
  EXPECT_TRUE(t->move_to(third, {}, {})) << "a Kconfig file changed since the configuration";
  EXPECT_FALSE(t->move_to(second, {}, {})) << "the .config is still first's, and second has its Kconfig";
  EXPECT_TRUE(t->move_to(third, {}, {}));
  t->configured();
  EXPECT_TRUE(t->move_to(first_, {}, {})) << "back across the Kconfig change";
  t->configured();
  EXPECT_FALSE(t->move_to(second, {}, {}));
}

TEST_F(WorkTreeTest, PatchesAreUndoneBeforeAMoveAndTheirChangeConfiguresAgain) {
  const fs::path patch = root_ / "icache.patch";
  util::write_file_atomic(patch,
                          "--- a/fs/xfs/xfs_icache.c\n+++ b/fs/xfs/xfs_icache.c\n@@ -1,3 +1,3 @@\n one\n-two\n+PATCHED\n "
                          "three\n--- /dev/null\n+++ b/fs/xfs/new.c\n@@ -0,0 +1 @@\n+new\n");
  auto t = WorkTree::try_open(cache(), repo(), "config-a");
  ASSERT_TRUE(t);
  t->move_to(first_, {patch}, {});
  EXPECT_EQ(util::read_file(t->src() / "fs/xfs/xfs_icache.c"), "one\nPATCHED\nthree\n");
  fs::create_directories(t->obj());
  util::write_file_atomic(t->obj() / ".config", "CONFIG_XFS_FS=y\n");
  t->configured();

  write("fs/xfs/xfs_inode.c", "inode v2\n");
  const std::string second = commit("xfs: inode v2");
  EXPECT_TRUE(t->move_to(second, {}, {})) << "the patches differ from the configured ones";
  EXPECT_EQ(util::read_file(t->src() / "fs/xfs/xfs_icache.c"), "one\ntwo\nthree\n");
  EXPECT_FALSE(fs::exists(t->src() / "fs/xfs/new.c")) << "a file the patch created stayed";
  EXPECT_EQ(util::read_file(t->src() / "fs/xfs/xfs_inode.c"), "inode v2\n");
}

TEST_F(WorkTreeTest, AHeldTreeIsRefusedAndAnotherConfigHasItsOwn) {
  auto held = WorkTree::try_open(cache(), repo(), "config-a");
  ASSERT_TRUE(held);
  EXPECT_FALSE(WorkTree::try_open(cache(), repo(), "config-a"));
  auto other = WorkTree::try_open(cache(), repo(), "config-b");
  ASSERT_TRUE(other);
  EXPECT_NE(other->dir(), held->dir());
  EXPECT_THROW(WorkTree::try_open(cache(), root_ / "not-a-repo", "config-a"), std::runtime_error);
}

TEST(AffectsConfig, OnlyKconfigFiles) {
  EXPECT_TRUE(affects_config("fs/xfs/Kconfig"));
  EXPECT_TRUE(affects_config("arch/arm64/Kconfig.platforms"));
  EXPECT_TRUE(affects_config("Kconfig"));
  EXPECT_FALSE(affects_config("fs/xfs/xfs_icache.c"));
  EXPECT_FALSE(affects_config("Documentation/kbuild/kconfig.rst"));
}

}  // namespace
}  // namespace rlab::build
