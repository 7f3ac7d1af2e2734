// `rlab run [matrix.yaml]`: boots every cell of the matrix, shows progress, prints the table.
// `--resume <run-id>` runs what an earlier, interrupted run left unfinished; `--dry-run`
// only validates the matrix and shows what a run would build and boot, and for how long.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "matrix/matrix.hpp"
#include "metrics/push.hpp"
#include "results/results_table.hpp"
#include "run/dry_run.hpp"
#include "run/interrupts.hpp"
#include "run/run.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <iostream>
#include <limits>

namespace rlab::cli {
namespace {

struct RunArgs {
  std::string matrix = (util::source_dir() / "matrix.yaml").string();
  std::int64_t resume = 0;
  bool retry_failed = false;
  std::string db;
  std::string agent;
  bool json = false;
  bool dry_run = false;
  std::string push;  ///< Pushgateway URL; "" -> the matrix's `push:`, if any
};

/// Pushes the run's results (the batch-job pattern). A failed push is reported and loses
/// nothing: the store keeps everything, and `rlab run --resume` / a later push can repeat it.
void push_results(const store::Store& st, store::RunId run, const std::string& url) {
  try {
    auto out = metrics::push_run(st, run, url);
    for (const auto& e : out.errors) spdlog::error("push to {}: {}", url, e);
    if (out.ok()) spdlog::info("pushed {} groups to {}", out.groups_pushed, url);
  } catch (const std::exception& e) {
    spdlog::error("push to {}: {}", url, e.what());
  }
}

/// `rlab run --dry-run`: the plan on stdout (exit 0); a bad matrix or push URL is exit 2 with
/// the same message as a run, and so is a plan a run would refuse (cells no host can run, a
/// host that cannot take files), after the plan is shown. Writes no store and boots nothing.
int dry_run_command(const RunArgs& a) {
  try {
    const auto plan = run::plan_dry_run(a.matrix, a.db);
    const std::string push_url = a.push.empty() ? plan.m.push_url.value_or("") : a.push;
    if (!push_url.empty()) metrics::parse_push_url(push_url);
    run::render_dry_run(plan, std::cout);
    return plan.refused() ? kUsage : kOk;
  } catch (...) {
    return exit_code_of_current_exception();
  }
}

/// The lines under a run's table: boots, time and how full the hosts were (boot to hello is
/// the table's own line, the median over the boots, as `rlab results` prints it), drained
/// hosts, and how to continue an interrupted run of `matrix`.
void print_run_summary(const run::RunSummary& sum, const std::string& matrix) {
  const double budget_s = sum.wall_s * sum.vcpu_budget;
  const auto share = [&](double load) { return budget_s > 0 ? load / budget_s : 0; };
  std::cout << fmt::format(
      "\nrun {}: {} boots, {} done, {} failed{} in {}; "
      "load vCPU-seconds / (wall x budget {}) = {:.2f} in host seconds of the passes, {:.2f} in guest seconds\n",
      sum.run, sum.boots, sum.done, sum.failed, sum.interrupted ? " (interrupted)" : "",
      run::format_duration(sum.wall_s), sum.vcpu_budget, share(sum.load_host_vcpu_s), share(sum.load_vcpu_s));
  for (const auto& d : sum.drained)
    std::cout << fmt::format("host {} was drained (its boots moved to the other hosts): {}\n", d.uri, d.reason);
  if (sum.interrupted) std::cout << fmt::format("continue it with: rlab run --resume {} {}\n", sum.run, matrix);
}

int run_command(const RunArgs& a) {
  if (a.dry_run) return dry_run_command(a);
  std::string push_url = a.push;
  try {
    if (push_url.empty() && a.resume == 0)
      push_url = matrix::load_matrix(a.matrix).push_url.value_or("");
    if (!push_url.empty()) metrics::parse_push_url(push_url);  // refuse a bad URL before booting
  } catch (...) {
    exit_code_of_current_exception();
    return kUsage;  // nothing started: the matrix or the URL is bad input either way
  }
  run::Interrupts::instance().install();
  run::RunOptions o;
  o.matrix = a.matrix;
  if (a.resume > 0) o.resume = a.resume;
  o.retry_failed = a.retry_failed;
  o.db = a.db;
  o.agent_binary = a.agent;
  run::Progress progress(stderr, ::isatty(STDERR_FILENO) == 1);
  // With repeats, the table so far after each round of boots: a first answer long before the
  // last boot (its verdicts say what the boots so far can and cannot judge).
  o.on_round = [](const std::filesystem::path& db, store::RunId run, unsigned done, unsigned rounds) {
    try {
      auto st = store::Store::open_read_only(db);
      std::cout << fmt::format("\n== results after {} of {} rounds of boots (the run goes on) ==\n", done, rounds);
      results::render_text(results::load_table(*st, run), std::cout);
      std::cout << std::endl;
    } catch (const std::exception& e) {
      spdlog::warn("interim results table: {}", e.what());
    }
  };
  run::RunSummary sum;
  try {
    sum = run::execute(o, progress);
  } catch (...) {
    return exit_code_of_failed_run();
  }
  auto st = store::Store::open(sum.db);
  if (!push_url.empty()) push_results(*st, sum.run, push_url);
  const auto table = results::load_table(*st, sum.run);
  if (a.json) {
    std::cout << results::to_json(table).dump(2) << "\n";
  } else {
    results::render_text(table, std::cout);
    print_run_summary(sum, a.matrix);
  }
  if (sum.interrupted) return kInterrupted;
  if (sum.leftover_domains > 0) return kInfrastructure;
  return sum.failed > 0 ? kFailure : kOk;
}

Registrar run_registrar(10, [](CLI::App& app, int* exit_code) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Run a matrix: build kernels, boot every cell, store and show results");
  cmd->add_option("matrix", args->matrix, "Matrix file (default: the project's matrix.yaml)")
      ->check(CLI::ExistingFile);
  // A run id is >= 1; without the range check `--resume -5` (or 0) started a new run.
  auto* resume = cmd->add_option("--resume", args->resume,
                  "Continue run <run-id>: boot only its unfinished cells (the run's own stored matrix is used; "
                  "the matrix argument only names the store)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max(), "RUN-ID"));
  cmd->add_flag("--retry-failed", args->retry_failed, "With --resume: run failed boots again too")
      ->needs(resume);
  cmd->add_option("--db", args->db, "Results store (default: the matrix's `results:`)");
  cmd->add_option("--agent", args->agent,
                  "Static aarch64 rlab-agent to pack (default: $RLAB_AGENT_BINARY or build/aarch64)")
      ->check(CLI::ExistingFile);
  auto* json = cmd->add_flag("--json", args->json, "Print the results table as JSON");
  cmd->add_flag("--dry-run", args->dry_run,
                "Validate the matrix and show its cells, hosts, the kernels to build (and those cached), "
                "the boots and an estimate of the time; build, boot and store nothing")
      ->excludes(resume)
      ->excludes(json);
  cmd->add_option("--push", args->push,
                  "Push the run's results to this Prometheus Pushgateway URL at the end "
                  "(default: the matrix's `push:`)");
  cmd->final_callback([args, exit_code] { *exit_code = run_command(*args); });
});

}  // namespace
}  // namespace rlab::cli
