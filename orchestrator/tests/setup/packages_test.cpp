// scripts/packages.sh: scripts/packages.txt resolved per dpkg architecture, and what setup.sh
// would install on a machine (dpkg and node answered by stubs, so an arm64 machine's answers
// are checked here on any machine).
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace rlab {
namespace {
namespace fs = std::filesystem;

const fs::path kScripts = fs::path(RLAB_SOURCE_DIR) / "scripts";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// A scratch directory with executable stubs; removed with the object.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("rlab-setup-test-" + std::to_string(::getpid()));
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir / "bin");
  }
  ~Scratch() { fs::remove_all(dir); }
  void stub(const std::string& name, const std::string& body) const {
    util::write_file_atomic(dir / "bin" / name, "#!/bin/bash\n" + body);
    fs::permissions(dir / "bin" / name, fs::perms(0755));
  }
  // A copy of packages.sh beside `packages_txt`: the script reads the list next to itself.
  fs::path script_with(const std::string& packages_txt) const {
    fs::copy_file(kScripts / "packages.sh", dir / "packages.sh", fs::copy_options::overwrite_existing);
    util::write_file_atomic(dir / "packages.txt", packages_txt);
    return dir / "packages.sh";
  }
};

util::ProcessResult packages_sh(const fs::path& script, const std::vector<std::string>& args,
                                const std::map<std::string, std::string>& env = {}) {
  std::vector<std::string> argv{"/bin/bash", script.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  util::ProcessOptions o;
  o.env = env;
  o.timeout = std::chrono::seconds(60);
  return util::run(argv, o);
}

std::vector<std::string> resolved(const fs::path& script, const std::vector<std::string>& args) {
  auto r = packages_sh(script, args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return lines(r.output);
}

TEST(PackageList, OnArm64EverythingIsNativeWithoutCrossPackages) {
  const auto arm64 = resolved(kScripts / "packages.sh", {"list", "arm64"});
  for (const char* cross : {"g++-aarch64-linux-gnu", "libc6-dev-arm64-cross", "qemu-user-static"})
    EXPECT_FALSE(has(arm64, cross)) << cross;
  for (const auto& p : arm64) EXPECT_EQ(p.find(':'), std::string::npos) << "no multiarch name on arm64: " << p;
  for (const char* native : {"build-essential", "libbpf-dev", "libelf-dev", "zlib1g-dev", "qemu-system-arm"})
    EXPECT_TRUE(has(arm64, native)) << native;
  EXPECT_TRUE(resolved(kScripts / "packages.sh", {"foreign", "arm64"}).empty()) << "no dpkg --add-architecture";
}

TEST(PackageList, OnAmd64TheAgentIsCrossBuiltWithArm64Libraries) {
  const auto amd64 = resolved(kScripts / "packages.sh", {"list", "amd64"});
  for (const char* p : {"g++-aarch64-linux-gnu", "libc6-dev-arm64-cross", "qemu-user-static", "libbpf-dev",
                        "libbpf-dev:arm64", "libelf-dev:arm64", "zlib1g-dev:arm64", "build-essential"})
    EXPECT_TRUE(has(amd64, p)) << p;
  EXPECT_EQ(resolved(kScripts / "packages.sh", {"foreign", "amd64"}), std::vector<std::string>{"arm64"});
}

TEST(PackageList, RestrictionsKeepOrDropALinePerArchitecture) {
  Scratch s;
  const auto script = s.script_with(
      "# comment\n"
      "pa            # everywhere\n"
      "pb [amd64]\n"
      "pc [!amd64]\n"
      "pd:arm64 [!arm64]\n"
      "pe [amd64  riscv64]   # two\n"
      "pf:arm64\n"
      "\n");
  EXPECT_EQ(resolved(script, {"list", "amd64"}), (std::vector<std::string>{"pa", "pb", "pd:arm64", "pe", "pf:arm64"}));
  EXPECT_EQ(resolved(script, {"list", "arm64"}), (std::vector<std::string>{"pa", "pc", "pf"}));
  EXPECT_EQ(resolved(script, {"list", "riscv64"}), (std::vector<std::string>{"pa", "pc", "pd:arm64", "pe", "pf:arm64"}));
  EXPECT_EQ(resolved(script, {"foreign", "riscv64"}), std::vector<std::string>{"arm64"});
  EXPECT_TRUE(resolved(script, {"foreign", "arm64"}).empty());
}

TEST(PackageList, AMalformedLineIsRefusedWithItsLineNumber) {
  Scratch s;
  for (const char* bad : {"pa pb\n", "pa [amd64\n", "pa [amd64 !arm64]\n", "A\n", "pa [] \n"}) {
    const auto script = s.script_with(std::string("ok\n") + bad);
    const auto r = packages_sh(script, {"list", "amd64"});
    EXPECT_EQ(r.exit_code, 1) << bad << r.output;
    EXPECT_NE(r.output.find("packages.txt:2: "), std::string::npos) << bad << r.output;
  }
  EXPECT_EQ(packages_sh(kScripts / "packages.sh", {"nonsense"}).exit_code, 2);
}

// The machine setup.sh asks: dpkg says `arch`, dpkg-query prints `installed` (its -f format,
// "<status abbrev>|<package>|<architecture>" lines); node and npm exist when asked.
struct Machine {
  std::string arch;
  std::string installed;
  bool node = false, npm = false;
};

std::vector<std::string> missing_on(const Scratch& s, const fs::path& script, const Machine& m) {
  s.stub("dpkg", "[ \"$1\" = --print-architecture ] && echo " + m.arch + "\n");
  util::write_file_atomic(s.dir / "installed", m.installed);
  // Builtins only: nothing but the stubs and awk is on PATH.
  s.stub("dpkg-query", "while IFS= read -r l; do printf '%s\\n' \"$l\"; done < '" + (s.dir / "installed").string() + "'\n");
  fs::remove(s.dir / "bin/node");
  fs::remove(s.dir / "bin/npm");
  if (m.node) s.stub("node", "");
  if (m.npm) s.stub("npm", "");
  fs::remove(s.dir / "bin/awk");
  fs::create_symlink(*util::find_program("awk"), s.dir / "bin/awk");
  // Only the stubs and awk on PATH: this machine's own node, npm and dpkg stay out of it.
  auto r = packages_sh(script, {"missing"}, {{"PATH", (s.dir / "bin").string()}});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return lines(r.output);
}

TEST(MissingPackages, CountedForTheNativeArchitectureOrAllOrTheNamedOne) {
  Scratch s;
  const auto script = s.script_with("pa\npb\npc:amd64\npx [amd64]\n");
  Machine arm64{"arm64", "ii |pa|arm64\nii |pb|all\nii |pc|amd64\n"};
  EXPECT_TRUE(missing_on(s, script, arm64).empty());
  // Installed for another architecture only, or removed with its configuration left.
  arm64.installed = "ii |pa|amd64\nrc |pb|all\nii |pc|arm64\n";
  EXPECT_EQ(missing_on(s, script, arm64), (std::vector<std::string>{"pa", "pb", "pc:amd64"}));
  arm64.installed = "hi |pa|arm64\nii |pb|all\niU |pc|amd64\n";
  EXPECT_EQ(missing_on(s, script, arm64), (std::vector<std::string>{"pc:amd64"})) << "held counts, unpacked does not";
}

TEST(MissingPackages, NpmOnlyWhereNodeHasNone) {
  Scratch s;
  const auto script = s.script_with("pa\n");
  Machine m{"arm64", "ii |pa|arm64\n"};
  EXPECT_TRUE(missing_on(s, script, m).empty()) << "no node: nodejs itself comes first";
  m.node = true;
  EXPECT_EQ(missing_on(s, script, m), std::vector<std::string>{"npm"});
  m.npm = true;
  EXPECT_TRUE(missing_on(s, script, m).empty());
}

TEST(MissingPackages, AnArm64MachineWithEverythingInstalledInstallsNothing) {
  Scratch s;
  fs::copy_file(kScripts / "packages.txt", s.dir / "packages.txt");
  fs::copy_file(kScripts / "packages.sh", s.dir / "packages.sh");
  // dpkg-query answers "installed for arm64" for every name it is asked about, as it would
  // on an arm64 machine where setup.sh ran.
  s.stub("dpkg", "[ \"$1\" = --print-architecture ] && echo arm64\n");
  s.stub("dpkg-query", "for p in \"${@:3}\"; do echo \"ii |$p|arm64\"; done\n");
  s.stub("node", "");
  s.stub("npm", "");
  fs::create_symlink(*util::find_program("awk"), s.dir / "bin/awk");
  auto r = packages_sh(s.dir / "packages.sh", {"missing"}, {{"PATH", (s.dir / "bin").string()}});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "setup.sh would run apt-get for these";
  // The same machine without libbpf-dev for arm64 (only the amd64 one) installs it.
  s.stub("dpkg-query",
         "for p in \"${@:3}\"; do a=arm64; [ \"$p\" = libbpf-dev ] && a=amd64; echo \"ii |$p|$a\"; done\n");
  r = packages_sh(s.dir / "packages.sh", {"missing"}, {{"PATH", (s.dir / "bin").string()}});
  EXPECT_EQ(r.output, "libbpf-dev\n");
}

}  // namespace
}  // namespace rlab
