// `rlab bisect-step` under a real `git bisect run` (answers stored beforehand, so no VM is
// needed: the command must read the commit git chose and map the answer to git's exit codes),
// its abort code, and `rlab bisect` refusals.
#include "kernel_bisect/driver.hpp"
#include "git_fixture.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

namespace rlab::kernel_bisect {
namespace {
namespace fs = std::filesystem;
using testing::git;

std::string rlab_bin() {
  const char* b = std::getenv("RLAB_BIN");
  return b ? b : "";
}

class StepCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(rlab_bin().empty()) << "RLAB_BIN is not set";
    dir = fs::temp_directory_path() / ("rlab-bisect-step-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    shas = testing::make_linear_repo(dir / "tree", 12);
  }
  void TearDown() override { fs::remove_all(dir); }
  util::ProcessResult rlab(std::vector<std::string> args) const {
    args.insert(args.begin(), rlab_bin());
    util::ProcessOptions o;
    o.timeout = std::chrono::seconds(120);
    return util::run(args, o);
  }
  fs::path dir;
  std::vector<std::string> shas;
};

TEST_F(StepCliTest, GitBisectRunFollowsTheStoredAnswers) {
  SessionId id = 0;
  {
    SessionDb db(dir / "rlab.db");
    StartOptions o;
    o.tree = dir / "tree";
    o.good = shas.front();
    o.bad = shas.back();
    o.cell = "xfs";
    o.matrix = fs::path(RLAB_TEST_DATA) / "matrix.yaml";
    id = create_session(db, o);
    // Commit 7 is the first bad one; commit 3 "does not build".
    for (std::size_t i = 1; i + 1 < shas.size(); ++i) {
      StepRow r;
      r.commit = shas[i];
      r.result = i == 3 ? bisection::StepResult::skip : i >= 7 ? bisection::StepResult::bad : bisection::StepResult::good;
      r.reason = "stored for the test";
      db.record_step(id, r);
    }
  }
  git(dir / "tree", {"bisect", "start", "--no-checkout", shas.back(), shas.front()});
  std::vector<std::string> argv{"git", "-C", (dir / "tree").string(), "bisect", "run", rlab_bin(),
                                "bisect-step", "--session", std::to_string(id), "--db",
                                (dir / "rlab.db").string()};
  auto r = util::run(argv, testing::git_env());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  auto outcome = parse_bisect_output(r.output);
  EXPECT_TRUE(outcome.done) << r.output;
  EXPECT_EQ(outcome.first_bad, shas[7]) << r.output;
  EXPECT_NE(r.output.find("commit 7"), std::string::npos);
}

TEST_F(StepCliTest, UnknownSessionAbortsGitBisectRun) {
  {
    SessionDb db(dir / "rlab.db");  // an empty store
  }
  auto direct = rlab({"bisect-step", "--session", "42", "--db", (dir / "rlab.db").string()});
  EXPECT_EQ(direct.exit_code, 128) << direct.output;
  EXPECT_NE(direct.output.find("no bisect session 42"), std::string::npos) << direct.output;
  auto missing = rlab({"bisect-step", "--db", (dir / "rlab.db").string()});
  EXPECT_EQ(missing.exit_code, 128) << missing.output;

  git(dir / "tree", {"bisect", "start", "--no-checkout", shas.back(), shas.front()});
  auto before = git(dir / "tree", {"bisect", "log"});
  std::vector<std::string> argv{"git", "-C", (dir / "tree").string(), "bisect", "run", rlab_bin(),
                                "bisect-step", "--session", "42", "--db", (dir / "rlab.db").string()};
  auto r = util::run(argv, testing::git_env());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_FALSE(parse_bisect_output(r.output).done) << r.output;
  EXPECT_EQ(git(dir / "tree", {"bisect", "log"}), before);  // nothing was marked
}

TEST_F(StepCliTest, BisectRefusesBadInvocations) {
  const std::string db = (dir / "rlab.db").string();
  const std::string matrix = (fs::path(RLAB_TEST_DATA) / "matrix.yaml").string();
  auto no_args = rlab({"bisect", "--db", db, "--matrix", matrix});
  EXPECT_EQ(no_args.exit_code, 2) << no_args.output;
  EXPECT_NE(no_args.output.find("--tree"), std::string::npos) << no_args.output;
  auto bad_tree = rlab({"bisect", "--tree", (dir / "nope").string(), "--good", "a", "--bad", "b",
                        "--cell", "xfs", "--db", db, "--matrix", matrix});
  EXPECT_EQ(bad_tree.exit_code, 2) << bad_tree.output;
  EXPECT_NE(bad_tree.output.find("does not exist"), std::string::npos) << bad_tree.output;
  auto bad_ref = rlab({"bisect", "--tree", (dir / "tree").string(), "--good", "v0.0", "--bad",
                       "main", "--cell", "xfs", "--db", db, "--matrix", matrix});
  EXPECT_EQ(bad_ref.exit_code, 2) << bad_ref.output;
  EXPECT_NE(bad_ref.output.find("'v0.0' is not a commit"), std::string::npos) << bad_ref.output;
  auto no_session = rlab({"bisect", "--resume", "7", "--db", db, "--matrix", matrix});
  EXPECT_EQ(no_session.exit_code, 2) << no_session.output;
}

}  // namespace
}  // namespace rlab::kernel_bisect
