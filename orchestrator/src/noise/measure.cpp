#include "noise/measure.hpp"

#include "matrix/matrix.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace rlab::noise {

std::pair<std::string, std::string> resolve_cells(const MeasureOptions& o) {
  matrix::LoadOptions lo;
  lo.check_paths = false;  // selecting needs the cells only; the run checks the paths
  const auto m = matrix::load_matrix(o.matrix, lo);
  const std::string cell = matrix::select_cell(m, o.cell).id;
  // --control, else the matrix's `control:`, else the cell itself.
  const std::string control = !o.control.empty() ? matrix::select_cell(m, o.control).id
                              : m.control        ? *m.control
                                                 : cell;
  return {cell, control};
}

Measured measure(const MeasureOptions& o, run::Progress& progress) {
  if (o.boots < 2) throw UsageError(fmt::format("--boots {}: needs at least 2 boots", o.boots));
  const auto [cell, control] = resolve_cells(o);
  run::RunOptions ro;
  ro.matrix = o.matrix;
  ro.db = o.db;
  ro.agent_binary = o.agent;
  ro.kind = "noise";
  run::Selection sel;
  sel.cell_ids = {cell};
  if (control != cell) sel.cell_ids.push_back(control);
  sel.repeats = o.boots;
  sel.note = control == cell ? fmt::format("noise of {}", cell)
                             : fmt::format("noise of {} with control {}", cell, control);
  ro.selection = sel;
  Measured out;
  out.summary = run::execute(ro, progress);
  auto st = store::Store::open(out.summary.db);
  out.noise = noise_from_run(*st, out.summary.run, cell, control, o.alpha, o.power);
  if (!out.summary.interrupted) {
    auto row = to_row(out.noise);
    const auto id = st->add_noise_report(row);
    for (const auto& r : st->noise_reports("", 1000))
      if (r.id == id) out.noise.created_at = r.created_at;
    out.stored = true;
  }
  return out;
}

}  // namespace rlab::noise
