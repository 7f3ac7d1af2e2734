// `rlab nightly --matrix FILE`: one unattended night: run the matrix (kind "nightly"), compare
// with the previous night and the baseline, find change points, start bisects (--tree), push
// metrics (--push), and write report.html, summary.txt, kcidb.json and junit.xml into
// <out>/<date>-run<id>/. docs/nightly.md.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "matrix/matrix.hpp"
#include "metrics/push.hpp"
#include "nightly/night.hpp"
#include "run/interrupts.hpp"
#include "store/store.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <iostream>
#include <limits>

namespace rlab::cli {
namespace {

struct NightlyArgs {
  std::string matrix, db, out, push, tree, agent, control;
  std::int64_t baseline = 0;
  std::int64_t report_run = 0;
};

int nightly_main(const NightlyArgs& a) {
  nightly::NightOptions o;
  o.matrix = std::filesystem::absolute(a.matrix);  // the stored path names the nightly series
  o.db = a.db;
  o.out = a.out;
  o.push = a.push;
  o.tree = a.tree;
  o.agent = a.agent;
  if (a.baseline > 0) o.analyse.baseline = a.baseline;
  o.analyse.compare.control = a.control;
  if (a.report_run > 0) o.report_only = a.report_run;
  if (!o.tree.empty() && !std::filesystem::is_directory(o.tree)) {
    spdlog::error("--tree {}: not a directory (a kernel git tree)", a.tree);
    return kUsage;
  }
  // The report directory is made after the night's run: refuse an --out that cannot become
  // a directory (it, or its nearest existing parent, is a file) before anything boots.
  for (std::filesystem::path p = a.out; !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) {
      if (!std::filesystem::is_directory(p, ec)) {
        spdlog::error("--out {}: {} is not a directory", a.out, p.string());
        return kUsage;
      }
      break;
    }
    if (p == p.parent_path()) break;
  }
  run::Interrupts::instance().install();
  run::Progress progress(stderr, ::isatty(STDERR_FILENO) == 1);
  nightly::NightOutcome out;
  try {
    out = nightly::run_night(o, progress, [](std::string_view l) { spdlog::info("{}", l); });
  } catch (...) {
    return exit_code_of_failed_run();
  }
  if (out.interrupted) {
    spdlog::error("interrupted: no reports written; finish the night with `rlab run --resume {0} "
                  "{1}`, then `rlab nightly --matrix {1} --run {0}`",
                  out.analysis.run.id, o.matrix.string());
    return kInterrupted;
  }
  const auto& r = out.analysis;
  std::cout << fmt::format("nightly run {}: {} cells{}, {} regressions, {} with failed boots; "
                           "previous night {}, baseline {}\nreports: {}\n",
                           r.run.id, r.cells.size(),
                           r.gaps.empty() ? "" : fmt::format(", {} gap{}", r.gaps.size(), r.gaps.size() == 1 ? "" : "s"),
                           r.regressions(), r.failed_cells(),
                           r.previous ? fmt::format("run {}", r.previous->id) : "none",
                           r.baseline ? fmt::format("run {}", r.baseline->id) : "none",
                           out.report_dir.string());
  for (const auto& c : r.cells)
    if (c.status() != "PASS") std::cout << fmt::format("  {} {}: {}\n", c.status(), c.cell_id, c.reason());
  for (const auto& g : r.gaps)
    if (g.status() != "PASS") std::cout << fmt::format("  {} gap {}: {}\n", g.status(), g.name(), g.reason());
  if (out.run && out.run->leftover_domains > 0) return kInfrastructure;
  if (r.regressions() > 0 || r.failed_cells() > 0) return kFailure;
  return kOk;
}

Registrar nightly_registrar(15, [](CLI::App& app, int* exit_code) {
  auto a = std::make_shared<NightlyArgs>();
  auto* cmd = app.add_subcommand(
      "nightly", "One night: run the matrix, compare with the previous night and the baseline, "
                 "detect change points, bisect, push, write HTML/text/KCIDB/JUnit reports");
  cmd->add_option("--matrix", a->matrix, "Matrix file of the nightly series")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--db", a->db, "Results store (default: the matrix's `results:`)");
  cmd->add_option("--out", a->out, "Report root; reports go to <out>/<date>-run<id>/ "
                                   "(default: <store dir>/reports)");
  cmd->add_option("--push", a->push, "Prometheus Pushgateway URL (default: the matrix's `push:`)");
  cmd->add_option("--tree", a->tree,
                  "Kernel git tree: start `rlab bisect` for new regressions between two commits");
  cmd->add_option("--baseline", a->baseline,
                  "Baseline run id (default: the first nightly run of this matrix)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max(), "RUN-ID"));
  cmd->add_option("--control", a->control,
                  "Control cell (id or unique part) booted in every repeat: both comparisons are "
                  "drift-corrected against it (see `rlab compare --control`)");
  cmd->add_option("--run", a->report_run,
                  "Do not run: analyse and report this stored run (e.g. after `rlab run --resume`)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max(), "RUN-ID"));
  cmd->add_option("--agent", a->agent,
                  "Static aarch64 rlab-agent to pack (default: $RLAB_AGENT_BINARY or build/aarch64)")
      ->check(CLI::ExistingFile);
  cmd->final_callback([a, exit_code] { *exit_code = nightly_main(*a); });
});

}  // namespace
}  // namespace rlab::cli
