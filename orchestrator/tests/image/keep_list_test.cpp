// The keep list: what a userland keeps of itself, on a small tree holding this machine's own
// /usr/bin/true and the C library it loads (real ELF files, read by readelf as the arm64 ones
// are).
#include "image/keep_list.hpp"

#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace rlab::image {
namespace {
namespace fs = std::filesystem;

TEST(ReadelfOutput, NeededLibrariesAndTheInterpreter) {
  const auto n = parse_readelf(
      "Program Headers:\n"
      "      [Requesting program interpreter: /lib/ld-linux-aarch64.so.1]\n"
      "Dynamic section at offset 0x1 contains 2 entries:\n"
      " 0x0000000000000001 (NEEDED)             Shared library: [libblkid.so.1]\n"
      " 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]\n"
      " 0x000000000000000e (SONAME)             Library soname: [libfoo.so.1]\n");
  EXPECT_EQ(n.libraries, (std::vector<std::string>{"libblkid.so.1", "libc.so.6"}));
  EXPECT_EQ(n.interpreter, "/lib/ld-linux-aarch64.so.1");
  EXPECT_TRUE(parse_readelf("There is no dynamic section in this file.\n").libraries.empty());
}

struct Tree : ::testing::Test {
  fs::path root = fs::temp_directory_path() / ("rlab-keep-" + std::to_string(::getpid()));
  const std::vector<std::string> dirs{"lib/x86_64-linux-gnu", "lib64"};

  void SetUp() override {
    fs::remove_all(root);
    for (const char* d : {"bin", "lib/x86_64-linux-gnu", "lib64", "etc/conf.d", "usr/share/doc/dash"})
      fs::create_directories(root / d);
    fs::copy_file("/usr/bin/true", root / "bin/true");
    fs::copy_file("/lib/x86_64-linux-gnu/libc.so.6", root / "lib/x86_64-linux-gnu/libc.so.6");
    fs::copy_file(fs::canonical("/lib64/ld-linux-x86-64.so.2"), root / "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
    fs::create_symlink("/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", root / "lib64/ld-linux-x86-64.so.2");
    util::write_file_atomic(root / "bin/dash", "#!not an ELF file\n");
    fs::create_symlink("dash", root / "bin/sh");
    util::write_file_atomic(root / "bin/unused", "x");
    util::write_file_atomic(root / "lib/x86_64-linux-gnu/libunused.so.1", "x");
    util::write_file_atomic(root / "etc/conf.d/a", "a");
    util::write_file_atomic(root / "etc/other", "b");
    util::write_file_atomic(root / "usr/share/doc/dash/README", "doc");
  }
  void TearDown() override { fs::remove_all(root); }
};

TEST_F(Tree, KeepsProgramsTheirLibrariesAndLinksAndRemovesTheRest) {
  const auto kept = kept_paths(root, {"bin/true", "bin/sh", "etc/conf.d"}, dirs, "keep.txt");
  EXPECT_EQ(kept, (std::set<std::string>{"bin/true", "bin/sh", "bin/dash", "etc/conf.d", "etc/conf.d/a",
                                         "lib/x86_64-linux-gnu/libc.so.6", "lib64/ld-linux-x86-64.so.2",
                                         "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"}));
  const auto removed = remove_all_but(root, kept);
  EXPECT_EQ(removed, 1u + 1u + 1u + 3u) << "bin/unused, libunused, etc/other, the README";
  for (const auto& k : kept) EXPECT_TRUE(fs::exists(fs::symlink_status(root / k))) << k;
  EXPECT_FALSE(fs::exists(root / "bin/unused"));
  EXPECT_FALSE(fs::exists(root / "etc/other"));
  EXPECT_FALSE(fs::exists(root / "usr")) << "directories left empty go too";
}

TEST_F(Tree, AMergedUsrLayoutKeepsTheDirectoryLinksAndWhatIsBehindThem) {
  // bin -> usr/bin and lib -> usr/lib, as in a merged-/usr userland.
  fs::create_directories(root / "usr/bin");
  fs::rename(root / "bin", root / "usr/bin2");
  for (const auto& e : fs::directory_iterator(root / "usr/bin2")) fs::rename(e.path(), root / "usr/bin" / e.path().filename());
  fs::remove(root / "usr/bin2");
  fs::create_symlink("usr/bin", root / "bin");
  fs::rename(root / "lib", root / "usr/lib");
  fs::create_symlink("usr/lib", root / "lib");
  const auto kept = kept_paths(root, {"bin/true", "bin/sh"}, dirs, "keep.txt");
  EXPECT_EQ(kept, (std::set<std::string>{"bin", "lib", "usr/bin/true", "usr/bin/sh", "usr/bin/dash",
                                         "usr/lib/x86_64-linux-gnu/libc.so.6", "lib64/ld-linux-x86-64.so.2",
                                         "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"}));
  remove_all_but(root, kept);
  EXPECT_TRUE(fs::exists(root / "bin/true")) << "reachable through the kept link";
  EXPECT_TRUE(fs::exists(root / "lib64/ld-linux-x86-64.so.2"));
  EXPECT_FALSE(fs::exists(root / "usr/bin/unused"));
}

TEST_F(Tree, ErrorsNameTheListAndWhatIsMissing) {
  auto message = [&](const std::vector<std::string>& keep, const std::vector<std::string>& lib_dirs) {
    try {
      kept_paths(root, keep, lib_dirs, "images/rootfs/keep.txt");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message({"bin/mkfs.xfs"}, dirs), "images/rootfs/keep.txt: 'bin/mkfs.xfs' is not in the extracted userland");
  const auto no_lib = message({"bin/true"}, {"lib64"});
  EXPECT_NE(no_lib.find("bin/true needs libc.so.6, which is in none of lib64"), std::string::npos) << no_lib;
  fs::create_symlink("../../../outside", root / "bin/escape");
  EXPECT_NE(message({"bin/escape"}, dirs).find("leaves the userland"), std::string::npos);
  fs::create_symlink("gone", root / "bin/dangling");
  EXPECT_EQ(message({"bin/dangling"}, dirs), "bin/dangling: 'bin/gone' is not in the extracted userland");
}

}  // namespace
}  // namespace rlab::image
