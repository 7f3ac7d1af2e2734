// `cmake --install` into a temporary prefix: the installed rlab runs, and finds its default
// matrix and images/ under <prefix>/share/rlab from its own location, without the source tree.
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using rlab::util::run;

class Install : public ::testing::Test {
 protected:
  void SetUp() override {
    prefix_ = fs::temp_directory_path() / ("rlab-install-" + std::to_string(::getpid()));
    fs::remove_all(prefix_);
    const auto r = run({"cmake", "--install", RLAB_BINARY_DIR, "--prefix", prefix_.string()});
    ASSERT_TRUE(r.ok()) << r.output;
  }
  void TearDown() override { fs::remove_all(prefix_); }
  fs::path prefix_;
};

TEST_F(Install, PutsProgramDataAndUnitsUnderThePrefix) {
  EXPECT_TRUE(fs::is_regular_file(prefix_ / "bin/rlab"));
  EXPECT_TRUE(fs::is_regular_file(prefix_ / "share/rlab/matrix.yaml"));
  EXPECT_TRUE(fs::is_regular_file(prefix_ / "share/rlab/images/kernel/base.config"));
  EXPECT_TRUE(fs::is_regular_file(prefix_ / "share/rlab/images/patches/xfs-inline-inactivation.patch"));
  EXPECT_TRUE(fs::is_regular_file(prefix_ / "share/rlab/matrices/arm64-nightly.yaml"));
  EXPECT_TRUE(fs::is_regular_file(prefix_ / "lib/systemd/system/rlab-nightly.service"));
  EXPECT_TRUE(fs::is_regular_file(prefix_ / "lib/systemd/system/rlab-nightly.timer"));
  // The agent is installed exactly when the aarch64 preset built it.
  EXPECT_EQ(fs::exists(prefix_ / "lib/rlab/rlab-agent"),
            fs::exists(fs::path(RLAB_SOURCE_DIR) / "build/aarch64/guest-agent/rlab-agent"));
}

TEST_F(Install, TheInstalledRlabRunsAndDryRunsItsInstalledDefaultMatrix) {
  const auto rlab = (prefix_ / "bin/rlab").string();
  const auto version = run({rlab, "--version"});
  ASSERT_TRUE(version.ok()) << version.output;
  EXPECT_EQ(version.output.rfind("rlab ", 0), 0u) << version.output;

  ASSERT_TRUE(run({(fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh").string()}).ok());
  const auto matrix = prefix_ / "share/rlab/matrix.yaml";
  const auto dry = run({rlab, "run", "--dry-run", matrix.string()});
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_NE(dry.output.find(matrix.string() + ": valid; dry run"), std::string::npos) << dry.output;
  // With no matrix argument the installed rlab takes its installed default matrix, not the
  // source tree's.
  const auto by_default = run({rlab, "run", "--dry-run"});
  ASSERT_EQ(by_default.exit_code, 0) << by_default.output;
  EXPECT_NE(by_default.output.find(matrix.string() + ": valid"), std::string::npos) << by_default.output;
}

}  // namespace
