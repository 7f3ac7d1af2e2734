// `rlab noise <cell> [--boots N] [--control <cell>]`: boots a cell N times interleaved with a
// control cell and reports its noise (boot-to-boot and pass-to-pass relative stddev, drift,
// correlation with host load, minimum detectable effect); the report is stored.
// `rlab noise --show [cell]` prints the stored reports again. docs/noise.md.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "matrix/matrix.hpp"
#include "noise/measure.hpp"
#include "run/interrupts.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <iostream>
#include <limits>

namespace rlab::cli {
namespace {

struct NoiseArgs {
  noise::MeasureOptions o = [] {  ///< bound to the options
    noise::MeasureOptions m;
    m.matrix = util::source_dir() / "matrix.yaml";
    return m;
  }();
  bool show = false, json = false;
};

int show(const NoiseArgs& a) {
  std::vector<store::NoiseReportRow> rows;
  try {
    const auto path = matrix::store_path(a.o.db, a.o.matrix);
    if (!std::filesystem::exists(path)) throw UsageError(path.string() + ": no results store");
    auto st = store::Store::open(path);
    // The cell part is matched as text, not as a GLOB: '*', '?' and '[' in it are literal, and
    // no length of it makes SQLite refuse the pattern.
    for (auto& r : st->noise_reports("", std::numeric_limits<std::size_t>::max()))
      if (rows.size() < 100 && r.cell_id.find(a.o.cell) != std::string::npos) rows.push_back(std::move(r));
  } catch (...) {
    return exit_code_of_current_exception();
  }
  if (a.json) {
    auto out = nlohmann::json::array();
    for (const auto& r : rows) {
      auto j = nlohmann::json::parse(r.report_json);
      j["id"] = r.id;
      j["created_at"] = r.created_at;
      out.push_back(j);
    }
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << noise::render_history(rows);
    if (!rows.empty()) {
      auto newest = noise::from_json(nlohmann::json::parse(rows.front().report_json));
      newest.created_at = rows.front().created_at;
      std::cout << "\nnewest report (id " << rows.front().id << "):\n" << noise::render_text(newest);
    }
  }
  return kOk;
}

int measure(const NoiseArgs& a) {
  if (a.o.cell.empty()) {
    spdlog::error("rlab noise: name a cell (an id of the matrix or a unique part of one), or give --show");
    return kUsage;
  }
  run::Interrupts::instance().install();
  run::Progress progress(stderr, ::isatty(STDERR_FILENO) == 1);
  noise::Measured m;
  try {
    m = noise::measure(a.o, progress);
  } catch (...) {
    return exit_code_of_failed_run();
  }
  if (a.json) std::cout << noise::to_json(m.noise).dump(2) << "\n";
  else std::cout << noise::render_text(m.noise);
  if (m.summary.interrupted) {
    spdlog::warn("interrupted: the report above is partial and was not stored");
    return kInterrupted;
  }
  return m.summary.failed > 0 ? kFailure : kOk;
}

Registrar noise_registrar(46, [](CLI::App& app, int* exit_code) {
  auto args = std::make_shared<NoiseArgs>();
  auto* cmd = app.add_subcommand(
      "noise", "Measure a cell's noise (boot-to-boot, pass-to-pass, drift, host load, minimum detectable effect)");
  cmd->add_option("cell", args->o.cell,
                  "Cell id of the matrix, or a unique part of one (with --show: part of the ids to list)");
  cmd->add_option("--boots", args->o.boots, "Boots of the cell (and of the control), at least 2")
      ->check(CLI::Range(2u, 1000u))
      ->capture_default_str();
  cmd->add_option("--control", args->o.control,
                  "Control cell booted interleaved with the cell (default: the cell is its own control)");
  cmd->add_option("--matrix", args->o.matrix, "Matrix file (default: the project's matrix.yaml)");
  cmd->add_option("--db", args->o.db, "Results store (default: the matrix's `results:`)");
  cmd->add_option("--agent", args->o.agent,
                  "Static aarch64 rlab-agent to pack (default: $RLAB_AGENT_BINARY or build/aarch64)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--alpha", args->o.alpha, "Significance level of the minimum detectable effect")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  cmd->add_option("--power", args->o.power, "Power of the minimum detectable effect")
      ->check(CLI::Range(0.5, 0.9999))
      ->capture_default_str();
  cmd->add_flag("--show", args->show, "Print the stored noise reports instead of measuring");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->final_callback([args, exit_code] { *exit_code = args->show ? show(*args) : measure(*args); });
});

}  // namespace
}  // namespace rlab::cli
