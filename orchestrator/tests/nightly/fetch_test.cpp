// The night's fetches against real git: a remote's new commit reaches the tree (and a kernel's
// git tree), and what cannot be fetched (no such remote, not a git repository) is a result
// with git's own words, never an exception.
#include "nightly/fetch.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace rlab;

namespace {

std::string git(const fs::path& dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", dir.string(), "-c", "user.name=t", "-c", "user.email=t@t"});
  return util::trim_end(util::run_checked(args).output);
}

struct Trees {
  fs::path root = fs::temp_directory_path() / ("rlab-fetch-" + std::to_string(::getpid()));
  fs::path upstream = root / "upstream", clone = root / "clone", kernel_clone = root / "kclone";
  Trees() {
    fs::remove_all(root);
    fs::create_directories(upstream);
    git(upstream, {"init", "-q", "-b", "main"});
    git(upstream, {"commit", "-q", "--allow-empty", "-m", "one"});
    util::run_checked({"git", "clone", "-q", upstream.string(), clone.string()});
    util::run_checked({"git", "clone", "-q", upstream.string(), kernel_clone.string()});
    git(upstream, {"commit", "-q", "--allow-empty", "-m", "two"});
  }
  ~Trees() { fs::remove_all(root); }
  matrix::Matrix matrix(std::vector<std::string> remotes) const {
    const std::string text =
        "kernels:\n  k: {source: {git: " + kernel_clone.string() + ", ref: origin/main}}\n"
        "axes: {kernel: [k], vcpus: [1], filesystem: [{fs: xfs}], workload: [{type: shell1}]}\n"
        "nightly:\n  tree: " + clone.string() + "\n  fetch: [" +
        [&] { std::string s; for (auto& r : remotes) s += (s.empty() ? "" : ", ") + r; return s; }() + "]\n";
    return matrix::parse_matrix(text, root / "m.yaml");
  }
};

}  // namespace

TEST(NightFetch, TheRemotesNewCommitReachesTheTreeAndTheKernelsTree) {
  Trees t;
  const std::string two = git(t.upstream, {"rev-parse", "HEAD"});
  ASSERT_NE(git(t.clone, {"rev-parse", "origin/main"}), two);
  const auto m = t.matrix({"origin"});
  EXPECT_EQ(matrix::fetch_trees(m), (std::vector<fs::path>{t.clone, t.kernel_clone}));
  const auto got = nightly::fetch_remotes(m, t.clone);
  ASSERT_EQ(got.size(), 2u);
  for (const auto& f : got) {
    EXPECT_TRUE(f.ok) << nightly::describe(f);
    EXPECT_EQ(f.remote, "origin");
  }
  EXPECT_EQ(git(t.clone, {"rev-parse", "origin/main"}), two);
  EXPECT_EQ(git(t.kernel_clone, {"rev-parse", "origin/main"}), two);
}

TEST(NightFetch, WhatCannotBeFetchedIsAResultNamingTheTreeAndWhy) {
  Trees t;
  const fs::path not_git = t.root / "plain";
  fs::create_directories(not_git);
  const auto got = nightly::fetch_remotes(t.matrix({"nosuch"}), not_git);
  ASSERT_EQ(got.size(), 3u) << "the night's tree first, then the matrix's";
  EXPECT_EQ(got[0].tree, not_git);
  for (const auto& f : got) {
    EXPECT_FALSE(f.ok);
    const auto line = nightly::describe(f);
    EXPECT_NE(line.find("fetch nosuch in " + f.tree.string() + ": failed: "), std::string::npos) << line;
    EXPECT_FALSE(f.message.empty()) << line;
  }
  EXPECT_NE(got[0].message.find("not a git repository"), std::string::npos) << got[0].message;
  EXPECT_NE(got[1].message.find("nosuch"), std::string::npos) << got[1].message;
}

TEST(NightFetch, NoFetchConfiguredFetchesNothing) {
  Trees t;
  EXPECT_TRUE(nightly::fetch_remotes(t.matrix({}), t.clone).empty());
}

// `fetch` with no tree anywhere (no --tree, no nightly.tree, no kernel from git): one failed
// fetch saying so, in the reports' lab section.
TEST(NightFetch, RemotesWithoutAnyTreeAreOneFailureSayingSo) {
  const auto m = matrix::parse_matrix(
      "kernels: {k: {source: {debian: \"6.12\", suite: trixie}}}\n"
      "axes: {kernel: [k], vcpus: [1], filesystem: [{fs: xfs}], workload: [{type: shell1}]}\n"
      "nightly: {fetch: [origin]}\n",
      "/tmp/m.yaml");
  const auto got = nightly::fetch_remotes(m, {});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].ok);
  EXPECT_EQ(nightly::describe(got[0]),
            "fetch origin: failed: no git tree to fetch in (no --tree or nightly.tree, and no kernel with source.git)");
}
