// `rlab results [run-id]`: prints a stored run's table again (text, --json or --csv), or lists runs.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "matrix/matrix.hpp"
#include "results/results_table.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <limits>
#include <memory>

namespace rlab::cli {
namespace {

struct ResultsArgs {
  std::int64_t run_id = 0;  ///< 0: the latest run
  std::string db;           ///< store path; "" -> the matrix's `results:`
  std::string matrix = (util::source_dir() / "matrix.yaml").string();
  bool json = false;
  bool csv = false;
  bool list = false;
};

void list_runs(const store::Store& st) {
  std::cout << fmt::format("{:>5}  {:<11}  {:<24}  {:>5}  {:>5}  {}\n", "RUN", "STATUS", "STARTED",
                           "BOOTS", "DONE", "MATRIX");
  for (const auto& r : st.runs()) {
    const auto boots = st.boots(r.id);
    std::size_t done = 0;
    for (const auto& b : boots) done += b.status == store::BootStatus::done;
    std::cout << fmt::format("{:>5}  {:<11}  {:<24}  {:>5}  {:>5}  {}\n", r.id, store::to_string(r.status),
                             r.created_at, boots.size(), done, r.matrix_path);
  }
}

int results(const ResultsArgs& a) {
  int code = kOk;
  const auto found = existing_store(a.db, a.matrix, &code);
  if (!found) return code;
  const std::filesystem::path& path = *found;
  try {
    auto st = store::Store::open(path);
    if (a.list) {
      list_runs(*st);
      return kOk;
    }
    store::RunId id = a.run_id;
    if (id == 0) {
      auto latest = st->latest_run();
      if (!latest) {
        spdlog::error("{}: the store holds no runs yet", path.string());
        return kUsage;
      }
      id = *latest;
    } else if (!st->run(id)) {
      spdlog::error("{}: no run {} (see `rlab results --list`)", path.string(), id);
      return kUsage;
    }
    const auto table = results::load_table(*st, id);
    if (a.json) std::cout << results::to_json(table).dump(2) << "\n";
    else if (a.csv) results::render_csv(table, std::cout);
    else results::render_text(table, std::cout);
    return kOk;
  } catch (const store::NotAStoreError& e) {
    spdlog::error("{}", e.what());
    return kUsage;
  } catch (const store::StoreError& e) {
    spdlog::error("{}", e.what());
    return kInfrastructure;
  }
}

Registrar results_registrar(20, [](CLI::App& app, int* exit_code) {
  auto args = std::make_shared<ResultsArgs>();
  auto* cmd = app.add_subcommand(
      "results", "Print a stored run's table: kernel x fs x vCPUs -> score_lpm, the median over the boots "
                 "± %stddev, with %change, p and verdict against the first kernel (as `rlab compare --kernels`), "
                 "inodegc throttle events per 1,000 loops");
  cmd->add_option("run-id", args->run_id, "Run to show (default: the latest)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max(), "RUN-ID"));
  cmd->add_option("--db", args->db, "SQLite store (default: the matrix's `results:`)");
  cmd->add_option("--matrix", args->matrix, "Matrix whose `results:` names the store")
      ->capture_default_str();
  auto* json = cmd->add_flag("--json", args->json, "Machine-readable JSON instead of the table");
  cmd->add_flag("--csv", args->csv,
                "CSV instead of the table: one record per cell (median_lpm, rel_stddev, change, p and verdict "
                "against the first kernel)")
      ->excludes(json);
  cmd->add_flag("--list", args->list, "List the store's runs instead");
  cmd->final_callback([args, exit_code] { *exit_code = results(*args); });
});

}  // namespace
}  // namespace rlab::cli
