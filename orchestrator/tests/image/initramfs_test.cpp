// The rootfs recipe (images/rootfs), its cache key, and the agent check.
#include "image/initramfs.hpp"

#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <set>

namespace rlab::image {
namespace {
namespace fs = std::filesystem;

const fs::path kRootfs = fs::path(RLAB_SOURCE_DIR) / "images/rootfs";

TEST(RootfsRecipe, ShippedRecipeHasTheLoadsTools) {
  auto r = load_rootfs_recipe(kRootfs);
  EXPECT_FALSE(r.suite.empty());
  for (const char* p : {"dash", "coreutils", "grep", "xfsprogs", "e2fsprogs", "mount"})
    EXPECT_NE(std::find(r.packages.begin(), r.packages.end(), p), r.packages.end()) << p;
  for (const char* p : {"bin/sh", "usr/bin/sort", "usr/bin/od", "bin/grep", "usr/bin/tee", "usr/bin/wc", "bin/rm",
                        "sbin/mkfs.xfs", "sbin/mkfs.ext4", "etc/mke2fs.conf"})
    EXPECT_NE(std::find(r.keep.begin(), r.keep.end(), p), r.keep.end()) << p << " is not kept";
  EXPECT_NE(r.init_script.find("rlab.selftest=1"), std::string::npos);
  EXPECT_NE(r.init_script.find("/sys/class/virtio-ports"), std::string::npos);
  EXPECT_NE(r.init_script.find("exec /usr/bin/rlab-agent"), std::string::npos);
}

TEST(RootfsRecipe, PackageListErrorsNameTheLine) {
  RootfsRecipe r;
  try {
    parse_package_list("suite: bookworm\ndash\nrm -rf /\n", "packages.txt", r);
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("packages.txt:3"), std::string::npos) << e.what();
  }
  RootfsRecipe r2;
  EXPECT_THROW(parse_package_list("dash\n", "p", r2), std::runtime_error);                      // no suite
  RootfsRecipe r3;
  EXPECT_THROW(parse_package_list("suite: a\nsuite: b\ndash\n", "p", r3), std::runtime_error);  // two
  RootfsRecipe r4;
  EXPECT_THROW(parse_package_list("suite: a\n# nothing\n", "p", r4), std::runtime_error);       // empty
  RootfsRecipe ok;
  parse_package_list("suite: trixie  # comment\n libc6:arm64 \ng++-12\n", "p", ok);
  EXPECT_EQ(ok.suite, "trixie");
  EXPECT_EQ(ok.packages, (std::vector<std::string>{"libc6:arm64", "g++-12"}));
}

TEST(RootfsRecipe, KeepAndPruneListErrorsNameTheFileAndLine) {
  auto dir = fs::temp_directory_path() / ("rlab-recipe-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  util::write_file_atomic(dir / "packages.txt", "suite: bookworm\ndash\n");
  util::write_file_atomic(dir / "init", "#!/bin/sh\n");
  EXPECT_TRUE(load_rootfs_recipe(dir).keep.empty()) << "no keep.txt: keep what prune leaves";
  for (const char* list : {"keep.txt", "prune.txt"}) {
    util::write_file_atomic(dir / list, "bin/sh  # fine\n/bin/cat\n");
    try {
      load_rootfs_recipe(dir);
      ADD_FAILURE() << list << ": an absolute path was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find((dir / list).string() + ":2: '/bin/cat'"), std::string::npos) << e.what();
    }
    util::write_file_atomic(dir / list, "usr/../../etc/passwd\n");
    EXPECT_THROW(load_rootfs_recipe(dir), std::runtime_error) << list;
    fs::remove(dir / list);
  }
  fs::remove_all(dir);
}

TEST(ImageKey, ChangesWithEachInputOnly) {
  auto dir = fs::temp_directory_path() / ("rlab-imgkey-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  util::write_file_atomic(dir / "agent", "agent v1");
  RootfsRecipe base;
  base.suite = "bookworm";
  base.packages = {"dash", "coreutils"};
  base.prune = {"usr/share/doc"};
  base.init_script = "#!/bin/sh\n";
  std::set<std::string> keys{image_key(base, dir / "agent")};
  EXPECT_EQ(image_key(base, dir / "agent"), *keys.begin());
  auto changed = [&](RootfsRecipe r) { return keys.insert(image_key(r, dir / "agent")).second; };
  auto r = base; r.suite = "trixie"; EXPECT_TRUE(changed(r));
  r = base; r.packages.push_back("grep"); EXPECT_TRUE(changed(r));
  r = base; r.prune.clear(); EXPECT_TRUE(changed(r));
  r = base; r.keep.push_back("bin/sh"); EXPECT_TRUE(changed(r));
  r = base; r.init_script += "echo\n"; EXPECT_TRUE(changed(r));
  util::write_file_atomic(dir / "agent", "agent v2");
  EXPECT_TRUE(keys.insert(image_key(base, dir / "agent")).second);
  EXPECT_THROW(image_key(base, dir / "no-agent"), std::runtime_error);
  fs::remove_all(dir);
}

TEST(AgentCheck, OnlyAarch64ElfPasses) {
  std::string elf(64, '\0');
  elf.replace(0, 4, "\x7f" "ELF");
  elf[4] = 2;
  elf[5] = 1;
  elf[18] = static_cast<char>(183);
  EXPECT_TRUE(is_aarch64_elf(elf));
  elf[18] = 62;  // x86-64
  EXPECT_FALSE(is_aarch64_elf(elf));
  EXPECT_FALSE(is_aarch64_elf("#!/bin/sh\n"));
  // The host's own programs are x86-64 (or at least not this file): rejected by pack_initramfs.
  auto self = util::read_file("/proc/self/exe");
#if defined(__aarch64__)
  EXPECT_TRUE(is_aarch64_elf(self));
#else
  EXPECT_FALSE(is_aarch64_elf(self));
#endif
}

}  // namespace
}  // namespace rlab::image
