// `rlab run` refusals: bad input is exit 2 with the place named, and nothing boots.
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {
std::string rlab_bin() {
  const char* b = std::getenv("RLAB_BIN");
  return b ? b : RLAB_BINARY_DIR "/orchestrator/rlab";
}
fs::path temp_dir(const char* name) {
  fs::path d = fs::temp_directory_path() / (std::string("rlab-cli-") + name + "-" + std::to_string(getpid()));
  fs::create_directories(d);
  return d;
}
}  // namespace

TEST(RunCli, InvalidMatrixExitsTwoWithFileLineCol) {
  fs::path d = temp_dir("bad");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1, 513]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n";
  auto r = rlab::util::run({rlab_bin(), "run", (d / "m.yaml").string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("m.yaml:5:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("513"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d / "results")) << "nothing was created for an invalid matrix";
  fs::remove_all(d);
}

TEST(RunCli, MissingMatrixFileExitsTwo) {
  auto r = rlab::util::run({rlab_bin(), "run", "/nonexistent/matrix.yaml"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

TEST(RunCli, ResumeOfUnknownRunExitsTwo) {
  fs::path d = temp_dir("resume");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n"
                                 "results: r.db\n";
  auto r = rlab::util::run({rlab_bin(), "run", "--resume", "99", (d / "m.yaml").string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("r.db"), std::string::npos) << r.output;
  fs::remove_all(d);
}

TEST(RunCli, UnreachableHostExitsThreeAndMarksTheRunFailed) {
  fs::path d = temp_dir("host");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n"
                                 "hosts:\n  - {uri: \"qemu+unix:///system?socket=/nonexistent/sock\", vcpus: 2}\n"
                                 "results: r.db\n";
  auto r = rlab::util::run({rlab_bin(), "run", (d / "m.yaml").string()});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/sock"), std::string::npos) << r.output;
  auto q = rlab::util::run({"sqlite3", (d / "r.db").string(), "select status from runs"});
  EXPECT_EQ(q.output, "failed\n");
  fs::remove_all(d);
}

TEST(RunCli, BadPushUrlExitsTwoBeforeAnythingStarts) {
  fs::path d = temp_dir("push");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n"
                                 "results: r.db\n";
  auto r = rlab::util::run({rlab_bin(), "run", "--push", "ftp://gateway:9091", (d / "m.yaml").string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ftp://gateway:9091"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d / "r.db")) << "no run was created for a bad push URL";
  fs::remove_all(d);
}

// `--resume` takes a run id (>= 1) and `--retry-failed` only means something with it; either
// mistake used to start a whole new run. The matrix's host is unreachable, so even a
// regression stops before building or booting anything.
TEST(RunCli, BadResumeIdOrRetryWithoutResumeExitsTwoAndCreatesNothing) {
  fs::path d = temp_dir("resume-args");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n"
                                 "hosts:\n  - {uri: \"qemu+unix:///system?socket=/nonexistent/sock\", vcpus: 2}\n"
                                 "results: r.db\n";
  const std::string m = (d / "m.yaml").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--resume", "-5"}, {"--resume", "0"}, {"--resume", "abc"},
        {"--retry-failed"}}) {
    std::vector<std::string> argv{rlab_bin(), "run"};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(m);
    auto r = rlab::util::run(argv);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.output;
    EXPECT_NE(r.output.find("--resume"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(d / "r.db")) << args[0] << " created a run";
  }
  fs::remove_all(d);
}

// `--db` naming a file that is not an rlab store (here plain text) is bad input: exit 2, and
// the file keeps its bytes.
TEST(RunCli, DbThatIsNotAStoreExitsTwoAndIsLeftUnchanged) {
  fs::path d = temp_dir("not-a-store");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n"
                                 "hosts:\n  - {uri: \"qemu+unix:///system?socket=/nonexistent/sock\", vcpus: 2}\n";
  const std::string text = "notes, not a database\n";
  std::ofstream(d / "notes.db") << text;
  auto r = rlab::util::run({rlab_bin(), "run", "--db", (d / "notes.db").string(), (d / "m.yaml").string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("not an rlab results store"), std::string::npos) << r.output;
  std::ifstream in(d / "notes.db");
  std::string back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(back, text);
  fs::remove_all(d);
}
