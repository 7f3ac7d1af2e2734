// scripts/start-libvirtd.sh decides how libvirtd is started: through systemd where systemd
// runs, by hand where it does not. Its commands are stubs here that write what they were
// asked into a log, so both ways are checked on any machine.
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

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
    stub("getent", "[ \"$*\" = 'group libvirt' ] && echo 'libvirt:x:107:'\n");
    stub("stat", "echo " + std::string("libvirt") + "\n");  // the running daemon's socket group
    stub("pkill", "echo \"pkill $*\" >> '" + log.string() + "'; touch '" + (dir / "killed").string() + "'\n");
    util::write_file_atomic(conf_in, "# libvirtd.conf as Debian ships it: all comments\n#unix_sock_group = \"libvirt\"\n");
    daemons_running(false);
  }
  void TearDown() override { fs::remove_all(dir); }

  void stub(const std::string& name, const std::string& body) {
    util::write_file_atomic(dir / "bin" / name, "#!/bin/bash\n" + body);
    fs::permissions(dir / "bin" / name, fs::perms(0755));
  }
  // pgrep: the daemons run (until pkill "stops" libvirtd) or not.
  void daemons_running(bool yes) {
    stub("pgrep", yes ? "[ \"$2\" = libvirtd ] && [ -e '" + (dir / "killed").string() + "' ] && exit 1; exit 0\n"
                      : "exit 1\n");
  }
  fs::path conf_in = dir / "etc-libvirtd.conf";
  fs::path conf = dir / "run" / "libvirtd.conf";  // what the script writes for the by-hand daemon

  // Runs the script with systemd running or not; returns its exit code.
  int start(bool systemd) {
    util::ProcessOptions o;
    o.env = {{"PATH", (dir / "bin").string() + ":/usr/bin:/bin"},
             {"RLAB_SYSTEMD_DIR", (dir / (systemd ? "systemd" : "no-systemd")).string()},
             {"RLAB_SYSTEM_BUS", (dir / "system_bus_socket").string()},
             {"RLAB_LIBVIRT_SOCK", (dir / "libvirt-sock").string()},
             {"RLAB_LIBVIRTD_CONF_IN", conf_in.string()},
             {"RLAB_LIBVIRTD_CONF", conf.string()}};
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
  EXPECT_EQ(util::read_file(log), "virtlogd --daemon\nsetsid tini -s -- libvirtd -f " + conf.string() + "\n");
  // No system bus, so no polkit: the group libvirt gets the read-write socket by its mode.
  EXPECT_EQ(util::read_file(conf), util::read_file(conf_in) +
                                       "unix_sock_group = \"libvirt\"\nunix_sock_rw_perms = \"0770\"\nauth_unix_rw = \"none\"\n");
}

TEST_F(StartLibvirtd, WithoutSystemdASettingOfEtcIsKept) {
  if (::access("/var/log", W_OK) != 0) GTEST_SKIP() << "needs to write /var/log/libvirt (root)";
  util::write_file_atomic(conf_in, "unix_sock_group = \"kvm\"\nauth_unix_rw = \"sasl\"\n");
  EXPECT_EQ(start(false), 0) << output;
  EXPECT_EQ(util::read_file(conf), util::read_file(conf_in) + "unix_sock_rw_perms = \"0770\"\n");
}

TEST_F(StartLibvirtd, WithoutSystemdAndWithoutAnEtcFileTheDaemonGetsTheGroupPolicyAlone) {
  // libvirt-daemon without libvirt-daemon-system ships no /etc/libvirt/libvirtd.conf.
  if (::access("/var/log", W_OK) != 0) GTEST_SKIP() << "needs to write /var/log/libvirt (root)";
  fs::remove(conf_in);
  EXPECT_EQ(start(false), 0) << output;
  EXPECT_EQ(output.find("cannot stat"), std::string::npos) << output;
  EXPECT_EQ(util::read_file(conf), "unix_sock_group = \"libvirt\"\nunix_sock_rw_perms = \"0770\"\nauth_unix_rw = \"none\"\n");
}

TEST_F(StartLibvirtd, WithoutSystemdButWithASystemBusPolkitDecides) {
  if (::access("/var/log", W_OK) != 0) GTEST_SKIP() << "needs to write /var/log/libvirt (root)";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, (dir / "system_bus_socket").c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(start(false), 0) << output;
  ::close(fd);
  EXPECT_EQ(util::read_file(conf), util::read_file(conf_in)) << "Debian's polkit rule lets the group in";
}

TEST_F(StartLibvirtd, ADaemonStartedWithoutTheGroupsSocketIsRestartedWithItWhenIdle) {
  if (::access("/var/log", W_OK) != 0) GTEST_SKIP() << "needs to write /var/log/libvirt (root)";
  daemons_running(true);
  stub("stat", "echo root\n");
  EXPECT_EQ(start(false), 0) << output;
  EXPECT_EQ(util::read_file(log), "pkill -x libvirtd\nsetsid tini -s -- libvirtd -f " + conf.string() + "\n");
}

TEST_F(StartLibvirtd, ADaemonWithoutTheGroupsSocketRunningADomainIsLeftAlone) {
  daemons_running(true);
  stub("stat", "echo root\n");
  stub("virsh", "[ \"$4\" = --name ] && echo rlab-1.abcdef-guest; exit 0\n");
  EXPECT_EQ(start(false), 0) << output;
  EXPECT_EQ(util::read_file(log), "");
}

TEST_F(StartLibvirtd, ALibvirtdThatNeverAnswersIsAnError) {
  stub("systemctl", "exit 0\n");
  EXPECT_EQ(start(true), 1);
  EXPECT_NE(output.find("libvirtd did not answer on qemu:///system"), std::string::npos) << output;
}

}  // namespace
}  // namespace rlab
