// `rlab detect`: change points (E-Divisive means, permutation test) in each cell's history of
// nightly runs, with magnitude and p. docs/compare.md.
#include "changepoint/detect.hpp"
#include "cli/command.hpp"
#include "matrix/matrix.hpp"
#include "util/paths.hpp"

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
  std::size_t min_segment = 3;
  bool json = false;
  bool bisect = false;
};

int detect_main(const DetectArgs& a) {
  changepoint::DetectOptions opt;
  opt.selector = a.cell;
  opt.kind = a.kind == "all" ? "" : a.kind;
  opt.method.alpha = a.alpha;
  opt.method.permutations = a.permutations;
  opt.method.min_segment = a.min_segment;
  std::filesystem::path path = a.db;
  try {
    if (path.empty()) {
      matrix::LoadOptions lo;
      lo.check_paths = false;
      path = matrix::load_matrix(a.matrix, lo).results;
    }
  } catch (const matrix::MatrixError& e) {
    spdlog::error("{}", e.what());
    return kUsage;
  }
  if (!std::filesystem::exists(path)) {
    spdlog::error("{}: no results store here (run `rlab run` first, or pass --db)", path.string());
    return kUsage;
  }
  std::vector<changepoint::CellDetection> cells;
  try {
    const compare::ReadOnlyDb db(path);
    cells = changepoint::detect(db, opt);
  } catch (const std::invalid_argument& e) {
    spdlog::error("rlab detect: {}", e.what());
    return kUsage;
  } catch (const store::StoreError& e) {
    spdlog::error("{}", e.what());
    return kInfrastructure;
  }
  if (a.json) std::cout << changepoint::to_json(cells, opt, a.bisect).dump(2) << "\n";
  else changepoint::render_text(cells, opt, a.bisect, std::cout);
  std::cout.flush();  // the listing before any message on stderr
  if (a.bisect)
    spdlog::warn("rlab detect --bisect prints the bisections it would start; starting them "
                 "automatically is not implemented yet");
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
  cmd->add_flag("--json", args->json, "Machine-readable JSON instead of the listing");
  cmd->add_flag("--bisect", args->bisect,
                "Print the `rlab bisect` each regression would start (not started yet)");
  cmd->final_callback([args, exit_code] { *exit_code = detect_main(*args); });
});

}  // namespace
}  // namespace rlab::cli
