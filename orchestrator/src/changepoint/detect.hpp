#pragma once
// `rlab detect`: E-Divisive change points in the history of each selected cell, with the
// kernels on either side of each change (what a bisection would start from).
#include "changepoint/e_divisive.hpp"
#include "changepoint/history.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace rlab::changepoint {

/// Options of detect().
struct DetectOptions {
  EDivisiveOptions method;        ///< alpha, permutations, minimum segment, seed
  /// Smallest |relative change| of the segments' means a change point must have to be reported
  /// (a fraction; 0.02 = 2%): a significant but smaller shift is dropped and counted in
  /// CellDetection::below_min_effect.
  double min_effect = 0.02;
  std::string kind = "nightly";   ///< run kind to read ("" = every kind)
  std::string selector;           ///< GLOB on cell ids; "" = all cells
};

/// One change point with its context in the history.
struct Detection {
  ChangePoint change;
  HistoryPoint last_before;  ///< the newest run before the change
  HistoryPoint first_after;  ///< the oldest run after it
  /// Lower loops per minute after the change (higher is better for shell1).
  bool regression() const { return change.relative_change < 0; }
  /// The first environment field outside the kernel (kernel_release, config_sha256) that
  /// differs between last_before and first_after, e.g. "accel: tcg -> kvm"; "" when none.
  /// A change point with an environment change may not be the kernel's doing.
  std::string environment_change;
  /// Both kernels carry git commits (hex SHAs of 7-40 digits): a bisection could start.
  bool bisectable() const;
};

/// The first environment field outside the kernel (kernel_release, config_sha256) that differs
/// between `a` and `b`, as "<field>: <a's> -> <b's>" (e.g. "accel: tcg -> kvm"); "" when none.
std::string environment_change(const HistoryPoint& a, const HistoryPoint& b);

/// One cell's result.
struct CellDetection {
  CellHistory history;
  std::vector<Detection> detections;
  double rejected_p = 1;  ///< p of the first candidate that was not significant
  std::size_t below_min_effect = 0;  ///< significant change points smaller than DetectOptions::min_effect
  std::string note;       ///< why nothing was tested (e.g. "too short"), else ""
};

/// Runs E-Divisive on every selected cell's history; keeps the change points of at least
/// opt.min_effect. Throws store::StoreError; UsageError for alpha below 1/(permutations + 1)
/// or a min_effect outside [0, 1).
std::vector<CellDetection> detect(const store::Store& st, const DetectOptions& opt);

/// Text listing; with `bisect_plan` each regression also gets the `rlab bisect` command that
/// bisects it: said to be started below when `started` (`rlab detect --bisect --tree`), else
/// printed with what is missing to start it (the tree).
void render_text(const std::vector<CellDetection>& cells, const DetectOptions& opt,
                 bool bisect_plan, bool started, std::ostream& out);

/// {"options": {...}, "cells": [{cell_id, points, note, rejected_p, change_points:
/// [{index, run_before, run_after, created_at, kernel_before, kernel_after, commit_before,
/// commit_after, mean_before, mean_after, change, p, q, order, regression, environment_change,
/// bisect}]}]}.
nlohmann::json to_json(const std::vector<CellDetection>& cells, const DetectOptions& opt,
                       bool bisect_plan);

/// The argv of the bisection a detection would start (tree left as "<linux git tree>").
std::vector<std::string> bisect_argv(const std::string& cell_id, const Detection& d);

}  // namespace rlab::changepoint
