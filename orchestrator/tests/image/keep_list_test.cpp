// The keep list: what a userland keeps of itself, on a small tree holding this machine's own
// /usr/bin/true, the C library it loads and its dynamic loader (real ELF files, read by readelf
// as the arm64 ones are), wherever this machine's architecture keeps them.
#include "image/keep_list.hpp"

#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <link.h>
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

// This machine's C library as this process loaded it, e.g. "/lib/x86_64-linux-gnu/libc.so.6"
// or "/lib/aarch64-linux-gnu/libc.so.6".
fs::path loaded_libc() {
  fs::path found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        const fs::path p = info->dlpi_name ? info->dlpi_name : "";
        if (p.filename() != "libc.so.6") return 0;
        *static_cast<fs::path*>(out) = p;
        return 1;
      },
      &found);
  if (found.empty()) throw std::runtime_error("this process loaded no libc.so.6");
  return found;
}

// Where this machine keeps what /usr/bin/true loads, relative to a userland's root: the
// multiarch library directory ("lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu") and the
// interpreter /usr/bin/true asks for ("lib64/ld-linux-x86-64.so.2", "lib/ld-linux-aarch64.so.1").
struct HostLayout {
  std::string lib_dir;
  std::string interpreter;
  std::string loader() const { return fs::path(interpreter).filename().string(); }
  std::string interpreter_dir() const { return fs::path(interpreter).parent_path().string(); }
};

HostLayout host_layout() {
  HostLayout h;
  h.lib_dir = "lib/" + loaded_libc().parent_path().filename().string();
  const auto needs = parse_readelf(
      util::run_checked({"readelf", "--dynamic", "--program-headers", "--wide", "/usr/bin/true"}).output);
  if (needs.interpreter.empty()) throw std::runtime_error("/usr/bin/true has no program interpreter");
  h.interpreter = fs::path(needs.interpreter).relative_path().string();
  return h;
}

// The same path in a merged-/usr userland, where lib is a link to usr/lib.
std::string merged(const std::string& p) { return p.rfind("lib/", 0) == 0 ? "usr/" + p : p; }

struct Tree : ::testing::Test {
  fs::path root = fs::temp_directory_path() / ("rlab-keep-" + std::to_string(::getpid()));
  const HostLayout host = host_layout();
  // The loader's real file sits in the library directory; the interpreter path is a link to it
  // (as /lib64/ld-linux-x86-64.so.2 and /lib/ld-linux-aarch64.so.1 are).
  const std::string loader_file = host.lib_dir + "/" + host.loader();
  const std::vector<std::string> dirs{host.lib_dir, host.interpreter_dir()};

  void SetUp() override {
    fs::remove_all(root);
    for (const std::string d : {"bin", "etc/conf.d", "usr/share/doc/dash"}) fs::create_directories(root / d);
    fs::create_directories(root / host.lib_dir);
    fs::create_directories(root / host.interpreter_dir());
    fs::copy_file("/usr/bin/true", root / "bin/true");
    fs::copy_file(fs::canonical(loaded_libc()), root / host.lib_dir / "libc.so.6");
    fs::copy_file(fs::canonical("/" + host.interpreter), root / loader_file);
    fs::create_symlink("/" + loader_file, root / host.interpreter);
    util::write_file_atomic(root / "bin/dash", "#!not an ELF file\n");
    fs::create_symlink("dash", root / "bin/sh");
    util::write_file_atomic(root / "bin/unused", "x");
    util::write_file_atomic(root / host.lib_dir / "libunused.so.1", "x");
    util::write_file_atomic(root / "etc/conf.d/a", "a");
    util::write_file_atomic(root / "etc/other", "b");
    util::write_file_atomic(root / "usr/share/doc/dash/README", "doc");
  }
  void TearDown() override { fs::remove_all(root); }
};

TEST_F(Tree, KeepsProgramsTheirLibrariesAndLinksAndRemovesTheRest) {
  const auto kept = kept_paths(root, {"bin/true", "bin/sh", "etc/conf.d"}, dirs, "keep.txt");
  EXPECT_EQ(kept, (std::set<std::string>{"bin/true", "bin/sh", "bin/dash", "etc/conf.d", "etc/conf.d/a",
                                         host.lib_dir + "/libc.so.6", host.interpreter, loader_file}));
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
                                         merged(host.lib_dir + "/libc.so.6"), merged(host.interpreter),
                                         merged(loader_file)}));
  remove_all_but(root, kept);
  EXPECT_TRUE(fs::exists(root / "bin/true")) << "reachable through the kept link";
  EXPECT_TRUE(fs::exists(root / host.interpreter));
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
  const auto no_lib = message({"bin/true"}, {"etc"});
  EXPECT_NE(no_lib.find("bin/true needs libc.so.6, which is in none of etc"), std::string::npos) << no_lib;
  fs::create_symlink("../../../outside", root / "bin/escape");
  EXPECT_NE(message({"bin/escape"}, dirs).find("leaves the userland"), std::string::npos);
  fs::create_symlink("gone", root / "bin/dangling");
  EXPECT_EQ(message({"bin/dangling"}, dirs), "bin/dangling: 'bin/gone' is not in the extracted userland");
}

}  // namespace
}  // namespace rlab::image
