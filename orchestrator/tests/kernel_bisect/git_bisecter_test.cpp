// The one bisection loop over `git bisect` (GitBisecter) and over the simulator's list
// (ListBisecter): the same answers lead to the same first bad commit, or to the same
// candidates when skips hide it.
#include "kernel_bisect/git.hpp"
#include "git_fixture.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

namespace rlab::kernel_bisect {
namespace {
namespace fs = std::filesystem;

struct Searched {
  bisection::SearchEnd end;
  std::vector<std::string> asked;
};

/// search() over `b`, answering bad from commit `culprit` on and skip for `skipped`.
Searched run(bisection::Bisecter& b, const std::vector<std::string>& shas, std::size_t culprit,
             const std::vector<std::size_t>& skipped) {
  Searched out;
  const auto answer = [&](const std::string& c) {
    out.asked.push_back(c);
    const auto i = static_cast<std::size_t>(std::find(shas.begin(), shas.end(), c) - shas.begin());
    if (std::count(skipped.begin(), skipped.end(), i)) return bisection::StepAnswer{bisection::StepResult::skip};
    return bisection::StepAnswer{i >= culprit ? bisection::StepResult::bad : bisection::StepResult::good};
  };
  out.end = bisection::search(b, answer, shas.size());
  return out;
}

TEST(GitBisecter, TheLoopOverGitAndOverTheListAgree) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-git-bisecter-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const auto shas = testing::make_linear_repo(dir, 17);
  GitTree git(dir);
  for (const std::size_t culprit : {std::size_t{1}, std::size_t{6}, std::size_t{16}}) {
    SCOPED_TRACE("culprit " + std::to_string(culprit));
    GitBisecter over_git(git, git.start(shas.back(), shas.front()));
    const auto g = run(over_git, shas, culprit, {});
    git.reset();
    bisection::ListBisecter over_list(shas);
    const auto l = run(over_list, shas, culprit, {});
    ASSERT_EQ(g.end.status, bisection::Status::found);
    EXPECT_EQ(g.end.first_bad, shas[culprit]);
    EXPECT_EQ(l.end.first_bad, g.end.first_bad);
    EXPECT_LE(g.asked.size(), 4u);  // ceil(log2 16)
    EXPECT_LE(l.asked.size(), 4u);
  }
  // Two skipped commits right before the culprit hide it from both.
  GitBisecter over_git(git, git.start(shas.back(), shas.front()));
  const auto g = run(over_git, shas, 8, {7, 8});
  git.reset();
  bisection::ListBisecter over_list(shas);
  const auto l = run(over_list, shas, 8, {7, 8});
  ASSERT_EQ(g.end.status, bisection::Status::hidden_by_skips);
  ASSERT_EQ(l.end.status, bisection::Status::hidden_by_skips);
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(g.end.candidates), sorted(l.end.candidates));
  EXPECT_EQ(sorted(l.end.candidates), sorted({shas[7], shas[8], shas[9]}));
  EXPECT_FALSE(git.bisecting());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rlab::kernel_bisect
