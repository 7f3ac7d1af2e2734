// Options of the commands that boot guests, given carelessly: `rlab nightly --out` naming a
// file (the report directory is made only after the run, hours later) and a missing --agent
// of run, nightly and noise are refused before anything starts (exit 2, no run stored).
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace {

namespace fs = std::filesystem;

/// A scratch directory with a matrix whose only host nobody listens on (without the checks
/// the run would start, drain it and exit 3), its store `rlab.db` beside it.
fs::path lab_dir(const char* name) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-bad-options-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "matrix.yaml")
      << "kernels:\n  \"6.12\": {source: {debian: \"6.12\", suite: trixie}, page_size: 64k}\n"
         "axes:\n  kernel: [\"6.12\"]\n  vcpus: [1]\n  filesystem: [{fs: xfs}]\n"
         "  workload: [{type: shell1, passes: 1, duration_s: 5}]\n"
         "hosts: [{uri: \"qemu+tcp://127.0.0.1:1/system\", vcpus: 1}]\nresults: rlab.db\n";
  return dir;
}

const char* rlab_bin() {
  const char* bin = std::getenv("RLAB_BIN");
  return bin && *bin ? bin : RLAB_BINARY_DIR "/orchestrator/rlab";
}

TEST(BadOptions, FileAsNightlyOutIsRefusedBeforeTheRun) {
  const std::string bin = rlab_bin();
  const fs::path dir = lab_dir("out");
  const fs::path file = dir / "reports.txt";
  std::ofstream(file) << "an operator's notes\n";
  for (const fs::path& out : {file, file / "nightly"}) {
    const auto r = rlab::util::run({bin, "nightly", "--matrix", (dir / "matrix.yaml").string(), "--out", out.string()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--out " + out.string() + ": " + file.string() + " is not a directory"),
              std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir / "rlab.db")) << "a run was started: " << r.output;
  }
  std::ifstream in(file);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "an operator's notes\n");
  fs::remove_all(dir);
}

TEST(BadOptions, MissingAgentIsRefusedBeforeTheRun) {
  const std::string bin = rlab_bin();
  const fs::path dir = lab_dir("agent");
  const std::string m = (dir / "matrix.yaml").string();
  for (const std::vector<std::string>& args : {std::vector<std::string>{"run", m},
                                               {"nightly", "--matrix", m},
                                               {"noise", "xfs", "--boots", "2", "--matrix", m}}) {
    std::vector<std::string> argv{bin};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--agent", (dir / "no-agent").string()});
    const auto r = rlab::util::run(argv);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.output;
    EXPECT_NE(r.output.find("--agent: File does not exist: " + (dir / "no-agent").string()), std::string::npos)
        << args[0] << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir / "rlab.db")) << args[0] << " started a run: " << r.output;
  }
  fs::remove_all(dir);
}

}  // namespace

TEST(BadOptions, AReportOfAnEmptyStoreFileIsRefusedAndLeavesItEmpty) {
  const std::string bin = rlab_bin();
  const fs::path dir = lab_dir("empty-store");
  std::ofstream(dir / "rlab.db");  // 0 bytes: what `touch` leaves
  for (const fs::path& db : {dir / "rlab.db", dir / "none.db"}) {
    const auto r = rlab::util::run({bin, "nightly", "--matrix", (dir / "matrix.yaml").string(), "--db", db.string(),
                                    "--run", "1", "--out", (dir / "reports").string()});
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(db.string() + ": no results store"), std::string::npos) << r.output;
  }
  EXPECT_EQ(fs::file_size(dir / "rlab.db"), 0u) << "no schema was written into it";
  EXPECT_FALSE(fs::exists(dir / "none.db"));
  fs::remove_all(dir);
}
