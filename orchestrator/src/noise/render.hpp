#pragma once
// `rlab noise`: a cell booted N times, interleaved with a control cell, and the report of its
// noise (docs/noise.md): built from a run in the store, stored in `noise_reports`, rendered as
// text or JSON.
#include "noise/figures.hpp"
#include "store/store.hpp"
#include "util/usage_error.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rlab::noise {

/// One boot in the report's timeline.
struct TimelineBoot {
  std::string cell_id;
  unsigned repeat = 0;
  double t_s = 0;                  ///< seconds after the run's first boot started
  std::optional<double> score;     ///< lpm; nullopt for a failed boot
  std::optional<double> busy;      ///< host busy fraction over the boot
  std::optional<double> load1;     ///< host load average before the boot
  /// One stored pass of the boot (warm-up ones included, by index).
  struct Pass {
    double lpm = 0;
    std::optional<double> vcpu_share;  ///< mean share of its vCPUs' time the host ran the guest
    std::optional<double> host_steal;  ///< mean stolen share of the host's CPU time, [0, 1]
  };
  std::vector<Pass> passes;
};

/// The noise of one cell, measured in one run.
struct CellNoise {
  std::string cell_id;
  std::string control_id;            ///< == cell_id when the cell is its own control
  std::optional<store::RunId> run;
  std::string created_at;            ///< ISO 8601 UTC; set when stored
  double alpha = 0.01;               ///< of the minimum detectable effect
  double power = 0.9;
  unsigned failed = 0;               ///< the cell's boots without a score
  unsigned warmup_passes = 0;        ///< the cell's warm-up passes per boot
  CellFigures cell;
  std::optional<CellFigures> control;  ///< figures of a distinct control cell
  /// Relative stddev of the cell's score divided by the control's score of the same repeat
  /// (booted next to it): the noise left once the host's slow drift is divided out.
  std::optional<double> control_corrected_rel_stddev;
  std::vector<TimelineBoot> timeline;  ///< every boot of the run, in run order
};

/// The report of `cell_id` (and `control_id`, which may equal it) from run `run` of `st`,
/// at `alpha` and `power`. Throws UsageError when the run has no boot of `cell_id`.
CellNoise noise_from_run(const store::Store& st, store::RunId run, const std::string& cell_id,
                            const std::string& control_id, double alpha = 0.01, double power = 0.9);

/// The store's row of a report (figures as columns, the whole report as JSON).
store::NoiseReportRow to_row(const CellNoise& r);

/// JSON form (docs/noise.md); missing figures are null. from_json() reverses it and throws
/// nlohmann::json::exception on a malformed document.
nlohmann::json to_json(const CellNoise& r);
CellNoise from_json(const nlohmann::json& j);

/// The human form: figures with units and what they mean, the MDE table, the timeline.
std::string render_text(const CellNoise& r);

/// One line per stored report (`rlab noise --show`): time, cell, boots, the main figures.
std::string render_history(const std::vector<store::NoiseReportRow>& rows);

}  // namespace rlab::noise
