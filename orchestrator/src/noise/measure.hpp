#pragma once
// `rlab noise` measurement: the cell (and a control cell) booted through run::execute with an
// interleaved Selection, then the report built from the store and stored with it.
#include "noise/render.hpp"
#include "run/progress.hpp"
#include "run/run.hpp"

#include <filesystem>
#include <string>

namespace rlab::noise {

/// What `rlab noise` measures.
struct MeasureOptions {
  std::filesystem::path matrix;   ///< matrix file holding the cells
  std::string cell;               ///< cell selector: a cell id or a unique part of one (as `rlab bisect --cell`)
  std::string control;            ///< control cell selector; "" = the matrix's `control:`, else the cell itself
  unsigned boots = 8;             ///< boots of each cell, >= 2
  std::filesystem::path db;       ///< store override; "" -> the matrix's `results:`
  std::filesystem::path agent;    ///< static aarch64 agent; "" -> the default
  double alpha = 0.01;            ///< of the minimum detectable effect
  double power = 0.9;
};

/// What a measurement gave.
struct Measured {
  CellNoise noise;              ///< stored (as a noise report) unless the run was interrupted
  run::RunSummary summary;
  bool stored = false;
};

/// The ids `cell` and `control` name in the matrix (control "": the matrix's `control:`, else
/// the cell). Throws matrix::MatrixError for a bad matrix and UsageError for a
/// selector that matches no cell or several (listing them), or a control equal to the cell
/// given twice.
std::pair<std::string, std::string> resolve_cells(const MeasureOptions& o);

/// Boots the cell `boots` times (interleaved A B, B A, ... with a distinct control), builds the
/// report and stores it (noise_reports). Throws like resolve_cells() and run::execute()
/// (UsageError also for boots < 2).
Measured measure(const MeasureOptions& o, run::Progress& progress);

}  // namespace rlab::noise
