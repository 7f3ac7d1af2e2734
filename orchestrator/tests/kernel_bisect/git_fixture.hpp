#pragma once
// Test helpers: a throwaway git repository with a linear history of small commits, made with
// argv vectors and fixed identities and dates (so SHAs are reproducible).
#include "util/process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rlab::kernel_bisect::testing {

/// Environment for git commits with a fixed author, committer and date.
inline util::ProcessOptions git_env(const std::filesystem::path& cwd = {}) {
  util::ProcessOptions o;
  o.cwd = cwd;
  o.timeout = std::chrono::seconds(600);
  o.env = {{"GIT_AUTHOR_NAME", "rlab test"},     {"GIT_AUTHOR_EMAIL", "test@rlab.invalid"},
           {"GIT_COMMITTER_NAME", "rlab test"},  {"GIT_COMMITTER_EMAIL", "test@rlab.invalid"},
           {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"}, {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"},
           {"LC_ALL", "C"}};
  return o;
}

/// Runs git in `repo`; fails the test on a non-zero exit. Returns stdout+stderr.
inline std::string git(const std::filesystem::path& repo, std::vector<std::string> args) {
  std::vector<std::string> argv{"git", "-C", repo.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = util::run(argv, git_env());
  EXPECT_TRUE(r.ok()) << util::display_command(argv) << ":\n" << r.output;
  while (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
  return r.output;
}

/// A repository in `dir` with `n` commits (0..n-1), commit i writing "step i" to file.txt
/// (with `file_each`: to a file of its own, file<i>.txt, so that any commit reverts cleanly on
/// a later one); returns their SHAs, oldest first.
inline std::vector<std::string> make_linear_repo(const std::filesystem::path& dir, int n,
                                                 bool file_each = false) {
  std::filesystem::create_directories(dir);
  git(dir, {"init", "-q", "-b", "main"});
  std::vector<std::string> shas;
  for (int i = 0; i < n; ++i) {
    const std::string file = file_each ? "file" + std::to_string(i) + ".txt" : "file.txt";
    std::ofstream(dir / file) << "step " << i << "\n";
    git(dir, {"add", file});
    git(dir, {"commit", "-q", "-m", "commit " + std::to_string(i)});
    shas.push_back(git(dir, {"rev-parse", "HEAD"}));
  }
  return shas;
}

}  // namespace rlab::kernel_bisect::testing
