// Aggregation of a run's boots into per-cell summaries, and the JSON form.
#include "results/results_table.hpp"
#include "attribution/ag_table_render.hpp"
#include "stats/descriptive.hpp"
#include "store/readers.hpp"

#include "rlab/protocol/score.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace rlab::results {

ResultsTable summarize(const store::RunInfo& run, const std::vector<store::BootResult>& boots) {
  ResultsTable t;
  t.run = run;
  std::map<std::string, CellSummary> by_cell;
  std::map<std::string, std::uint64_t> throttle;
  std::map<std::string, std::uint64_t> throttle_loops;
  std::map<std::string, std::string> kind;
  std::map<std::string, std::vector<double>> ags;
  for (const auto& b : boots) {
    if (std::find(t.kernels.begin(), t.kernels.end(), b.kernel) == t.kernels.end())
      t.kernels.push_back(b.kernel);
    CellSummary& c = by_cell[b.cell_id];
    if (c.cell_id.empty()) {
      c.cell_id = b.cell_id;
      c.kernel = b.kernel;
      c.fs = b.fs;
      c.mkfs_label = b.mkfs_label;
      c.vcpus = b.vcpus;
      c.workload = b.workload;
      c.copies = b.copies;
    }
    ++c.boots;
    if (b.status == store::BootStatus::failed) {
      ++c.failed;
      c.failures.push_back("repeat " + std::to_string(b.repeat) + ": " +
                           (b.failure.empty() ? "failed" : b.failure));
    }
    if (b.status != store::BootStatus::done || !b.score) continue;
    ++c.done;
    c.scores.push_back(*b.score);
    kind[b.cell_id] = b.workload_kind;
    if (!b.layout.empty()) c.layout = b.layout;
    if (b.inode_ags) ags[b.cell_id].push_back(*b.inode_ags);
    if (b.agcount) c.agcount = b.agcount;
    c.loops += b.loops;
    if (b.throttle_counted) {
      throttle[b.cell_id] += b.inodegc_throttle;
      throttle_loops[b.cell_id] += b.loops;
    }
  }
  for (auto& [id, c] : by_cell) {
    if (!c.scores.empty()) {
      c.median = stats::median(c.scores);
      if (c.scores.size() >= 2 && stats::mean(c.scores) > 0) c.rel_stddev = stats::relative_stddev(c.scores);
    }
    if (c.median) c.index = protocol::unixbench_index(kind[id], *c.median);
    if (const auto& a = ags[id]; !a.empty()) {
      c.inode_ags = stats::mean(a);
    }
    if (auto it = throttle_loops.find(id); it != throttle_loops.end() && it->second > 0)
      c.throttle_per_kloop = 1000.0 * static_cast<double>(throttle[id]) /
                             static_cast<double>(it->second);
    t.cells.push_back(c);
  }
  auto kernel_pos = [&](const std::string& k) {
    return std::find(t.kernels.begin(), t.kernels.end(), k) - t.kernels.begin();
  };
  std::sort(t.cells.begin(), t.cells.end(), [&](const CellSummary& a, const CellSummary& b) {
    return std::make_tuple(a.fs, a.mkfs_label, a.vcpus, a.workload, kernel_pos(a.kernel)) <
           std::make_tuple(b.fs, b.mkfs_label, b.vcpus, b.workload, kernel_pos(b.kernel));
  });
  return t;
}

std::optional<stats::Comparison> judge(const CellSummary& base, const CellSummary& c, const stats::VerdictOptions& opt) {
  if (base.scores.empty() || c.scores.empty()) return std::nullopt;
  return stats::compare(base.scores, c.scores, opt);
}

/// Each cell's AG header table, for the cells whose passes carry AG header totals.
static void add_ag_headers(const store::Store& st, store::RunId run, ResultsTable& t) {
  std::map<std::string, std::vector<attribution::BootAgHeaders>> by_cell;
  for (const auto& b : store::scored_boots(st, run)) by_cell[b.cell_id].push_back(attribution::ag_headers_of(b.passes));
  for (auto& c : t.cells)
    if (const auto it = by_cell.find(c.cell_id); it != by_cell.end() && attribution::any_ag_headers(it->second))
      c.ag_headers = attribution::ag_table(it->second);
}

namespace {

/// Medians of the run's boot phases; nullopt without any.
std::optional<BootSummary> boot_summary(const std::vector<store::BootPhases>& phases) {
  if (phases.empty()) return std::nullopt;
  BootSummary b;
  b.boots = phases.size();
  auto med = [&](std::optional<double> store::BootPhases::*field) -> std::optional<double> {
    std::vector<double> v;
    for (const auto& p : phases)
      if (p.*field) v.push_back(*(p.*field));
    if (v.empty()) return std::nullopt;
    return stats::median(v);
  };
  b.boot_s = med(&store::BootPhases::boot_s);
  b.init_s = med(&store::BootPhases::init_s);
  b.agent_s = med(&store::BootPhases::agent_s);
  b.hello_s = med(&store::BootPhases::hello_s);
  return b;
}

}  // namespace

ResultsTable load_table(const store::Store& st, store::RunId run) {
  auto info = st.run(run);
  if (!info)
    throw store::StoreError(st.path().string() + ": no run " + std::to_string(run));
  ResultsTable t = summarize(*info, st.boot_results(run));
  add_ag_headers(st, run, t);
  t.boot = boot_summary(st.boot_phases(run));
  for (const auto& n : st.noise_reports("", 1))
    if (n.boot_rel_stddev)
      t.noise = HostNoise{*n.boot_rel_stddev, fmt::format("rlab noise of {}, {}", n.cell_id, n.created_at.substr(0, 10))};
  if (!t.noise) {  // pooled over this run's cells with 2+ boots
    double ss = 0;
    std::size_t df = 0;
    for (const auto& c : t.cells)
      if (c.scores.size() >= 2 && c.rel_stddev) {
        ss += *c.rel_stddev * *c.rel_stddev * static_cast<double>(c.scores.size() - 1);
        df += c.scores.size() - 1;
      }
    if (df > 0) t.noise = HostNoise{std::sqrt(ss / static_cast<double>(df)), "this run's cells with 2 or more boots"};
  }
  return t;
}

nlohmann::json to_json(const ResultsTable& t) {
  using nlohmann::json;
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json cells = json::array();
  std::map<std::tuple<std::string, std::string, unsigned, std::string>, const CellSummary*> first;
  for (const auto& c : t.cells)
    if (!t.kernels.empty() && c.kernel == t.kernels.front()) first[{c.fs, c.mkfs_label, c.vcpus, c.workload}] = &c;
  for (const auto& c : t.cells) {
    json vs = nullptr;
    if (auto it = first.find({c.fs, c.mkfs_label, c.vcpus, c.workload}); it != first.end() && it->second != &c)
      if (auto v = judge(*it->second, c, t.verdict))
        vs = {{"kernel", it->second->kernel},
              {"change", v->difference.relative_change},
              {"p", v->difference.p_min},
              {"verdict", stats::verdict_name(v->verdict)},
              {"reason", v->reason}};
    cells.push_back({{"vs_first", vs},
                     {"cell_id", c.cell_id},
                     {"kernel", c.kernel},
                     {"fs", c.fs},
                     {"mkfs", c.mkfs_label},
                     {"vcpus", c.vcpus},
                     {"workload", c.workload},
                     {"copies", c.copies},
                     {"boots", c.boots},
                     {"done", c.done},
                     {"failed", c.failed},
                     {"scores", c.scores},
                     {"median_lpm", opt(c.median)},
                     {"rel_stddev", opt(c.rel_stddev)},
                     {"unixbench_index", opt(c.index)},
                     {"inode_ags", opt(c.inode_ags)},
                     {"agcount", c.agcount ? json(*c.agcount) : json(nullptr)},
                     {"layout", c.layout},
                     {"loops", c.loops},
                     {"throttle_per_1k_loops", opt(c.throttle_per_kloop)},
                     {"failures", c.failures}});
    if (c.ag_headers) cells.back()["ag_headers"] = attribution::ag_table_json(*c.ag_headers);
  }
  return {{"run",
           {{"id", t.run.id},
            {"status", store::to_string(t.run.status)},
            {"kind", t.run.kind},
            {"created_at", t.run.created_at},
            {"finished_at", t.run.finished_at},
            {"matrix_path", t.run.matrix_path},
            {"seed", t.run.seed}}},
          {"kernels", t.kernels},
          {"cells", cells},
          {"boot", t.boot ? json{{"boots", t.boot->boots}, {"boot_s", opt(t.boot->boot_s)}, {"guest_init_s", opt(t.boot->init_s)},
                                 {"guest_agent_s", opt(t.boot->agent_s)}, {"guest_hello_s", opt(t.boot->hello_s)}}
                          : json(nullptr)}};
}

}  // namespace rlab::results
