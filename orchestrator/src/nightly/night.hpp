#pragma once
// `rlab nightly`: one night from start to reports. Fetches the matrix's remotes (fetch.hpp),
// runs the matrix as a store run of kind "nightly" (run::execute), analyses it (analysis.hpp),
// re-measures the cells it could not decide within the matrix's budget (remeasure.hpp), writes
// the four reports, pushes the run to a Pushgateway when asked, then starts the bisections the
// night calls for when a kernel git tree is given, and rewrites the reports with their
// outcome. docs/nightly.md.
#include "nightly/analysis.hpp"
#include "run/progress.hpp"
#include "run/run.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace rlab::nightly {

/// What to do.
struct NightOptions {
  std::filesystem::path matrix;     ///< matrix file (absolute path recommended: it names the series)
  std::filesystem::path db;         ///< store; "" -> the matrix's `results:`
  std::filesystem::path out;        ///< report root; "" -> <store dir>/reports
  std::string push;                 ///< Pushgateway URL; "" -> the matrix's `push:`, if any
  std::filesystem::path tree;       ///< kernel git tree for bisections; "" -> the matrix's nightly.tree, else none started
  std::filesystem::path agent;      ///< static aarch64 agent; "" -> the default
  /// Report on this stored run instead of running the matrix (e.g. after `rlab run --resume`).
  std::optional<store::RunId> report_only;
  AnalyseOptions analyse;           ///< baseline, compare (and its drift control) and change-point options
};

/// How the night went.
struct NightOutcome {
  NightAnalysis analysis;        ///< what the night found (the reports are written from it)
  std::optional<run::RunSummary> run;   ///< nullopt with report_only
  std::filesystem::path report_dir;     ///< <out>/<date>-run<id>; "" when interrupted
  bool interrupted = false;             ///< SIGINT/SIGTERM during the run: no reports written
  std::size_t push_errors = 0;          ///< failed Pushgateway groups (the store keeps everything)
  std::size_t bisect_errors = 0;        ///< bisections that could not be started or finished
  std::size_t fetch_errors = 0;         ///< remotes that could not be fetched (nightly.fetch)
};

/// Progress lines for the user ("reports in ...", "bisect session 3: found ...").
using Say = std::function<void(std::string_view line)>;

/// Runs one night. Throws what run::execute throws (matrix::MatrixError for a bad matrix,
/// UsageError for bad input such as an unknown --run or --baseline or a --control
/// that names no single cell of the matrix,
/// metrics::PushUrlError for a bad push URL, all before anything boots; vm::LibvirtError and
/// store::StoreError for lab failures).
NightOutcome run_night(const NightOptions& o, run::Progress& progress, const Say& say = {});

}  // namespace rlab::nightly
