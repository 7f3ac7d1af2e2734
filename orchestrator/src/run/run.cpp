#include "run/run.hpp"

#include "run/batch.hpp"
#include "run/clock.hpp"
#include "run/owner.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <memory>

namespace rlab::run {
namespace fs = std::filesystem;

namespace {

/// A run to carry out: its store and row, its matrix (clock settled), cells and boots in order.
struct Plan {
  std::unique_ptr<store::Store> st;
  store::RunId run = 0;
  matrix::Matrix m;
  std::vector<matrix::Cell> cells;
  std::vector<Job> order;
};

/// The selected cells of `m` (matrix::select_cell, the one selector), in the selection's order.
/// Throws UsageError.
std::vector<matrix::Cell> select_cells(const matrix::Matrix& m, const Selection& s) {
  std::vector<matrix::Cell> out;
  for (const auto& id : s.cell_ids) {
    auto cell = matrix::select_cell(m, id);
    if (std::any_of(out.begin(), out.end(), [&](const matrix::Cell& c) { return c.id == cell.id; }))
      throw UsageError(fmt::format("cell '{}' selected twice", cell.id));
    out.push_back(std::move(cell));
  }
  if (out.empty() || s.repeats < 1) throw UsageError("a selection needs cells and repeats >= 1");
  return out;
}

Plan plan_new(const RunOptions& o) {
  Plan p;
  p.m = matrix::load_matrix(o.matrix);
  settle_auto_clock(p.m);
  p.cells = matrix::expand_cells(p.m);
  if (o.selection) p.cells = select_cells(p.m, *o.selection);
  p.st = store::Store::open(o.db.empty() ? p.m.results : o.db);
  p.run = p.st->create_run({o.matrix.string(), p.m.text, p.m.seed, o.kind,
                            o.selection ? o.selection->note : ""});
  p.st->add_cells(p.run, matrix::cell_rows(p.cells), o.selection ? o.selection->repeats : p.m.repeats);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < p.cells.size(); ++i) index[p.cells[i].id] = i;
  std::vector<Job> jobs;
  for (const auto& b : p.st->boots(p.run)) {
    std::size_t ci = index.at(b.cell_id);
    jobs.push_back({b.id, ci, b.repeat, p.cells[ci].vcpus});
  }
  p.order = o.selection ? interleaved_order(std::move(jobs))
                        : shuffled_order(std::move(jobs), p.m.seed);
  for (std::size_t i = 0; i < p.order.size(); ++i)
    p.st->set_boot_order(p.order[i].boot, static_cast<int>(i));
  return p;
}

Plan plan_resume(const RunOptions& o) {
  Plan p;
  const fs::path db = matrix::store_path(o.db, o.matrix);
  if (!fs::exists(db)) throw UsageError(db.string() + ": no results store to resume from");
  p.st = store::Store::open(db);
  auto info = p.st->run(*o.resume);
  if (!info)
    throw UsageError(fmt::format("{}: no run {} to resume (see `rlab results --list`)",
                                            db.string(), *o.resume));
  p.run = info->id;
  // The run's own matrix text, not whatever the file says now.
  p.m = matrix::parse_matrix(info->matrix_text, info->matrix_path);
  settle_auto_clock(p.m);
  p.m.seed = info->seed;
  p.cells = matrix::expand_cells(p.m);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < p.cells.size(); ++i) index[p.cells[i].id] = i;
  for (const auto& b : p.st->unfinished_boots(p.run, o.retry_failed)) {
    auto it = index.find(b.cell_id);
    if (it == index.end())
      throw UsageError(fmt::format("run {}: stored cell '{}' is not in its matrix",
                                              p.run, b.cell_id));
    p.order.push_back({b.id, it->second, b.repeat, p.cells[it->second].vcpus});
  }
  return p;
}

/// Where `rlab run`'s boots go besides the store: the progress display, and options.on_round
/// each time every boot of repeats 0..r-1 has finished (not after the last repeat).
class RunSink : public BatchSink {
 public:
  RunSink(const Plan& p, const RunOptions& o, Progress& progress) : p_(p), o_(o), progress_(progress) {
    for (const auto& j : p.order) ++left_[j.repeat];
  }
  void building(const std::string& kernel, std::string_view phase, std::string_view detail) override {
    progress_.build(kernel, phase, detail);
  }
  void starting(std::size_t boots, double estimate_s) override { progress_.start(boots, estimate_s); }
  void phase(const Job& j, std::string_view phase) override { progress_.phase(key(j), phase); }
  void finished(const Job& j, const BootOutcome& out) override {
    progress_.finished(key(j), out.ok, out.wall_s,
                       out.ok ? fmt::format("{:.1f} lpm, {}", out.score,
                                            out.boot_to_hello_s > 0 ? fmt::format("hello after {:.1f} s", out.boot_to_hello_s)
                                                                    : std::string("no agent (bare guest)"))
                              : fmt::format("{}: {}", store::to_string(out.phase), out.message));
    round_finished(j.repeat);
  }
  void abandoned(const Job& j) override {
    progress_.finished(key(j), false, 0, "its hosts failed and it was not moved again");
  }

 private:
  std::string key(const Job& j) const { return fmt::format("{}#{}", p_.cells[j.cell].id, j.repeat); }
  /// Counts a finished boot of `repeat` and calls on_round for each repeat it completes.
  void round_finished(unsigned repeat) {
    if (auto it = left_.find(repeat); it != left_.end() && it->second > 0) --it->second;
    while (left_.count(rounds_done_) && left_.at(rounds_done_) == 0) {
      ++rounds_done_;
      if (o_.on_round && rounds_done_ < left_.size())
        o_.on_round(p_.st->path(), p_.run, rounds_done_, static_cast<unsigned>(left_.size()));
    }
  }
  const Plan& p_;
  const RunOptions& o_;
  Progress& progress_;
  std::map<unsigned, std::size_t> left_;  ///< repeat -> boots of it not finished yet
  unsigned rounds_done_ = 0;              ///< repeats 0..rounds_done_-1 have all finished
};

}  // namespace

RunSummary execute(const RunOptions& o, Progress& progress) {
  Plan p = o.resume ? plan_resume(o) : plan_new(o);
  const util::FileLock owner = own_run(p.st->path(), p.run);  // refuses a run another process runs
  spdlog::info("run {}: {} boots, seed {}, store {}", p.run, p.order.size(), p.m.seed,
               p.st->path().string());
  Batch batch{p.st.get(), p.run, &p.m, p.cells, p.order,
              o.selection ? HostUse::kOneAtATime : HostUse::kAll, false, o.resume.has_value(), o.agent_binary,
              fmt::format("`rlab run --resume {} --retry-failed {}` continues once a host answers", p.run,
                          o.matrix.string())};
  RunSink sink(p, o, progress);
  try {
    RunSummary sum = run_batch(batch, sink);
    progress.end();
    return sum;
  } catch (...) {
    progress.end();
    throw;
  }
}

}  // namespace rlab::run
