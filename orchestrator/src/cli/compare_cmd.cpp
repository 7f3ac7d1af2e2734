// `rlab compare A B [C ...]` (runs against the first) and `rlab compare RUN --kernels K1 K2
// [K3 ...]` (kernels of one run against the first): per cell base ± %stddev, then per other
// side %change, its ± %stddev, p and verdict, and what changed per 1,000 loops; text, JSON or
// CSV. docs/compare.md.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "compare/compare.hpp"
#include "compare/multi.hpp"
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
#include <variant>

namespace rlab::cli {
namespace {

struct CompareArgs {
  std::vector<std::int64_t> runs;    ///< one (with --kernels) or two or more run ids, the base first
  std::vector<std::string> kernels;  ///< two or more kernel names, the base first
  std::string db;
  std::string matrix = (util::source_dir() / "matrix.yaml").string();
  bool json = false;
  bool csv = false;
  bool what_changed = true;  ///< the "what changed" block under each compared row
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

/// Writes `<dir>/<cell>.<family>.svg` for every flame tree of `rep`, or with `tag`
/// `<dir>/<cell>.<tag>.<family>.svg`; returns how many.
std::size_t write_flame_graphs(const compare::ComparisonTable& rep, const std::filesystem::path& dir,
                               const std::string& tag) {
  std::size_t n = 0;
  for (const auto& c : rep.cells)
    for (const auto& [family, tree] : c.flames) {
      attribution::FlameSvgOptions o;
      o.base_label = side_label(rep.base);
      o.new_label = side_label(rep.next);
      o.title = fmt::format("{}: {} -> {}, {}", attribution::family_name(family), o.base_label, o.new_label, c.label);
      const std::string stem = file_name_of(c.label) + (tag.empty() ? "" : "." + file_name_of(tag));
      util::write_file_atomic(dir / (stem + "." + std::string(attribution::family_name(family)) + ".svg"),
                              attribution::flame_svg(tree, o));
      ++n;
    }
  return n;
}

/// The flame graphs of every pair into `dir`; an N-way comparison tags each file with the
/// other side ("vs-run-4", "vs-kernel-6.13"). Says where on stderr.
void write_flame_graphs(const compare::MultiComparison& m, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::size_t n = 0;
  for (const auto& p : m.pairs)
    n += write_flame_graphs(p, dir, m.pairs.size() == 1 ? "" : "vs-" + compare::side_name(p.mode, p.next));
  spdlog::info("{} differential flame graphs in {}", n, dir.string());
}

/// kUsage when a row was refused (each says why on stderr), kFailure when a row regressed,
/// else kOk.
int exit_code_of(const compare::MultiComparison& m) {
  if (compare::any_refused(m)) {
    for (const auto& p : m.pairs)
      for (const auto& c : p.cells)
        if (c.mismatch)
          spdlog::error("{}{}: not comparable: {}", m.pairs.size() == 1 ? "" : compare::side_name(p.mode, p.next) + ": ",
                        c.label, c.mismatch->message());
    return kUsage;
  }
  return compare::any_regression(m) ? kFailure : kOk;
}

/// The combinations of arguments no parser rule catches; "" when the arguments are usable.
std::string usage_problem(const CompareArgs& a) {
  if (a.kernels.empty() && a.runs.size() < 2)
    return "give two runs or more (`rlab compare A B [C ...]`, the first is the base) or one run and two "
           "kernels or more (`rlab compare RUN --kernels K1 K2 [K3 ...]`)";
  if (!a.kernels.empty() && a.runs.size() > 1)
    return "--kernels compares kernels inside one run; give one run id";
  if (!a.what_changed && !a.flame_graphs.empty())
    return "--flame-graphs draws what changed: it cannot be combined with --no-what-changed";
  return "";
}

/// Reads the store and compares; the table, or the exit code of what went wrong.
std::variant<compare::MultiComparison, int> compare_all(const CompareArgs& a, const compare::CompareOptions& opt) {
  int code = kOk;
  const auto found = existing_store(a.db, a.matrix, &code);
  if (!found) return code;
  const std::filesystem::path& path = *found;
  try {
    const auto db = store::Store::open_read_only(path);
    for (auto r : a.runs)
      if (!db->run(r)) {
        spdlog::error("{}: no run {} (see `rlab results --list`)", path.string(), r);
        return kUsage;
      }
    if (a.kernels.empty()) return compare::compare_runs(*db, a.runs, opt);
    const std::int64_t run = a.runs.empty() ? db->latest_run().value_or(0) : a.runs[0];
    if (run == 0) {
      spdlog::error("{}: the store holds no runs yet", path.string());
      return kUsage;
    }
    return compare::compare_kernels(*db, run, a.kernels, opt);
  } catch (...) {
    return exit_code_of_current_exception();
  }
}

int compare_main(const CompareArgs& a) {
  compare::CompareOptions opt;
  opt.verdict.alpha = a.alpha;
  opt.verdict.min_effect = a.min_effect;
  opt.plan.cap = std::max(a.cap, opt.plan.initial);
  opt.control = a.control;
  opt.what_changed = a.what_changed;
  if (const auto problem = usage_problem(a); !problem.empty()) {
    spdlog::error("rlab compare: {}", problem);
    return kUsage;
  }
  auto result = compare_all(a, opt);
  if (const int* code = std::get_if<int>(&result)) return *code;
  const auto& m = std::get<compare::MultiComparison>(result);
  if (!a.flame_graphs.empty()) {
    try {
      write_flame_graphs(m, a.flame_graphs);
    } catch (...) {
      return exit_code_of_current_exception();
    }
  }
  if (a.json) std::cout << compare::to_json(m).dump(2) << "\n";
  else if (a.csv) compare::render_csv(m, std::cout);
  else compare::render_text(m, std::cout);
  std::cout.flush();  // the table before any message on stderr
  return exit_code_of(m);
}

Registrar compare_registrar(42, [](CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand(
      "compare", "Compare runs (A B [C ...]) or kernels of one run (RUN --kernels K1 K2 [K3 ...]) "
                 "against the first: per cell median ± %stddev, %change, p, verdict, and what changed "
                 "(counters per 1,000 loops)");
  cmd->add_option("runs", args->runs,
                  "Run ids, the base first, then each run compared with it; one run (default latest) with --kernels")
      ->check(CLI::PositiveNumber)
      ->expected(0, CLI::detail::expected_max_vector_size);
  cmd->add_option("--kernels", args->kernels,
                  "Kernel names inside one run, the base first, then each kernel compared with it")
      ->expected(2, CLI::detail::expected_max_vector_size);
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
  auto* json = cmd->add_flag("--json", args->json, "Machine-readable JSON instead of the table");
  cmd->add_flag("--csv", args->csv,
                "CSV instead of the table: one record per cell and other side (base and new median_lpm, "
                "%change as a fraction, p, verdict)")
      ->excludes(json);
  cmd->add_flag("--what-changed,!--no-what-changed", args->what_changed,
                "Show (default) or hide the 'what changed' block under each compared row (counter "
                "ranking per 1,000 loops, AG header table); hiding it also skips computing it");
  cmd->add_option("--flame-graphs", args->flame_graphs,
                  "Folder to write a differential flame graph (SVG) per cell and stack family (lock, "
                  "offcpu, oncpu) into: <cell>.<family>.svg");
  cmd->final_callback([args, exit_code] { *exit_code = compare_main(*args); });
});

}  // namespace
}  // namespace rlab::cli
