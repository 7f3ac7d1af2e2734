// `rlab fidelity`: rlab's shell1 against UnixBench's own shell1, booted alternately in the same
// kernel, guest settings and input, and against UnixBench's in the bare guest (no agent);
// prints rlab lpm / UnixBench lpm, rlab / bare and UnixBench / bare per filesystem and vCPU
// count (results/fidelity.hpp, docs/benchmarks.md "Fidelity").
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "results/fidelity.hpp"
#include "run/interrupts.hpp"
#include "run/run.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

namespace rlab::cli {
namespace {

struct FidelityArgs {
  std::string unixbench;
  std::vector<unsigned> vcpus = {1, 2};
  std::vector<std::string> fs = {"xfs", "ext4"};
  double duration_s = 20;
  unsigned boots = 2;
  std::string clock = "icount";
  std::string db;
  std::string agent;
  bool json = false;
  bool no_bare = false;
};

constexpr double kLow = 0.98, kHigh = 1.02;

int fidelity_command(const FidelityArgs& a) {
  namespace fs = std::filesystem;
  results::FidelitySpec spec;
  std::string ub = a.unixbench;
  if (ub.empty())
    if (const char* e = std::getenv("RLAB_UNIXBENCH")) ub = e;
  if (ub.empty()) {
    spdlog::error("fidelity: no UnixBench: give --unixbench <dir> or set RLAB_UNIXBENCH (a UnixBench "
                  "directory holding src/looper.c, pgms/multi.sh, pgms/tst.sh, testdir/sort.src)");
    return kUsage;
  }
  spec.unixbench = fs::absolute(ub).lexically_normal();
  spec.vcpus = a.vcpus;
  spec.filesystems = a.fs;
  spec.duration_s = a.duration_s;
  spec.boots = a.boots;
  spec.clock = a.clock;
  spec.bare = !a.no_bare;
  spec.results = fs::absolute(a.db.empty() ? util::source_dir() / "results" / "fidelity.db" : fs::path(a.db));
  const fs::path matrix = spec.results.parent_path() / "fidelity-matrix.yaml";
  try {
    fs::create_directories(matrix.parent_path());
    util::write_file_atomic(matrix, results::fidelity_matrix(spec));
  } catch (...) {
    return exit_code_of_current_exception("fidelity");
  }
  run::Interrupts::instance().install();
  run::RunOptions o;
  o.matrix = matrix;
  o.db = spec.results;
  o.agent_binary = a.agent;
  o.kind = "fidelity";
  run::Progress progress(stderr, ::isatty(STDERR_FILENO) == 1);
  run::RunSummary sum;
  try {
    sum = run::execute(o, progress);
  } catch (...) {
    return exit_code_of_failed_run();
  }
  const auto rows = results::fidelity_rows(store::Store::open(sum.db)->boot_results(sum.run));
  if (a.json) {
    std::cout << nlohmann::json{{"run", sum.run}, {"db", sum.db.string()}, {"clock", spec.clock},
                                {"duration_s", spec.duration_s}, {"target", {kLow, kHigh}},
                                {"rows", results::fidelity_json(rows)}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << "fidelity, run " << sum.run << " (" << sum.db.string() << "), clock " << spec.clock << ", "
              << spec.duration_s << " s passes: rlab lpm / UnixBench lpm"
              << (spec.bare ? ", and each / the bare guest's lpm" : "") << ", medians over boots\n";
    results::render_fidelity(rows, kLow, kHigh, std::cout);
  }
  if (sum.interrupted) return kInterrupted;
  return sum.failed > 0 ? kFailure : kOk;
}

Registrar fidelity_registrar(48, [](CLI::App& app, int* exit_code) {
  auto a = std::make_shared<FidelityArgs>();
  auto* cmd = app.add_subcommand(
      "fidelity", "Benchmark rlab's shell1 against UnixBench's own (same kernel, guest and input, booted alternately)");
  cmd->add_option("--unixbench", a->unixbench, "UnixBench directory (src/, pgms/, testdir/); default $RLAB_UNIXBENCH")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--vcpus", a->vcpus, "vCPU counts (copies = vCPUs)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 512u))
      ->capture_default_str();
  cmd->add_option("--fs", a->fs, "Filesystems")
      ->delimiter(',')
      ->check(CLI::IsMember({"xfs", "ext4"}))
      ->capture_default_str();
  cmd->add_option("--duration", a->duration_s, "Seconds per pass (whole seconds: UnixBench's looper)")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--boots", a->boots, "Boots per workload and cell")->check(CLI::Range(1u, 100u))->capture_default_str();
  cmd->add_option("--clock", a->clock, "Guest clock")
      ->check(CLI::IsMember({"icount", "realtime"}))
      ->capture_default_str();
  cmd->add_option("--db", a->db, "Results store (default: <source>/results/fidelity.db)");
  cmd->add_option("--agent", a->agent, "Static aarch64 rlab-agent to pack")->check(CLI::ExistingFile);
  cmd->add_flag("--json", a->json, "Print the rows as JSON");
  cmd->add_flag("--no-bare", a->no_bare, "Leave out the bare guest (UnixBench's scripts under a minimal /init, no agent)");
  cmd->final_callback([a, exit_code] { *exit_code = fidelity_command(*a); });
});

}  // namespace
}  // namespace rlab::cli
