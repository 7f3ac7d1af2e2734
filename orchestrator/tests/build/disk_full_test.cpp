// A full disk under the cache and under the reports, on a real (tmpfs) file system: the write
// fails with a message, nothing half-written is left under an entry's or a report's name, and
// what was there before is kept.
#include "build/artifact_cache.hpp"
#include "build/cache_budget.hpp"
#include "build/kernel_build.hpp"
#include "util/file_lock.hpp"
#include "util/process.hpp"
#include "small_disk.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace fs = std::filesystem;
using rlab::testing::SmallDisk;

namespace {
fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("rlab-" + name + "-" + std::to_string(::getpid()));
}
}  // namespace

TEST(DiskFull, ACacheEntryThatDoesNotFitLeavesNoPartialAndTheNextOneIsMade) {
  SmallDisk disk(scratch("full-cache"), 8);
  const fs::path root = disk.dir / "cache";
  const auto write_mib = [](const fs::path& f, int mib) {
    std::ofstream out(f, std::ios::binary);
    const std::string block(1 << 20, 'k');
    for (int i = 0; i < mib; ++i)
      if (!out.write(block.data(), static_cast<std::streamsize>(block.size())) || !out.flush())
        throw std::runtime_error("writing " + f.string() + ": " + std::strerror(errno));
  };
  try {
    rlab::build::ensure_entry(root, rlab::build::CacheKind::kernel, "big", [&](const fs::path& staging) {
      write_mib(staging / "Image", 16);  // twice the disk
      return nlohmann::json{{"kind", "kernel"}};
    });
    FAIL() << "a 16 MiB entry fitted on an 8 MiB disk";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
  for (const auto& e : fs::directory_iterator(root / "kernels"))
    ADD_FAILURE() << "left behind: " << e.path();
  auto [dir, hit] = rlab::build::ensure_entry(root, rlab::build::CacheKind::kernel, "small", [&](const fs::path& staging) {
    write_mib(staging / "Image", 2);
    return nlohmann::json{{"kind", "kernel"}};
  });
  EXPECT_FALSE(hit);
  EXPECT_TRUE(rlab::build::entry_complete(dir)) << "the space the failed entry took is free again";
}

TEST(DiskFull, AFileThatDoesNotFitKeepsTheOneBeforeIt) {
  SmallDisk disk(scratch("full-report"), 4);
  const fs::path report = disk.dir / "2026-12-03-run7" / "report.html";
  fs::create_directories(report.parent_path());
  rlab::util::write_file_atomic(report, "last night's report\n");
  disk.fill("filler");
  EXPECT_THROW(rlab::util::write_file_atomic(report, std::string(1 << 20, 'r')), std::exception);
  EXPECT_EQ(rlab::util::read_file(report), "last night's report\n");
  for (const auto& e : fs::directory_iterator(report.parent_path()))
    EXPECT_EQ(e.path(), report) << "a temporary file was left behind";
}

// The real kernel builder on a cache whose disk cannot hold the tree: a git tree with a 48 MiB
// file of random bytes, exported into a cache on a 24 MiB disk. The build stops with the
// cause, and leaves no partial source, build tree or entry and no held lock.
TEST(DiskFull, AKernelBuildThatRunsOutOfSpaceSaysSoAndLeavesNothingHalfMade) {
  const fs::path repo = scratch("full-build-tree");
  fs::remove_all(repo);
  fs::create_directories(repo);
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", repo.string(), "-c", "user.name=rlab test", "-c",
                               "user.email=test@rlab.invalid"});
    const auto r = rlab::util::run(args);
    ASSERT_TRUE(r.ok()) << r.output;
  };
  git({"init", "-q", "-b", "main"});
  ASSERT_EQ(std::system(("head -c 48M /dev/urandom > " + (repo / "big.bin").string()).c_str()), 0);
  std::ofstream(repo / "Makefile") << "Image:\n\t@echo no kernel here\n";
  git({"add", "-A"});
  git({"commit", "-q", "-m", "a tree larger than the cache's disk"});

  SmallDisk disk(scratch("full-build"), 24);
  const fs::path cache = disk.dir / "cache";
  ::setenv("RLAB_CACHE_DIR", cache.c_str(), 1);
  rlab::build::KernelSpec spec;
  spec.name = "too-big";
  spec.source.kind = rlab::build::KernelSource::Kind::kGitTree;
  spec.source.git_tree = repo;
  spec.source.git_ref = "main";
  std::string error;
  try {
    rlab::build::ensure_kernel(spec);
  } catch (const rlab::DiskFullError& e) {
    error = e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not told apart from a build the commit broke: " << e.what();
  }
  ::unsetenv("RLAB_CACHE_DIR");
  EXPECT_NE(error.find("kernel too-big: the disk of the cache " + cache.string() + " is full"), std::string::npos)
      << error;
  EXPECT_NE(error.find("No space left on device"), std::string::npos) << "the cause is said: " << error;
  for (const char* sub : {"sources", "kbuild", "kernels"})
    if (fs::exists(cache / sub))
      for (const auto& e : fs::directory_iterator(cache / sub))
        EXPECT_EQ(e.path().filename().string().find(".partial-"), std::string::npos) << "left behind: " << e.path();
  if (fs::exists(cache / "kernels"))
    for (const auto& e : fs::directory_iterator(cache / "kernels"))
      EXPECT_TRUE(rlab::build::entry_complete(e.path())) << "half an entry under a key: " << e.path();
  if (fs::exists(cache / "locks"))
    for (const auto& e : fs::directory_iterator(cache / "locks"))
      EXPECT_TRUE(rlab::util::FileLock::try_lock(e.path())) << e.path() << " is still held";
  fs::remove_all(repo);
}
