// Kernels of a git tree built in its moving work tree (build/work_tree.hpp), for real: a
// series on Debian's linux-source-6.12, its first commit built (the work tree made), the next
// commit (one XFS file changed) built incrementally, and then the same commit built clean from
// an export while the test holds the work tree: the two Images' .text hashes must be equal.
// Prints the figures ("[work tree] ...", docs/benchmarks.md "Kernel and guest image").
// A long test (RLAB_LONG_TESTS=1): the default tier builds kernels in a moving work tree every
// night of RealSoak.ThreeNights (a generated tree whose tip moves), without this equality check.
#include "build/kernel_build.hpp"
#include "build/work_tree.hpp"
#include "kernel_series.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace rlab::build {
namespace {
namespace fs = std::filesystem;

nlohmann::json manifest_of(const KernelArtifact& a) {
  return nlohmann::json::parse(util::read_file(a.image.parent_path() / "manifest.json"));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(RealWorkTreeBuild, AnIncrementalKernelEqualsACleanBuildOfTheSameCommit) {
  // A series of its own (the repository's path is part of every key): nothing of it is cached.
  const fs::path work = fs::temp_directory_path() / ("rlab-work-tree-build-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  testing::KernelSeries series(work);
  const std::string first = series.comment("fs/xfs/xfs_super.c", "xfs: first");
  const std::string second = series.comment("fs/xfs/xfs_icache.c", "xfs: second, one file");
  KernelSpec spec;
  spec.name = "series";
  spec.source.kind = KernelSource::Kind::kGitTree;
  spec.source.git_tree = series.repo();
  const fs::path cache = util::cache_dir();
  std::vector<fs::path> made;  // what this test adds to the cache, removed at the end

  spec.source.git_ref = first;
  auto t0 = std::chrono::steady_clock::now();
  const auto a = ensure_kernel(spec);
  const double first_s = seconds_since(t0);
  made.push_back(a.image.parent_path());
  ASSERT_FALSE(a.cache_hit);

  spec.source.git_ref = second;
  t0 = std::chrono::steady_clock::now();
  const auto inc = ensure_kernel(spec);
  const double inc_s = seconds_since(t0);
  made.push_back(inc.image.parent_path());
  const auto m = manifest_of(inc);
  EXPECT_FALSE(m.at("build_from_scratch").get<bool>()) << "the second commit was not built in the work tree";
  EXPECT_LT(m.at("build_steps").get<int>(), 200) << "an incremental build replayed the whole tree";
  ASSERT_FALSE(inc.text_sha256.empty());

  // The same commit clean: its entry removed, the work tree held here so the build exports.
  const std::string inc_text = inc.text_sha256;
  fs::remove_all(inc.image.parent_path());
  t0 = std::chrono::steady_clock::now();
  fs::path tree_dir;
  KernelArtifact clean;
  {
    // Every work tree of this repository is held: whichever config key the build asks for.
    std::vector<util::FileLock> held;
    for (const auto& e : fs::directory_iterator(cache / "kbuild"))
      if (e.path().filename().string().rfind("tree-", 0) == 0 &&
          fs::exists(e.path() / "state.json") &&
          util::read_file(e.path() / "state.json").find(second) != std::string::npos) {
        tree_dir = e.path();
        held.emplace_back(cache / "locks" / ("kernel-" + e.path().filename().string() + ".lock"));
      }
    ASSERT_FALSE(held.empty()) << "no work tree at " << second;
    clean = ensure_kernel(spec);
  }
  const double clean_s = seconds_since(t0);
  made.push_back(clean.image.parent_path());
  EXPECT_TRUE(manifest_of(clean).at("build_from_scratch").get<bool>());
  EXPECT_EQ(clean.text_sha256, inc_text) << "the incremental Image's code differs from a clean build's";
  EXPECT_EQ(clean.key, inc.key);

  std::fprintf(stderr,
               "[work tree] first commit (work tree made, configured): %.1f s; next commit, one file "
               "changed: %.1f s (%d make lines); the same commit clean from an export: %.1f s; .text equal: %s\n",
               first_s, inc_s, m.at("build_steps").get<int>(), clean_s,
               clean.text_sha256 == inc_text ? "yes" : "no");

  for (const auto& p : made) fs::remove_all(p);
  if (!tree_dir.empty()) fs::remove_all(tree_dir);
  fs::remove_all(cache / "kbuild" / clean.key);
  fs::remove_all(cache / "sources" / ("git-" + second));
  fs::remove_all(work);
}

}  // namespace
}  // namespace rlab::build
