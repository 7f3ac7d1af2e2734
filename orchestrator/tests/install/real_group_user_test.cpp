// rlab as a user who is not root but a member of the group `libvirt` (docs/operations.md
// "Running as a user in the libvirt group"): the installed rlab, run by such a user with a
// cache and a store in that user's private home, boots one cell on qemu:///system to a score.
// What this exercises that root never does: libvirtd's socket policy for the group (the
// daemon scripts/start-libvirtd.sh starts without systemd), the userland unpacked without
// root, the agent reached through libvirt's channel (QEMU's own socket is not the user's), the
// run directory under /var/tmp/rlab-<uid> (the home is mode 0700), and nothing of root's left
// in the user's files.
#include "build/kernel_build.hpp"
#include "matrix/matrix.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using rlab::util::run;

namespace {

constexpr const char* kUser = "rlab-test-member";

/// A user of group libvirt with a private home (mode 0700), created for the test and removed
/// with its home afterwards.
struct GroupUser {
  GroupUser() {
    run({"userdel", "-r", kUser});  // what a killed earlier test left
    const auto r = run({"useradd", "--create-home", "--groups", "libvirt", "--shell", "/bin/sh", kUser});
    EXPECT_TRUE(r.ok()) << r.output;
    if (const passwd* pw = ::getpwnam(kUser)) uid = pw->pw_uid, home = pw->pw_dir;
    if (!home.empty()) fs::permissions(home, fs::perms::owner_all);
  }
  ~GroupUser() { run({"userdel", "-r", kUser}); }
  GroupUser(const GroupUser&) = delete;
  GroupUser& operator=(const GroupUser&) = delete;

  /// `argv` run as the user (runuser), with HOME and `env` set.
  rlab::util::ProcessResult as_user(const std::vector<std::string>& argv,
                                    const std::vector<std::string>& env = {}) const {
    std::vector<std::string> full{"runuser", "-u", kUser, "--", "env", "HOME=" + home.string()};
    full.insert(full.end(), env.begin(), env.end());
    full.insert(full.end(), argv.begin(), argv.end());
    rlab::util::ProcessOptions o;
    o.timeout = std::chrono::seconds(900);
    return run(full, o);
  }
  /// Hands `p` (and what is below it) to the user.
  void own(const fs::path& p) const { ASSERT_TRUE(run({"chown", "-R", std::string(kUser) + ":", p.string()}).ok()); }

  uid_t uid = 0;
  fs::path home;
};

}  // namespace

TEST(RealGroupUser, TheInstalledRlabRunsACellToAScoreAsAMemberOfTheLibvirtGroup) {
  ASSERT_EQ(::geteuid(), 0u) << "making the test's user needs root";
  ASSERT_NE(::getgrnam("libvirt"), nullptr) << "libvirt-daemon-system makes the group libvirt";
  ASSERT_TRUE(run({(fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh").string()}).ok());
  GroupUser user;
  ASSERT_FALSE(user.home.empty());
  const auto virsh = user.as_user({"virsh", "-c", "qemu:///system", "list", "--all"});
  ASSERT_TRUE(virsh.ok()) << "a member of the group reaches qemu:///system: " << virsh.output;

  // The installed rlab, its agent, and a kernel to boot (the default matrix's 6.12, built by
  // rlab, handed in as a prebuilt Image so the user's empty cache builds no kernel).
  const fs::path prefix = fs::temp_directory_path() / ("rlab-install-member-" + std::to_string(::getpid()));
  fs::remove_all(prefix);
  const auto install = run({"cmake", "--install", RLAB_BINARY_DIR, "--prefix", prefix.string()});
  ASSERT_TRUE(install.ok()) << install.output;
  const fs::path lab = user.home / "lab";
  fs::create_directories(lab);
  fs::copy_file(rlab::testing::agent_binary(), lab / "rlab-agent");
  const auto m = rlab::matrix::load_matrix(fs::path(RLAB_SOURCE_DIR) / "matrix.yaml");
  const auto built = rlab::build::ensure_kernel(m.kernels.at("6.12"));
  fs::copy_file(built.image, lab / "Image");
  fs::copy_file(built.config, lab / "config");
  rlab::testing::SmallMatrix s;
  s.extra_kernels = "  mine:\n    source: {image: Image, config: config}\n";
  s.kernel_axis = "[mine]";
  s.vcpus = 1;
  s.duration_s = 5;
  s.hosts = {};  // no hosts: section, the default this machine's qemu:///system
  std::ofstream(lab / "matrix.yaml") << rlab::testing::small_matrix(s);
  user.own(lab);

  const auto r = user.as_user({(prefix / "bin/rlab").string(), "run", (lab / "matrix.yaml").string(), "--agent",
                               (lab / "rlab-agent").string()},
                              {"RLAB_CACHE_DIR=" + (user.home / "cache").string()});
  EXPECT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);
  EXPECT_NE(r.output.find("run 1: 1 boots, 1 done, 0 failed"), std::string::npos) << rlab::util::tail(r.output, 60);
  const fs::path shared = "/var/tmp/rlab-" + std::to_string(user.uid);
  EXPECT_NE(r.output.find("guest files go to " + shared.string()), std::string::npos)
      << "the store's directory is private to the user: " << rlab::util::tail(r.output, 60);
  EXPECT_TRUE(fs::is_directory(shared / "runs")) << shared;

  const auto results = user.as_user({(prefix / "bin/rlab").string(), "results", "--db", (lab / "rlab.db").string()});
  EXPECT_TRUE(results.ok()) << results.output;
  EXPECT_NE(results.output.find("score_lpm"), std::string::npos) << results.output;

  // The guest's console, collected by rlab itself (libvirt's log of it would be root's).
  std::string console;
  for (const auto& e : fs::recursive_directory_iterator(shared))
    if (e.path().filename() == "console.log") console = rlab::util::read_file(e.path());
  EXPECT_NE(console.find("Linux version"), std::string::npos) << console;
  EXPECT_NE(console.find("rlab-agent: init at"), std::string::npos) << console;

  // Everything under the user's home and run directory is the user's own.
  for (const fs::path& top : {user.home, shared})
    for (const auto& e : fs::recursive_directory_iterator(top, fs::directory_options::skip_permission_denied)) {
      struct stat st {};
      if (::lstat(e.path().c_str(), &st) == 0) EXPECT_EQ(st.st_uid, user.uid) << e.path();
    }
  fs::remove_all(shared);
  fs::remove_all(prefix);
}
