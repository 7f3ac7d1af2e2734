// The culprit checks (kernel_bisect/culprit.hpp) on a real git tree: a culprit whose kernel text
// equals its parent's is a no-op, one that changes no file the kernel compiled is unrelated, a
// Kconfig or Makefile change always counts, and a kernel that did not build leaves a check
// unknown with the reason. Then through the driver: the checks are stored with the session and
// shown in its report.
#include "kernel_bisect/culprit.hpp"
#include "git_fixture.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>

namespace rlab::kernel_bisect {
namespace {
namespace fs = std::filesystem;
using testing::git;

/// Kernel facts by commit: what a build of it would have recorded.
struct FactsLab : Lab {
  std::map<std::string, std::optional<KernelFacts>> facts;
  std::vector<double> stored(const std::string&, const std::string&) override { return {}; }
  std::vector<bisection::Measurement> measure(const std::vector<LabRequest>& r, const std::string&) override {
    return std::vector<bisection::Measurement>(r.size());
  }
  std::optional<KernelFacts> kernel_facts(const std::string& commit) override { return facts.at(commit); }
};

class Culprit : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-culprit-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "fs/xfs");
    fs::create_directories(dir_ / "Documentation");
    git(dir_, {"init", "-q", "-b", "main"});
    commit({{"fs/xfs/xfs_icache.c", "int a;\n"}, {"Documentation/x.rst", "a\n"}, {"fs/xfs/Kconfig", "config XFS_FS\n"}});
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string commit(const std::map<std::string, std::string>& files) {
    for (const auto& [f, text] : files) {
      std::ofstream(dir_ / f) << text;
      git(dir_, {"add", f});
    }
    git(dir_, {"commit", "-q", "-m", "change " + files.begin()->first});
    return git(dir_, {"rev-parse", "HEAD"});
  }
  static KernelFacts facts(const std::string& text) {
    return {text, {"fs/xfs/xfs_icache.c", "include/linux/fs.h"}};
  }
  fs::path dir_;
};

TEST_F(Culprit, ACompiledChangeWithNewCodePassesBoth) {
  const std::string parent = git(dir_, {"rev-parse", "HEAD"});
  const std::string c = commit({{"fs/xfs/xfs_icache.c", "int a; int b;\n"}});
  FactsLab lab;
  lab.facts = {{c, facts("t2")}, {parent, facts("t1")}};
  const auto r = check_culprit(GitTree(dir_), lab, c);
  EXPECT_EQ(r.parent, parent);
  EXPECT_EQ(r.changed, std::vector<std::string>{"fs/xfs/xfs_icache.c"});
  EXPECT_EQ(r.no_op, false);
  EXPECT_EQ(r.unrelated, false);
  EXPECT_FALSE(r.suspicious());
  EXPECT_NE(render_checks(r).find("unrelated check: passed -- it changes fs/xfs/xfs_icache.c"), std::string::npos);
}

TEST_F(Culprit, TheSameKernelTextIsANoOpAndADocumentationChangeIsUnrelated) {
  const std::string parent = git(dir_, {"rev-parse", "HEAD"});
  const std::string c = commit({{"Documentation/x.rst", "b\n"}});
  FactsLab lab;
  lab.facts = {{c, facts("same")}, {parent, facts("same")}};
  const auto r = check_culprit(GitTree(dir_), lab, c);
  EXPECT_EQ(r.no_op, true);
  EXPECT_EQ(r.unrelated, true);
  EXPECT_TRUE(r.suspicious());
  const auto text = render_checks(r);
  EXPECT_NE(text.find("no-op check: SUSPICIOUS"), std::string::npos) << text;
  EXPECT_NE(text.find("it changes only Documentation/x.rst, nothing this kernel compiles or includes"), std::string::npos)
      << text;
  const auto back = checks_from_json(checks_json(r).dump());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->no_op, true);
  EXPECT_EQ(back->changed, r.changed);
  EXPECT_FALSE(checks_from_json("").has_value());
  EXPECT_FALSE(checks_from_json("{not json").has_value());
}

TEST_F(Culprit, AKconfigChangeCountsAndAKernelThatDidNotBuildLeavesTheCheckUnknown) {
  const std::string parent = git(dir_, {"rev-parse", "HEAD"});
  const std::string c = commit({{"fs/xfs/Kconfig", "config XFS_FS\n\tdefault y\n"}});
  FactsLab lab;
  lab.facts = {{c, facts("t2")}, {parent, std::nullopt}};
  const auto r = check_culprit(GitTree(dir_), lab, c);
  EXPECT_FALSE(r.no_op.has_value());
  EXPECT_NE(r.note.find("did not build"), std::string::npos) << r.note;
  EXPECT_EQ(r.unrelated, false) << "a Kconfig change is part of the build";
  EXPECT_TRUE(build_file("arch/arm64/configs/defconfig"));
  EXPECT_TRUE(build_file("scripts/Makefile.build"));
  EXPECT_FALSE(build_file("fs/xfs/xfs_inode.c"));
  EXPECT_NE(render_checks(r).find("no-op check: not made"), std::string::npos);
}

}  // namespace
}  // namespace rlab::kernel_bisect

namespace rlab::kernel_bisect {
namespace {

// The revert commit is made beside the checkout: HEAD, the index and the files stay as they
// were; it undoes exactly the culprit's change on top of the commit given, and a revert that
// conflicts with a later change is refused with git's reason.
TEST_F(Culprit, RevertOntoMakesACommitWithoutTouchingTheCheckout) {
  const std::string culprit = commit({{"fs/xfs/xfs_icache.c", "int a; int slow;\n"}});
  const std::string later = commit({{"Documentation/x.rst", "b\n"}});
  const std::string head_before = git(dir_, {"rev-parse", "HEAD"});
  const std::string status_before = git(dir_, {"status", "--porcelain"});
  const GitTree g(dir_);
  std::string why;
  const auto revert = g.revert_onto(culprit, later, why);
  ASSERT_TRUE(revert) << why;
  EXPECT_EQ(g.parent(*revert), later);
  EXPECT_EQ(git(dir_, {"show", *revert + ":fs/xfs/xfs_icache.c"}), "int a;");
  EXPECT_EQ(git(dir_, {"show", *revert + ":Documentation/x.rst"}), "b") << "the later change stays";
  EXPECT_EQ(git(dir_, {"rev-parse", "refs/rlab/reverts/" + culprit}), *revert) << "kept from gc";
  EXPECT_EQ(g.revert_onto(culprit, later, why), revert) << "made once: a resumed session reuses it";
  EXPECT_EQ(git(dir_, {"rev-parse", "HEAD"}), head_before);
  EXPECT_EQ(git(dir_, {"status", "--porcelain"}), status_before);

  const std::string over = commit({{"fs/xfs/xfs_icache.c", "int a; int slow; int more;\n"}});
  EXPECT_FALSE(g.revert_onto(culprit, over, why)) << "the culprit's line was changed again";
  EXPECT_NE(why.find("xfs_icache.c"), std::string::npos) << why;
}

}  // namespace
}  // namespace rlab::kernel_bisect
