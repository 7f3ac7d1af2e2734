// `rlab compare A B` (two runs) and `rlab compare RUN --kernels K1 K2` (two kernels of one
// run): per cell base ± %stddev, %change, new ± %stddev, p and verdict, plus the inodegc
// tracepoint changes per 1,000 loops. docs/compare.md.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "compare/compare.hpp"
#include "compare/render.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"

#include <spdlog/spdlog.h>

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <iostream>
#include <memory>

namespace rlab::cli {
namespace {

struct CompareArgs {
  std::vector<std::int64_t> runs;    ///< one (with --kernels) or two run ids
  std::vector<std::string> kernels;  ///< base and new kernel names
  std::string db;
  std::string matrix = (util::source_dir() / "matrix.yaml").string();
  bool json = false;
  double alpha = 0.01;
  double min_effect = 0.02;
  std::size_t cap = 80;
  std::string control;
  std::string flame_graphs;  ///< folder for the differential flame graphs; "" for none
};

/// `text` with every character but letters, digits, '.', '-' and '+' made '_': a file name.
std::string file_name_of(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+') c = '_';
  return out;
}

/// "run 3" or, comparing kernels, the kernel's name.
std::string side_label(const compare::Side& s) { return s.kernel.empty() ? fmt::format("run {}", s.run) : s.kernel; }

/// Writes `<dir>/<cell>.<family>.svg` for every flame tree of `rep`; says where on stderr.
void write_flame_graphs(const compare::ComparisonTable& rep, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::size_t n = 0;
  for (const auto& c : rep.cells)
    for (const auto& [family, tree] : c.flames) {
      attribution::FlameSvgOptions o;
      o.base_label = side_label(rep.base);
      o.new_label = side_label(rep.next);
      o.title = fmt::format("{}: {} -> {}, {}", attribution::family_name(family), o.base_label, o.new_label, c.label);
      util::write_file_atomic(dir / (file_name_of(c.label) + "." + std::string(attribution::family_name(family)) + ".svg"),
                              attribution::flame_svg(tree, o));
      ++n;
    }
  spdlog::info("{} differential flame graphs in {}", n, dir.string());
}

/// kUsage when a row was refused (each says why on stderr), kFailure when a row regressed,
/// else kOk.
int exit_code_of(const compare::ComparisonTable& rep) {
  bool refused = false, regression = false;
  for (const auto& c : rep.cells) {
    refused |= c.status == compare::RowStatus::refused;
    regression |= c.regression();
  }
  if (refused) {
    for (const auto& c : rep.cells)
      if (c.mismatch) spdlog::error("{}: not comparable: {}", c.label, c.mismatch->message());
    return kUsage;
  }
  return regression ? kFailure : kOk;
}

int compare_main(const CompareArgs& a) {
  compare::CompareOptions opt;
  opt.verdict.alpha = a.alpha;
  opt.verdict.min_effect = a.min_effect;
  opt.plan.cap = std::max(a.cap, opt.plan.initial);
  opt.control = a.control;
  if (a.kernels.empty() && a.runs.size() != 2) {
    spdlog::error("rlab compare: give two runs (`rlab compare A B`) or one run and two kernels "
                  "(`rlab compare RUN --kernels K1 K2`)");
    return kUsage;
  }
  if (!a.kernels.empty() && a.runs.size() > 1) {
    spdlog::error("rlab compare: --kernels compares two kernels inside one run; give one run id");
    return kUsage;
  }
  int code = kOk;
  const auto found = existing_store(a.db, a.matrix, &code);
  if (!found) return code;
  const std::filesystem::path& path = *found;
  compare::ComparisonTable rep;
  try {
    const auto db = store::Store::open_read_only(path);
    for (auto r : a.runs)
      if (!db->run(r)) {
        spdlog::error("{}: no run {} (see `rlab results --list`)", path.string(), r);
        return kUsage;
      }
    if (a.kernels.empty()) {
      rep = compare::compare_runs(*db, a.runs[0], a.runs[1], opt);
    } else {
      const std::int64_t run = a.runs.empty() ? db->latest_run().value_or(0) : a.runs[0];
      if (run == 0) {
        spdlog::error("{}: the store holds no runs yet", path.string());
        return kUsage;
      }
      rep = compare::compare_kernels(*db, run, a.kernels[0], a.kernels[1], opt);
    }
  } catch (...) {
    return exit_code_of_current_exception();
  }
  if (!a.flame_graphs.empty()) {
    try {
      write_flame_graphs(rep, a.flame_graphs);
    } catch (...) {
      return exit_code_of_current_exception();
    }
  }
  if (a.json) std::cout << compare::to_json(rep).dump(2) << "\n";
  else compare::render_text(rep, std::cout);
  std::cout.flush();  // the table before any message on stderr
  return exit_code_of(rep);
}

Registrar compare_registrar(40, [](CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand(
      "compare", "Compare two runs (A B) or two kernels of one run (RUN --kernels K1 K2): per "
                 "cell median ± %stddev, %change, p, verdict, inodegc counters per 1,000 loops");
  cmd->add_option("runs", args->runs, "Base and new run ids; one run (default latest) with --kernels")
      ->check(CLI::PositiveNumber)
      ->expected(0, 2);
  cmd->add_option("--kernels", args->kernels, "Base and new kernel names inside one run")
      ->expected(2);
  cmd->add_option("--db", args->db, "SQLite store (default: the matrix's `results:`)");
  cmd->add_option("--matrix", args->matrix, "Matrix whose `results:` names the store")
      ->capture_default_str();
  cmd->add_option("--alpha", args->alpha, "Significance level of min(p_MWU, p_KS)")
      ->check(CLI::Range(1e-6, 0.499))
      ->capture_default_str();
  cmd->add_option("--min-effect", args->min_effect,
                  "Smallest relevant |median change|, a fraction (0.02 = 2%)")
      ->check(CLI::Range(1e-6, 1.0))
      ->capture_default_str();
  cmd->add_option("--cap", args->cap, "Most boots per side the 'measure more' advice goes to")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--control", args->control,
                  "Drift-correct every score against this cell (id or a unique part) of the same "
                  "run and repeat");
  cmd->add_flag("--json", args->json, "Machine-readable JSON instead of the table");
  cmd->add_option("--flame-graphs", args->flame_graphs,
                  "Folder to write a differential flame graph (SVG) per cell and stack family (lock, "
                  "offcpu, oncpu) into: <cell>.<family>.svg");
  cmd->final_callback([args, exit_code] { *exit_code = compare_main(*args); });
});

}  // namespace
}  // namespace rlab::cli
