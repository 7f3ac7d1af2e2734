// Cache keys change when source commit, config, patches, page size or toolchain change, and
// only then.
#include "build/artifact_cache.hpp"
#include "build/kernel_build.hpp"

#include "util/paths.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <unistd.h>
#include <fstream>
#include <set>

namespace rlab::build {
namespace {

KernelKeyInputs sample() {
  KernelKeyInputs in;
  in.source_identity = "debian:linux-source-6.12@trixie";
  in.source_commit = "6.12.57-1";
  in.page_size_kib = 64;
  in.fragments = {{"base.config", "CONFIG_XFS_FS=y\n"}, {"64k.config", "CONFIG_ARM64_64K_PAGES=y\n"}};
  in.patches = {{"a.patch", "--- a/x\n+++ b/x\n"}, {"b.patch", "--- a/y\n+++ b/y\n"}};
  in.toolchain = "aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0\nGNU ld 2.40\n";
  return in;
}

TEST(CacheKey, SameInputsSameKeyAndNamesDoNotCount) {
  auto a = sample(), b = sample();
  EXPECT_EQ(kernel_key(a), kernel_key(b));
  EXPECT_EQ(kernel_key(a).size(), 64u);
  b.fragments[0].first = "renamed.config";
  b.patches[1].first = "renamed.patch";
  EXPECT_EQ(kernel_key(a), kernel_key(b));
}

TEST(CacheKey, EveryInputChangesTheKey) {
  std::set<std::string> keys{kernel_key(sample())};
  auto add = [&](auto mutate, const char* what) {
    auto in = sample();
    mutate(in);
    EXPECT_TRUE(keys.insert(kernel_key(in)).second) << what << " did not change the key";
  };
  add([](auto& in) { in.source_commit = "6.12.58-1"; }, "commit");
  add([](auto& in) { in.source_identity = "git:/src/linux-stable"; }, "source");
  add([](auto& in) { in.page_size_kib = 4; }, "page size");
  add([](auto& in) { in.fragments[0].second += "CONFIG_EXT4_FS=y\n"; }, "config contents");
  add([](auto& in) { in.fragments.push_back({"extra.config", ""}); }, "extra empty fragment");
  add([](auto& in) { in.patches[0].second += " "; }, "patch contents");
  add([](auto& in) { std::swap(in.patches[0], in.patches[1]); }, "patch order");
  add([](auto& in) { in.patches.pop_back(); }, "patch removed");
  add([](auto& in) { in.toolchain = "aarch64-linux-gnu-gcc 13\n"; }, "toolchain");
  // Moving a patch's text into a fragment's slot must not collide (parts are length-framed).
  add([](auto& in) { in.fragments.push_back(in.patches.front()); in.patches.erase(in.patches.begin()); },
      "patch moved to fragments");
}

TEST(Cache, ListsOnlyCompleteEntriesWithSizes) {
  auto root = std::filesystem::temp_directory_path() / ("rlab-cache-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  auto k = entry_dir(root, CacheKind::kernel, "aaaa");
  auto partial = entry_dir(root, CacheKind::kernel, "bbbb");
  auto i = entry_dir(root, CacheKind::image, "cccc");
  for (const auto& d : {k, partial, i}) std::filesystem::create_directories(d);
  util::write_file_atomic(k / "Image", std::string(1000, 'x'));
  util::write_file_atomic(k / "manifest.json", R"({"kind":"kernel","name":"6.12"})");
  util::write_file_atomic(partial / "Image", "half");
  util::write_file_atomic(i / "manifest.json", "not json");
  auto entries = list_cache(root);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].kind, CacheKind::kernel);
  EXPECT_EQ(k, root / "kernels/aaaa");
  EXPECT_EQ(entries[0].key, "aaaa");
  EXPECT_EQ(entries[0].manifest["name"], "6.12");
  EXPECT_GE(entries[0].bytes, 1000u);
  EXPECT_EQ(entries[1].kind, CacheKind::image);
  EXPECT_EQ(i, root / "images/cccc");
  EXPECT_TRUE(entries[1].manifest.is_null());
  { CacheLock lock(root, "kernel-aaaa"); }
  EXPECT_TRUE(std::filesystem::exists(root / "locks/kernel-aaaa.lock"));
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace rlab::build

// The files a kernel compiled, from kbuild's dependency files: the source of every object and
// every header its deps name, tree-relative, once each; generated files and the command lines
// are not sources.
TEST(CompiledSources, ReadsKbuildCmdFilesOfTheObjectTree) {
  namespace fs = std::filesystem;
  const fs::path obj = fs::temp_directory_path() / ("rlab-cmd-" + std::to_string(::getpid()));
  fs::remove_all(obj);
  fs::create_directories(obj / "fs/xfs");
  std::ofstream(obj / "fs/xfs/.xfs_inode.o.cmd")
      << "savedcmd_fs/xfs/xfs_inode.o := gcc -I../src/include -c -o fs/xfs/xfs_inode.o ../src/fs/xfs/xfs_inode.c\n\n"
      << "source_fs/xfs/xfs_inode.o := ../src/fs/xfs/xfs_inode.c\n\n"
      << "deps_fs/xfs/xfs_inode.o := \\\n"
      << "  ../src/include/linux/compiler-version.h \\\n"
      << "    $(wildcard include/config/CC_VERSION_TEXT) \\\n"
      << "  include/generated/autoconf.h \\\n"
      << "  ../src/include/linux/fs.h \\\n\n"
      << "fs/xfs/xfs_inode.o: $(deps_fs/xfs/xfs_inode.o)\n";
  std::ofstream(obj / "fs/xfs/.xfs_buf.o.cmd") << "source_fs/xfs/xfs_buf.o := ../src/fs/xfs/xfs_buf.c\n"
                                                << "deps_fs/xfs/xfs_buf.o := \\\n  ../src/include/linux/fs.h \\\n";
  std::ofstream(obj / "fs/xfs/not-a-cmd.txt") << "../src/fs/xfs/ignored.c\n";
  const auto files = rlab::build::compiled_sources(obj);
  EXPECT_EQ(files, (std::vector<std::string>{"fs/xfs/xfs_buf.c", "fs/xfs/xfs_inode.c", "include/linux/compiler-version.h",
                                             "include/linux/fs.h"}));
  fs::remove_all(obj);
}
