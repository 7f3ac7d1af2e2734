// The initramfs from real Debian arm64 packages (through the host's apt mirror), read back
// with GNU cpio.
#include "build/apt_source.hpp"
#include "build/kernel_build.hpp"
#include "image/initramfs.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <set>
#include <sstream>

namespace rlab::image {
namespace {
namespace fs = std::filesystem;

TEST(RealInitramfs, PacksDebianUserlandInitAndAgent) {
  auto work = util::cache_dir() / "test-work" / ("initramfs-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  auto recipe = load_rootfs_recipe(build::images_dir() / "rootfs");
  extract_userland(recipe, build::debian_mirror(), work / "root");
  EXPECT_FALSE(fs::exists(work / "root/usr/share/doc")) << "keep list not applied";
  EXPECT_FALSE(fs::exists(work / "root/usr/bin/localedef")) << "a program nothing runs was kept";
  EXPECT_TRUE(fs::exists(work / "root/lib/aarch64-linux-gnu/libc.so.6")) << "a library the kept programs load";

  // A stand-in agent: any aarch64 ELF passes the check; take one from the extracted userland.
  fs::path agent = fs::exists(work / "root/bin/dash") ? work / "root/bin/dash" : work / "root/usr/bin/dash";
  util::write_file_atomic(work / "agent", util::read_file(agent));
  auto raw = pack_initramfs(recipe, work / "root", work / "agent", work / "initramfs.cpio");
  EXPECT_EQ(raw, fs::file_size(work / "initramfs.cpio"));
  EXPECT_LT(raw, 16u << 20) << "initramfs unexpectedly large (the keep list keeps ~8 MB of the userland)";
  EXPECT_EQ(util::read_file(work / "initramfs.cpio").substr(0, 6), "070701") << "a newc cpio, not compressed";
  auto listing = util::run_checked({"cpio", "-itv", "--quiet", "-F", (work / "initramfs.cpio").string()}).output;
  std::set<std::string> names;
  std::istringstream in(listing);
  std::string console_line;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string w, last;
    std::vector<std::string> all;
    while (words >> w) all.push_back(w);
    // "... name" or "... name -> target"
    std::string name = all.size() >= 3 && all[all.size() - 2] == "->" ? all[all.size() - 3] : all.back();
    names.insert(name);
    if (name == "dev/console") console_line = line;
  }
  for (const char* n : {"init", "usr/bin/rlab-agent", "dev/console", "proc", "sys"})
    EXPECT_TRUE(names.count(n)) << n;
  EXPECT_TRUE(names.count("bin/dash") || names.count("usr/bin/dash"));
  EXPECT_TRUE(names.count("sbin/mkfs.xfs") || names.count("usr/sbin/mkfs.xfs"));
  EXPECT_TRUE(names.count("sbin/mkfs.ext4") || names.count("usr/sbin/mkfs.ext4"));
  EXPECT_TRUE(names.count("usr/bin/sort"));
  EXPECT_EQ(console_line.substr(0, 1), "c") << console_line;
  fs::remove_all(work);
}

TEST(RealInitramfs, NonAarch64AgentIsRefused) {
  auto work = util::cache_dir() / "test-work" / ("agentcheck-" + std::to_string(::getpid()));
  fs::create_directories(work / "root");
  auto recipe = load_rootfs_recipe(build::images_dir() / "rootfs");
  try {
    pack_initramfs(recipe, work / "root", "/proc/self/exe", work / "out.zst");
    FAIL() << "host binary accepted as the guest agent";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("aarch64-agent"), std::string::npos) << e.what();
  }
  fs::remove_all(work);
}

}  // namespace
}  // namespace rlab::image
