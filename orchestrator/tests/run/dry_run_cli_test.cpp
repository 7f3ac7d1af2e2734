// `rlab run --dry-run`: the plan of a small matrix (cells, hosts, kernels cached or to build,
// boots, the estimate) on stdout, the same refusals as a run, and nothing stored or booted.
#include "build/kernel_build.hpp"
#include "build/kernel_source.hpp"
#include "matrix/matrix.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

std::string dry_run_rlab_bin() {
  const char* b = std::getenv("RLAB_BIN");
  return b ? b : RLAB_BINARY_DIR "/orchestrator/rlab";
}

fs::path dry_run_dir(const char* name) {
  fs::path d = fs::temp_directory_path() / (std::string("rlab-dry-") + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// A git repository with one commit: a kernel source a dry run can resolve without a fetch.
fs::path git_tree(const fs::path& dir) {
  const fs::path t = dir / "linux";
  fs::create_directories(t);
  std::ofstream(t / "Makefile") << "# not a kernel\n";
  for (std::vector<std::string> argv :
       {std::vector<std::string>{"git", "-C", t.string(), "init", "-q"},
        {"git", "-C", t.string(), "add", "Makefile"},
        {"git", "-C", t.string(), "-c", "user.name=rlab", "-c", "user.email=rlab@example.org", "commit",
         "-q", "-m", "tree"}}) {
    auto r = rlab::util::run(argv);
    if (!r.ok()) throw std::runtime_error(rlab::util::display_command(argv) + ": " + r.output);
  }
  return t;
}

/// Kernel "base" from a git tree and "patched" = base + one patch; 1 filesystem, 1 vCPU count,
/// one 20 s pass; 2 repeats; TCG; one host that does not exist (the dry run says it does not
/// answer).
std::string small_matrix(const fs::path& tree) {
  return "kernels:\n"
         "  base: {source: {git: " + tree.string() + ", ref: HEAD}}\n"
         "  patched: {extends: base, patches: [p.patch]}\n"
         "axes:\n"
         "  kernel: [base, patched]\n"
         "  vcpus: [1]\n"
         "  filesystem: [{fs: xfs}]\n"
         "  workload: [{type: shell1, passes: 1, duration_s: 20}]\n"
         "  repeats: 2\n"
         "guest: {accel: tcg}\n"
         "hosts:\n  - {uri: \"qemu+unix:///system?socket=/nonexistent/sock\", vcpus: 2}\n"
         "results: r.db\n";
}

/// Puts a complete cache entry for `spec` under `cache` (RLAB_CACHE_DIR), as a 300 s build.
std::string fake_cached_kernel(const fs::path& cache, const rlab::build::KernelSpec& spec) {
  ::setenv("RLAB_CACHE_DIR", cache.c_str(), 1);
  const auto plan = rlab::build::plan_kernel(spec);
  ::unsetenv("RLAB_CACHE_DIR");
  if (plan.key.empty()) throw std::runtime_error("no key for the fake entry: " + plan.note);
  const fs::path dir = cache / "kernels" / plan.key;
  fs::create_directories(dir);
  std::ofstream(dir / "manifest.json")
      << nlohmann::json{{"kind", "kernel"}, {"key", plan.key}, {"name", spec.name},
                        {"source_identity", rlab::build::source_identity(spec.source)},
                        {"build_seconds", 300.0}, {"build_steps", 2000}, {"created", 1}}
             .dump();
  return plan.key;
}

}  // namespace

TEST(DryRunCli, ListsCellsHostsKernelsBootsAndEstimateAndStoresNothing) {
  const fs::path d = dry_run_dir("plan");
  const fs::path tree = git_tree(d);
  std::ofstream(d / "p.patch") << "--- a/Makefile\n+++ b/Makefile\n";
  std::ofstream(d / "m.yaml") << small_matrix(tree);
  const auto m = rlab::matrix::load_matrix(d / "m.yaml");
  const std::string key = fake_cached_kernel(d / "cache", m.kernels.at("base"));

  rlab::util::ProcessOptions o;
  o.env = {{"RLAB_CACHE_DIR", (d / "cache").string()}};
  auto r = rlab::util::run({dry_run_rlab_bin(), "run", "--dry-run", (d / "m.yaml").string()}, o);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string& out = r.output;
  EXPECT_NE(out.find("m.yaml: valid; dry run: nothing is built, booted or stored"), std::string::npos) << out;
  EXPECT_NE(out.find("cells (2, 2 boots each = 4 boots):"), std::string::npos) << out;
  EXPECT_NE(out.find("base/xfs-defaults/1vcpu/shell1     1 vCPU, xfs defaults, shell1 -c 1, 1 pass x 20 s, ~45s a boot"),
            std::string::npos) << out;
  EXPECT_NE(out.find("patched/xfs-defaults/1vcpu/shell1"), std::string::npos) << out;
  EXPECT_NE(out.find("hosts (vCPU budget 2 in all):"), std::string::npos) << out;
  EXPECT_NE(out.find("qemu+unix:///system?socket=/nonexistent/sock  budget 2 vCPUs, agent link libvirt, files volumes of pool default"),
            std::string::npos) << out;
  EXPECT_NE(out.find("    does not answer: libvirt: cannot connect to 'qemu+unix:///system?socket=/nonexistent/sock'"),
            std::string::npos) << out;
  EXPECT_NE(out.find("no host answered: which cells run where is not known"), std::string::npos) << out;
  EXPECT_NE(out.find("kernels (1 to build, 1 in the cache):"), std::string::npos) << out;
  EXPECT_NE(out.find("base     in the cache  git " + tree.string() + " HEAD"), std::string::npos) << out;
  EXPECT_NE(out.find("key " + key.substr(0, 16) + ", 2 boots"), std::string::npos) << out;
  EXPECT_NE(out.find("patched  to build      git " + tree.string() + " HEAD"), std::string::npos) << out;
  EXPECT_NE(out.find("2 boots, ~5m00s (the longest earlier build of this source, kernel base)"),
            std::string::npos) << out;
  EXPECT_NE(out.find("store: " + (d / "r.db").string() + " (not written)"), std::string::npos) << out;
  // 4 boots x 1 vCPU x (1 x (20 + 2) s + 23 s) = 180 vCPU-s over a budget of 2 = 90 s; plus
  // the one kernel to build (300 s, the cached build of the same source).
  EXPECT_NE(out.find("estimate: 5m00s of kernel builds + 1m30s of boots (4 boots: "), std::string::npos) << out;
  EXPECT_NE(out.find("over a vCPU budget of 2) = 6m30s"), std::string::npos) << out;

  EXPECT_FALSE(fs::exists(d / "r.db")) << "a dry run creates no store";
  EXPECT_FALSE(fs::exists(d / "runs")) << "nor run directories";
  EXPECT_FALSE(fs::exists(d / "cache" / "kbuild")) << "nor builds";
  EXPECT_FALSE(fs::exists(d / "cache" / "sources")) << "nor fetched sources";
  fs::remove_all(d);
}

TEST(DryRunCli, InvalidMatrixIsRefusedLikeARunWithFileLineCol) {
  const fs::path d = dry_run_dir("bad");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1, 513]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n"
                                 "results: r.db\n";
  auto dry = rlab::util::run({dry_run_rlab_bin(), "run", "--dry-run", (d / "m.yaml").string()});
  auto run = rlab::util::run({dry_run_rlab_bin(), "run", (d / "m.yaml").string()});
  EXPECT_EQ(dry.exit_code, 2) << dry.output;
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(dry.output.find("m.yaml:5:"), std::string::npos) << dry.output;
  EXPECT_NE(dry.output.find("513"), std::string::npos) << dry.output;
  // The same message as the run (after spdlog's timestamp).
  auto message = [](const std::string& out) { return out.substr(std::min(out.size(), out.find("[error]"))); };
  EXPECT_EQ(message(dry.output), message(run.output)) << run.output;
  EXPECT_NE(message(dry.output), "");
  EXPECT_FALSE(fs::exists(d / "r.db"));
  fs::remove_all(d);
}

TEST(DryRunCli, DebianKernelWithoutPackageListsIsToBuildAndSaysWhy) {
  const fs::path d = dry_run_dir("debian");
  std::ofstream(d / "m.yaml") << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}}\n"
                                 "axes:\n  kernel: [a]\n  vcpus: [1]\n"
                                 "  filesystem: [{fs: xfs}]\n  workload: [{type: shell1}]\n"
                                 "results: r.db\n";
  rlab::util::ProcessOptions o;
  o.env = {{"RLAB_CACHE_DIR", (d / "cache").string()}};
  auto r = rlab::util::run({dry_run_rlab_bin(), "run", "--dry-run", (d / "m.yaml").string()}, o);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("a  to build      linux-source-6.12 (trixie), 1 boot, ~10m00s (no build in the cache yet"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("version not known until the first fetch of trixie's package lists"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(d / "cache" / "apt")) << "no apt state was made";
  EXPECT_FALSE(fs::exists(d / "r.db"));
  fs::remove_all(d);
}

TEST(DryRunCli, DryRunWithResumeIsAUsageError) {
  auto r = rlab::util::run({dry_run_rlab_bin(), "run", "--dry-run", "--resume", "3"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--dry-run"), std::string::npos) << r.output;
}
