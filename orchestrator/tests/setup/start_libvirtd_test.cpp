// scripts/start-libvirtd.sh decides how libvirtd is started: through systemd where systemd
// runs, by hand where it does not. Its commands are stubs here that write what they were
// asked into a log, so both ways are checked on any machine.
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace rlab {
namespace {
namespace fs = std::filesystem;

struct StartLibvirtd : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("rlab-start-libvirtd-" + std::to_string(::getpid()));
  fs::path log = dir / "log";
  fs::path up = dir / "up";  // exists once libvirtd "answers"

  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir / "bin");
    fs::create_directories(dir / "systemd");
    util::write_file_atomic(log, "");
    stub("virsh", "[ -e '" + up.string() + "' ]\n");
    stub("systemctl", "echo \"systemctl $*\" >> '" + log.string() + "'; touch '" + up.string() + "'\n");
    stub("virtlogd", "echo \"virtlogd $*\" >> '" + log.string() + "'\n");
    stub("setsid", "echo \"setsid $*\" >> '" + log.string() + "'; touch '" + up.string() + "'\n");
    daemons_running(false);
  }
  void TearDown() override { fs::remove_all(dir); }

  void stub(const std::string& name, const std::string& body) {
    util::write_file_atomic(dir / "bin" / name, "#!/bin/bash\n" + body);
    fs::permissions(dir / "bin" / name, fs::perms(0755));
  }
  void daemons_running(bool yes) { stub("pgrep", yes ? "exit 0\n" : "exit 1\n"); }

  // Runs the script with systemd running or not; returns its exit code.
  int start(bool systemd) {
    util::ProcessOptions o;
    o.env = {{"PATH", (dir / "bin").string() + ":/usr/bin:/bin"},
             {"RLAB_SYSTEMD_DIR", (dir / (systemd ? "systemd" : "no-systemd")).string()}};
    o.timeout = std::chrono::seconds(60);
    auto r = util::run({"/bin/bash", (fs::path(RLAB_SOURCE_DIR) / "scripts/start-libvirtd.sh").string()}, o);
    output = r.output;
    return r.exit_code;
  }
  std::string output;
};

TEST_F(StartLibvirtd, WhereSystemdRunsItStartsTheUnit) {
  EXPECT_EQ(start(true), 0) << output;
  EXPECT_EQ(util::read_file(log), "systemctl start libvirtd.service\n");
}

TEST_F(StartLibvirtd, WhereSystemdRunsAndLibvirtdAnswersItStartsNothing) {
  util::write_file_atomic(up, "");
  EXPECT_EQ(start(true), 0) << output;
  EXPECT_EQ(util::read_file(log), "");
}

TEST_F(StartLibvirtd, WithoutSystemdItLeavesRunningDaemonsAlone) {
  daemons_running(true);
  util::write_file_atomic(up, "");
  EXPECT_EQ(start(false), 0) << output;
  EXPECT_EQ(util::read_file(log), "");
}

TEST_F(StartLibvirtd, WithoutSystemdItStartsBothDaemonsByHand) {
  // The by-hand path appends libvirtd's log to /var/log/libvirt/libvirtd.log.
  if (::access("/var/log", W_OK) != 0) GTEST_SKIP() << "needs to write /var/log/libvirt (root)";
  EXPECT_EQ(start(false), 0) << output;
  EXPECT_EQ(util::read_file(log), "virtlogd --daemon\nsetsid tini -s -- libvirtd\n");
}

TEST_F(StartLibvirtd, ALibvirtdThatNeverAnswersIsAnError) {
  stub("systemctl", "exit 0\n");
  EXPECT_EQ(start(true), 1);
  EXPECT_NE(output.find("libvirtd did not answer on qemu:///system"), std::string::npos) << output;
}

}  // namespace
}  // namespace rlab
