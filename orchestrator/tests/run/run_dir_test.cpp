// Per-run directories: reachable by QEMU's user, short boot dirs, staged images.
#include "run/run_dir.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace rlab::run;

TEST(RunDir, PrivateParentFallsBackToVarTmp) {
  fs::path priv = fs::temp_directory_path() / ("rlab-priv-" + std::to_string(getpid()));
  fs::create_directories(priv / "results");
  fs::permissions(priv, fs::perms::owner_all);  // 0700: others cannot search it
  EXPECT_FALSE(reachable_by_others(priv / "results"));
  RunDir d(priv / "results" / "rlab.db", 424242, std::nullopt);
  EXPECT_EQ(d.path(), fs::path("/var/tmp/rlab/runs") / run_label(424242, priv / "results" / "rlab.db"));
  EXPECT_TRUE(reachable_by_others(d.path()));
  fs::remove_all(d.path());
  fs::remove_all(priv);
}

TEST(RunDir, BootDirIsFreshShortAndStagedImagesAreCopies) {
  fs::path root = fs::path("/var/tmp") / ("rlab-rundir-" + std::to_string(getpid()));
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec);
  RunDir d(root / "rlab.db", 7, rlab::vm::QemuOwner{64055, 64055});
  const std::string label = run_label(7, root / "rlab.db");
  EXPECT_EQ(d.path(), root / "runs" / label);
  fs::path b = d.boot_dir(12);
  EXPECT_EQ(b, root / "runs" / label / "b12");
  std::ofstream(b / "old") << "x";
  b = d.boot_dir(12);
  EXPECT_FALSE(fs::exists(b / "old")) << "a boot directory starts empty";
  if (geteuid() == 0) {
    struct stat st {};
    ASSERT_EQ(stat(b.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 64055u) << "QEMU's user owns the boot directory";
  }
  std::ofstream(root / "Image") << std::string(1000, 'k');
  std::ofstream(root / "initramfs.cpio.zst") << std::string(500, 'i');
  rlab::image::GuestImages img;
  img.kernel_image = root / "Image";
  img.initramfs = root / "initramfs.cpio.zst";
  img.kernel_key = std::string(64, '1');
  img.image_key = std::string(64, '2');
  auto staged = d.stage(img);
  EXPECT_EQ(staged.kernel_image.parent_path().parent_path(), root / "runs" / run_label(7, root / "rlab.db") / "images");
  EXPECT_EQ(fs::file_size(staged.kernel_image), 1000u);
  EXPECT_EQ(staged.initramfs.filename(), "initramfs.cpio.zst");
  EXPECT_EQ(staged.kernel_key, img.kernel_key);
  EXPECT_TRUE(reachable_by_others(staged.kernel_image.parent_path()));
  fs::remove_all(root);
}

TEST(RunDir, TheStagedImagesGoWhenTheRunIsOverAndTheConsolesStay) {
  fs::path root = fs::path("/var/tmp") / ("rlab-rundir-end-" + std::to_string(getpid()));
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec);
  std::ofstream(root / "Image") << std::string(1000, 'k');
  std::ofstream(root / "initramfs.cpio.zst") << std::string(500, 'i');
  rlab::image::GuestImages img{};
  img.kernel_image = root / "Image";
  img.initramfs = root / "initramfs.cpio.zst";
  img.kernel_key = std::string(64, '1');
  img.image_key = std::string(64, '2');
  fs::path run, staged, console;
  {
    RunDir d(root / "rlab.db", 3, std::nullopt);
    run = d.path();
    staged = d.stage(img).kernel_image;
    console = d.boot_dir(1) / "console.log";
    std::ofstream(console) << "boot log";
    ASSERT_TRUE(fs::exists(staged));
  }
  EXPECT_FALSE(fs::exists(run / "images"));
  EXPECT_TRUE(fs::exists(console));
  fs::remove_all(root);
}

TEST(RunDir, RunsOfTwoStoresInOneDirectoryGetTheirOwnDirectories) {
  // Run ids count per store: run 1 of a.db and run 1 of b.db side by side must not share boot
  // directories (one would wipe or hold the other's console log).
  fs::path root = fs::path("/var/tmp") / ("rlab-rundir2-" + std::to_string(getpid()));
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec);
  RunDir a(root / "a.db", 1, std::nullopt), b(root / "b.db", 1, std::nullopt);
  EXPECT_NE(a.path(), b.path());
  EXPECT_EQ(a.path().parent_path(), b.path().parent_path());
  EXPECT_EQ(a.path().filename().string().rfind("1.", 0), 0u) << a.path();
  fs::remove_all(root);
}

TEST(RunDir, ThinningRemovesTheNamedRunsDirectoriesOnly) {
  fs::path root = fs::path("/var/tmp") / ("rlab-rundir-thin-" + std::to_string(getpid()));
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec);
  fs::path one, two;
  {
    RunDir a(root / "rlab.db", 1, std::nullopt), b(root / "rlab.db", 2, std::nullopt);
    std::ofstream(a.boot_dir(1) / "console.log") << "old boot";
    std::ofstream(b.boot_dir(2) / "console.log") << "new boot";
    one = a.path();
    two = b.path();
  }
  EXPECT_EQ(remove_run_dirs(root / "rlab.db", {1, 99}), 1u) << "run 99 has no directory";
  EXPECT_FALSE(fs::exists(one));
  EXPECT_TRUE(fs::exists(two / "b2" / "console.log"));
  EXPECT_EQ(remove_run_dirs(root / "rlab.db", {1}), 0u) << "already gone";
  fs::remove_all(root);
}
