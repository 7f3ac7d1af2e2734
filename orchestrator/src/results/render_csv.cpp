// `rlab results --csv`: one record per cell (docs/usage.md).
#include "results/results_table.hpp"

#include "util/csv.hpp"

#include <map>
#include <tuple>

namespace rlab::results {
namespace {

/// The first kernel's cell of each row (fs, mkfs label, vCPUs, workload).
std::map<std::tuple<std::string, std::string, unsigned, std::string>, const CellSummary*> first_kernel_cells(
    const ResultsTable& t) {
  std::map<std::tuple<std::string, std::string, unsigned, std::string>, const CellSummary*> first;
  for (const auto& c : t.cells)
    if (!t.kernels.empty() && c.kernel == t.kernels.front()) first[{c.fs, c.mkfs_label, c.vcpus, c.workload}] = &c;
  return first;
}

}  // namespace

void render_csv(const ResultsTable& t, std::ostream& out) {
  using util::csv_number;
  util::CsvWriter w(out);
  w.row({"run", "cell", "kernel", "fs", "mkfs", "vcpus", "workload", "copies", "boots", "done", "failed", "median_lpm",
         "rel_stddev", "unixbench_index", "inodegc_throttle_per_1k_loops", "base_kernel", "change", "p", "verdict"});
  const auto first = first_kernel_cells(t);
  for (const auto& c : t.cells) {
    std::optional<stats::Comparison> v;
    const CellSummary* base = nullptr;
    if (auto it = first.find({c.fs, c.mkfs_label, c.vcpus, c.workload}); it != first.end() && it->second != &c) {
      base = it->second;
      v = judge(*base, c, t.verdict);
    }
    w.row({std::to_string(t.run.id), c.cell_id, c.kernel, c.fs, c.mkfs_label, std::to_string(c.vcpus), c.workload,
           std::to_string(c.copies), std::to_string(c.boots), std::to_string(c.done), std::to_string(c.failed),
           csv_number(c.median), csv_number(c.rel_stddev), csv_number(c.index), csv_number(c.throttle_per_kloop),
           base ? base->kernel : "", csv_number(v ? std::optional(v->difference.relative_change) : std::nullopt),
           csv_number(v ? std::optional(v->difference.p_min) : std::nullopt),
           v ? std::string(stats::verdict_name(v->verdict)) : std::string()});
  }
}

}  // namespace rlab::results
