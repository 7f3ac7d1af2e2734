// `rlab detect`: change points (E-Divisive means, permutation test) in each cell's history of
// nightly runs, with magnitude and p; `--bisect --tree <linux git>` starts a bisection (the
// `rlab bisect` driver) for each regression whose two kernels are commits of that tree.
// docs/compare.md, docs/bisect.md.
#include "kernel_bisect/driver.hpp"
#include "kernel_bisect/render.hpp"
#include "kernel_bisect/vm_lab.hpp"
#include "changepoint/detect.hpp"
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "matrix/matrix.hpp"
#include "run/interrupts.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>

namespace rlab::cli {
namespace {

struct DetectArgs {
  std::string cell;
  std::string db;
  std::string matrix = (util::source_dir() / "matrix.yaml").string();
  std::string kind = "nightly";
  double alpha = 0.01;
  std::size_t permutations = 199;
  double min_effect = 0.02;
  std::size_t min_segment = 3;
  bool json = false;
  bool bisect = false;
  std::string tree;   ///< --tree: the kernel git tree the regressions' commits belong to
  std::string agent;  ///< --agent for the bisections' guests
};

/// Starts and drives one bisection per bisectable regression whose commits are in `tree`
/// (sessions in the same store). Returns kOk, or the exit code of the first bisection that
/// could not be run (a lab failure: the session stays resumable with `rlab bisect --resume`).
int start_bisections(const DetectArgs& a, const std::filesystem::path& db_path,
                     const std::vector<changepoint::CellDetection>& cells) {
  namespace bd = rlab::kernel_bisect;
  int code = kOk;
  try {
    const bd::GitTree git(a.tree);
    for (const auto& c : cells)
      for (const auto& d : c.detections) {
        if (!d.regression() || !d.bisectable()) continue;
        const auto& good = d.last_before.source_commit;
        const auto& bad = d.first_after.source_commit;
        try {
          git.resolve(good);
          git.resolve(bad);
        } catch (const bd::GitError&) {
          std::cout << fmt::format("\n{}: not bisected: {} and {} are not both commits of {}\n",
                                   c.history.cell_id, good.substr(0, 12), bad.substr(0, 12), a.tree);
          continue;
        }
        bd::SessionDb db(db_path);
        bd::StartOptions o;
        o.tree = a.tree;
        o.good = good;
        o.bad = bad;
        o.cell = c.history.cell_id;
        o.matrix = a.matrix;
        const bd::SessionId id = bd::create_session(db, o);
        std::cout << fmt::format("\n{}: bisect session {} ({} .. {}), as `rlab bisect --tree {} --good {} "
                                 "--bad {} --cell {}`\n",
                                 c.history.cell_id, id, good.substr(0, 12), bad.substr(0, 12), a.tree,
                                 good, bad, c.history.cell_id);
        std::cout.flush();
        auto say = [](std::string_view l) { spdlog::info("{}", l); };
        const auto stored = *db.get(id);
        bd::VmLab lab(db, stored, a.agent, say);
        try {
          const auto s = bd::drive(db, id, lab, false, say);
          std::cout << bd::render_report(db, s, git);
        } catch (...) {
          const int e = exit_code_of_current_exception(fmt::format("bisect session {}", id));
          spdlog::error("the session is kept: continue with `rlab bisect --resume {} --db {}`", id,
                        db_path.string());
          run::Interrupts::instance().destroy_domains();
          if (run::Interrupts::instance().stopped()) return kInterrupted;
          if (code == kOk) code = e;
        }
        std::cout.flush();
      }
  } catch (...) {
    return exit_code_of_current_exception("rlab detect --bisect");
  }
  return code;
}

int detect_main(const DetectArgs& a) {
  if (!a.tree.empty() && !a.bisect) {
    spdlog::error("rlab detect: --tree is the tree --bisect starts bisections in; add --bisect");
    return kUsage;
  }
  if (!a.tree.empty() && a.json) {
    spdlog::error("rlab detect: --bisect --tree prints the bisections' reports as text; drop --json");
    return kUsage;
  }
  changepoint::DetectOptions opt;
  opt.selector = a.cell;
  opt.kind = a.kind == "all" ? "" : a.kind;
  opt.method.alpha = a.alpha;
  opt.method.permutations = a.permutations;
  opt.method.min_segment = a.min_segment;
  opt.min_effect = a.min_effect;
  int code = kOk;
  const auto found = existing_store(a.db, a.matrix, &code);
  if (!found) return code;
  const std::filesystem::path& path = *found;
  std::vector<changepoint::CellDetection> cells;
  try {
    cells = changepoint::detect(*store::Store::open_read_only(path), opt);
  } catch (...) {
    return exit_code_of_current_exception("rlab detect");
  }
  const bool start = a.bisect && !a.tree.empty();
  if (a.json) std::cout << changepoint::to_json(cells, opt, a.bisect).dump(2) << "\n";
  else changepoint::render_text(cells, opt, a.bisect, start, std::cout);
  std::cout.flush();  // the listing before any message on stderr
  if (start) {
    run::Interrupts::instance().install();
    if (const int code = start_bisections(a, path, cells); code != kOk) return code;
  }
  for (const auto& c : cells)
    for (const auto& d : c.detections)
      if (d.regression()) return kFailure;
  return kOk;
}

Registrar detect_registrar(45, [](CLI::App& app, int* exit_code) {
  auto args = std::make_shared<DetectArgs>();
  auto* cmd = app.add_subcommand(
      "detect", "Change points in each cell's nightly history (E-Divisive means with a "
                "permutation test): magnitude, p, the kernels on either side");
  cmd->add_option("--cell", args->cell, "Cell ids to examine, a glob (e.g. '6.12/xfs-*/2vcpu/shell1')");
  cmd->add_option("--db", args->db, "SQLite store (default: the matrix's `results:`)");
  cmd->add_option("--matrix", args->matrix, "Matrix whose `results:` names the store")
      ->capture_default_str();
  cmd->add_option("--kind", args->kind, "Run kind forming the history ('all' for every kind)")
      ->capture_default_str();
  cmd->add_option("--alpha", args->alpha, "Significance level of each permutation test")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  cmd->add_option("--permutations", args->permutations, "Permutations per test (>= 19)")
      ->check(CLI::Range(19, 100000))
      ->capture_default_str();
  cmd->add_option("--min-segment", args->min_segment, "Fewest runs on either side of a change")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
  cmd->add_option("--min-effect", args->min_effect,
                  "Smallest relative change of the means a change point is reported with (0.02 = 2%)")
      ->check(CLI::Range(0.0, 0.99))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Machine-readable JSON instead of the listing");
  cmd->add_flag("--bisect", args->bisect,
                "For each regression: with --tree, bisect it (as `rlab bisect`); without, print "
                "the `rlab bisect` it would run");
  cmd->add_option("--tree", args->tree,
                  "Kernel git tree holding the regressions' commits (--bisect starts bisections in it)");
  cmd->add_option("--agent", args->agent,
                  "Static aarch64 rlab-agent for the bisections' guests (default: $RLAB_AGENT_BINARY "
                  "or build/aarch64)");
  cmd->final_callback([args, exit_code] { *exit_code = detect_main(*args); });
});

}  // namespace
}  // namespace rlab::cli
