// Every name scripts/packages.sh resolves (and npm, which setup.sh adds where node has none)
// is a real Debian 12 package of that architecture that apt can install: checked against
// bookworm's package lists from this lab's Debian mirror (build::debian_mirror(): the host's
// apt sources, or RLAB_DEBIAN_MIRROR) with `apt-get -s install` in a private apt state, so
// the machine's own apt state is never read or written. One `apt-get update` per
// architecture, into a temporary directory removed afterwards.
#include "build/apt_source.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

namespace rlab {
namespace {
namespace fs = std::filesystem;

// A private apt state for bookworm main with the package lists of `archs` (the first is the
// native one), under a temporary directory.
struct PrivateBookworm {
  fs::path root;
  std::vector<std::string> options;

  explicit PrivateBookworm(const std::vector<std::string>& archs)
      : root(fs::temp_directory_path() / ("rlab-bookworm-" + archs.front() + "-" + std::to_string(::getpid()))) {
    fs::remove_all(root);
    for (const char* d : {"etc/sources.list.d", "etc/preferences.d", "state/lists/partial", "cache/archives/partial"})
      fs::create_directories(root / d);
    util::write_file_atomic(root / "state/status", "");
    util::write_file_atomic(root / "etc/sources.list",
                            "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] " +
                                build::debian_mirror() + " bookworm main\n");
    std::string all;
    for (const auto& a : archs) all += (all.empty() ? "" : ",") + a;
    const std::string r = root.string();
    options = {"-o", "Dir::Etc::SourceList=" + r + "/etc/sources.list",
               "-o", "Dir::Etc::SourceParts=" + r + "/etc/sources.list.d",
               "-o", "Dir::Etc::PreferencesParts=" + r + "/etc/preferences.d",
               "-o", "Dir::State=" + r + "/state",
               "-o", "Dir::State::status=" + r + "/state/status",
               "-o", "Dir::Cache=" + r + "/cache",
               "-o", "APT::Architecture=" + archs.front(),
               "-o", "APT::Architectures=" + all,
               "-o", "Acquire::Languages=none",
               "-o", "APT::Sandbox::User=root",
               "-o", "Debug::NoLocking=1",
               "-q"};
  }
  ~PrivateBookworm() { fs::remove_all(root); }

  util::ProcessResult apt_get(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{"apt-get"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), args.begin(), args.end());
    util::ProcessOptions o;
    o.timeout = std::chrono::seconds(600);
    return util::run(argv, o);
  }
};

std::vector<std::string> package_list(const std::string& arch) {
  util::ProcessOptions o;
  o.timeout = std::chrono::seconds(60);
  const auto r = util::run_checked(
      {"/bin/bash", (fs::path(RLAB_SOURCE_DIR) / "scripts/packages.sh").string(), "list", arch}, o);
  std::vector<std::string> names;
  std::istringstream in(r.output);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) names.push_back(l);
  return names;
}

// apt's error lines ("E: Unable to locate package ...").
std::string errors_of(const std::string& output) {
  std::string e;
  std::istringstream in(output);
  for (std::string l; std::getline(in, l);)
    if (l.rfind("E: ", 0) == 0) e += l + "\n";
  return e.empty() ? util::tail(output, 20) : e;
}

void expect_installable(const std::vector<std::string>& archs) {
  const PrivateBookworm apt(archs);
  const auto update = apt.apt_get({"update"});
  ASSERT_EQ(update.exit_code, 0) << update.output;
  ASSERT_EQ(update.output.find("W: Failed"), std::string::npos) << update.output;
  auto names = package_list(archs.front());
  ASSERT_GT(names.size(), 40u);
  names.push_back("npm");
  std::vector<std::string> args{"-s", "install", "--no-install-recommends"};
  args.insert(args.end(), names.begin(), names.end());
  const auto sim = apt.apt_get(args);
  EXPECT_EQ(sim.exit_code, 0) << archs.front() << ":\n" << errors_of(sim.output);
  // The same check fails for a name the architecture does not have.
  const auto bad = apt.apt_get({"-s", "install", "--no-install-recommends", "build-essential", "rlab-no-such-package"});
  EXPECT_NE(bad.exit_code, 0) << bad.output;
  EXPECT_NE(bad.output.find("E: Unable to locate package rlab-no-such-package"), std::string::npos) << bad.output;
}

TEST(RealBookwormPackages, EveryArm64NameExistsAndInstallsOnArm64) { expect_installable({"arm64"}); }

// amd64 also installs arm64 packages (`name:arm64`): both architectures' lists.
TEST(RealBookwormPackages, EveryAmd64NameExistsAndInstallsOnAmd64) { expect_installable({"amd64", "arm64"}); }

}  // namespace
}  // namespace rlab
