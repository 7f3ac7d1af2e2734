#pragma once
// One night's findings, read from the store after the run: each cell's outcome, the
// comparison with the previous night of the same matrix and with the baseline (compare/),
// the change points of each cell's nightly history (changepoint/) and which of them are new
// tonight, the same for the score ratio of each gap the matrix names (`gaps:`), and the
// bisections they call for. Pure reading: nothing is written to the store.
#include "changepoint/detect.hpp"
#include "compare/compare.hpp"
#include "matrix/matrix.hpp"
#include "stats/verdict.hpp"
#include "store/store.hpp"
#include "util/usage_error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::nightly {

/// The store's run kind of nightly runs (the history `rlab detect` reads by default).
inline constexpr const char* kNightlyKind = "nightly";

/// How to analyse a night.
struct AnalyseOptions {
  /// Baseline run; nullopt -> the oldest nightly run of the same matrix file with a result
  /// (the first night of the series), if that is not tonight's run.
  std::optional<store::RunId> baseline;
  /// Verdict thresholds (alpha 0.01, 2% effect) and `control`: a cell id (or a unique part of
  /// one) of the control cell both comparisons are drift-corrected against; "" = none.
  compare::CompareOptions compare;
  changepoint::DetectOptions detect;        ///< E-Divisive options; kind is forced to nightly
  /// The gaps to follow (the matrix's `gaps:`, matrix::Gap): each pair's score ratio gets its
  /// history, change points, comparisons and bisections like a cell's. Empty: none.
  std::vector<matrix::Gap> gaps;
};

/// A change point of a cell's history.
struct ChangeMark {
  changepoint::Detection detection;
  /// Found in the history up to tonight, but not in the same history without tonight's run:
  /// tonight is the first night that shows it.
  bool is_new = false;
};

/// A bisection a night calls for (a new regression between two git commits of a kernel).
/// One bisection per commit range: of the cells that regressed between the same two commits,
/// the one with the clearest effect (|change| / its noise) is bisected, the others are listed.
/// A gap's plan (against_cell_id set) bisects the ratio of its two cells (kernel_bisect::
/// StartOptions::against) and is never merged with a cell's plan of the same range.
struct BisectPlan {
  std::string cell_id;
  /// A gap bisection: the second cell, booted beside cell_id at every commit, cell_id's score
  /// over this one's judged; "" for a bisection of cell_id's score alone.
  std::string against_cell_id;
  std::string good_commit;      ///< the commit before (full or abbreviated hex SHA)
  std::string bad_commit;       ///< the commit after
  std::string why;              ///< "change point between run 3 and run 4" / "previous night"
  double clarity = 0;           ///< |relative change| / relative noise of the cell or ratio (0: noise unknown)
  /// The other cells (for a gap plan: the other gaps, as subject() names them) that regressed
  /// over the same range.
  std::vector<std::string> also;
  std::int64_t session = 0;     ///< bisect session id once started (0: not started)
  std::string outcome;          ///< the session's final status ("found", ...) or the error

  /// For the reports: "session 3 found: first bad commit ...", the error, or "not started
  /// (no --tree or nightly.tree)".
  std::string state() const;
  /// What is bisected: the cell id, or for a gap "<cell id> ÷ <against cell id>".
  std::string subject() const;
};

/// One cell of tonight's run.
struct CellOutcome {
  std::string cell_id;
  std::string kernel;           ///< the matrix's kernel name
  std::string patchset;
  std::string fs;               ///< "xfs" / "ext4"
  std::string mkfs_label;       ///< "defaults", "agcount=4"
  unsigned vcpus = 0;
  std::string workload;
  unsigned copies = 0;
  std::size_t boots = 0;        ///< boots of the cell (repeats)
  std::size_t done = 0;         ///< boots with a result
  std::size_t failed = 0;       ///< failed boots
  std::vector<double> scores;   ///< lpm of the done boots
  std::optional<double> median; ///< median lpm of `scores`: the cell's score_lpm in every report
  std::optional<double> rel_stddev;  ///< relative stddev of `scores` (a fraction); nullopt below 2
  std::optional<double> index;  ///< UnixBench's index of `median` in this guest (protocol::unixbench_index)
  std::string failure;          ///< first failed boot's "phase: message"
  std::string kernel_release;   ///< uname -r reported by the guest ("" unknown)
  std::string source_commit;    ///< git SHA or Debian version ("" unknown)
  std::string config_sha256;
  std::string started_at;       ///< the run's start (ISO 8601 UTC)
  std::optional<compare::CellComparison> vs_previous;  ///< row of the previous-night compare
  std::optional<compare::CellComparison> vs_baseline;  ///< row of the baseline compare
  /// Nightly history (oldest first) up to and including tonight: the nights after an older
  /// night's run are left out, so its report reads as it did that night.
  changepoint::CellHistory history;
  std::string history_note;          ///< why no change point was tested ("" when tested)
  std::vector<ChangeMark> change_points;

  /// A significant regression: vs the previous night, vs the baseline, or a new regression
  /// change point.
  bool regression() const;
  /// Some boot of the cell failed (no result, or fewer results than boots).
  bool failed_cell() const { return failed > 0; }
  /// KCIDB status: "FAIL" (regression), "ERROR" (a boot failed), else "PASS".
  std::string status() const;
  /// Why FAIL or ERROR, one line ("" for PASS).
  std::string reason() const;
};

/// One run of a gap: the ratio of its two cells' scores.
struct GapNight {
  /// The run, its start, the first cell's kernel (release, commit) and environment; `score` is
  /// the night's ratio (dimensionless: cell ÷ against) and `boots` the rounds it pairs (with
  /// method "medians": the fewer scored boots of the two cells).
  changepoint::HistoryPoint point;
  /// Per round (repeat) in which both cells have a score: the first's over the second's. The
  /// two boots of a round ran side by side, so the host's drift cancels in their ratio.
  std::vector<double> ratios;
  /// "paired": `point.score` is the median of `ratios`; "medians": no round has both cells
  /// scored (e.g. failed boots in different rounds), and it is the ratio of the cells' median
  /// scores.
  std::string method;
  std::size_t boots = 0, against_boots = 0;  ///< scored boots of each cell in the run
};

/// A gap's ratio tonight against another run's (the previous night, the baseline): the verdict
/// rule (stats::compare) with the other run's per-round ratios as A and tonight's as B.
struct GapComparison {
  store::RunId base_run = 0;
  std::optional<stats::Comparison> result;  ///< nullopt: a side has no per-round ratio (note says why)
  std::string note;                         ///< why there is no result ("" with one)
  /// Different, with tonight's ratio lower: the first cell lost ground against the second.
  bool regression() const;
};

/// One gap of the matrix (`gaps:`), tonight and over its nightly history.
struct GapOutcome {
  std::string cell_id;          ///< the numerator
  std::string against_cell_id;  ///< the denominator (same kernel)
  std::string kernel;           ///< the matrix's kernel name
  std::optional<GapNight> tonight;  ///< nullopt: a cell has no score tonight (note says why)
  std::string note;             ///< why there is no ratio tonight ("" with one)
  /// The ratio's nightly history (oldest first), up to and including tonight like a cell's:
  /// nights in which both cells have a score. `history` holds the same points for
  /// E-Divisive (cell_id: name()).
  std::vector<GapNight> nights;
  changepoint::CellHistory history;
  std::string history_note;     ///< why no change point was tested ("" when tested)
  std::vector<ChangeMark> change_points;  ///< of the ratio; a regression is a fall
  std::optional<GapComparison> vs_previous;  ///< against the previous night
  std::optional<GapComparison> vs_baseline;  ///< against the baseline run

  /// "<cell id> ÷ <against cell id>".
  std::string name() const;
  /// A significant fall of the ratio: vs the previous night, vs the baseline, or a new
  /// regression change point.
  bool regression() const;
  /// "FAIL" (regression), "ERROR" (no ratio tonight), else "PASS".
  std::string status() const;
  /// Why FAIL or ERROR, one line ("" for PASS).
  std::string reason() const;
};

/// What a night found (analyse()): the reports of the night are written from it.
struct NightAnalysis {
  std::filesystem::path db;
  store::RunInfo run;
  std::optional<store::RunInfo> previous;  ///< previous night of the same matrix, if any
  std::optional<store::RunInfo> baseline;  ///< baseline run, if any
  std::string baseline_source;             ///< "--baseline" or "first night of the matrix"
  std::optional<compare::ComparisonTable> vs_previous;
  std::optional<compare::ComparisonTable> vs_baseline;
  changepoint::DetectOptions detect;
  std::vector<CellOutcome> cells;          ///< the matrix's cell order
  std::vector<GapOutcome> gaps;            ///< AnalyseOptions::gaps' order
  std::vector<BisectPlan> bisects;         ///< what the night calls for (and what was started)
  /// What the night did around the run, one line each, problems first named "failed":
  /// the fetches (fetch.hpp), a bisection tree that is no git repository.
  std::vector<std::string> lab_notes;
  /// The control cell's id when the night was asked for drift correction ("" = not asked).
  std::string control;
  /// Why a comparison is not drift-corrected although a control was named ("" when it is, or
  /// when none was named): the other run has no scored boot of the control. The comparison is
  /// then made uncorrected rather than not at all.
  std::string vs_previous_uncorrected, vs_baseline_uncorrected;

  /// One line per comparison for the reports: "drift-corrected against control C (control
  /// mean 216.10 -> 204.70 lpm, -5.3%: the host's drift)", "not drift-corrected: <why>", or
  /// "not drift-corrected (no control cell: --control or the matrix's control:)". `which` is "previous" or "baseline".
  std::string drift_text(std::string_view which) const;

  /// The bisection that stands for gap `g` tonight: the gap plan of its pair, else the gap plan
  /// that lists it in `also` (same range); nullptr when none. Points into `bisects`.
  const BisectPlan* gap_bisect(const GapOutcome& g) const;

  std::size_t regressions() const;    ///< cells and gaps with regression()
  std::size_t failed_cells() const;   ///< cells with failed_cell()
  /// "YYYY-MM-DD-run<id>": the report directory's name (the run's start date, UTC).
  std::string dir_name() const;
};

/// The previous nightly run of the same matrix file before `run` that has a result, if any.
std::optional<store::RunInfo> previous_night(const store::Store& st, const store::RunInfo& run);

/// The default baseline: the oldest nightly run of the same matrix file with a result other
/// than `run`, if any.
std::optional<store::RunInfo> first_night(const store::Store& st, const store::RunInfo& run);

/// The control cell's id for `selector` among `cell_ids` (an id, or a part of exactly one;
/// compare::resolve_control). Throws UsageError naming the selector otherwise.
std::string resolve_night_control(const std::vector<std::string>& cell_ids, const std::string& selector);

/// The nightly history of the ratio of `cell_id`'s scores over `against_cell_id`'s: one
/// GapNight per run of kind `kind` ("" every kind) in which both cells have a scored boot,
/// oldest first (by run start, then id). Throws store::StoreError.
std::vector<GapNight> gap_history(const store::Store& st, const std::string& cell_id,
                                  const std::string& against_cell_id, const std::string& kind);

/// Reads run `run` of the store at `db` and everything around it. With opt.compare.control,
/// both comparisons are drift-corrected against that control cell (a side without a scored
/// control boot is compared uncorrected, and the report says why); with opt.gaps, each gap's
/// ratio is followed as well (GapOutcome). Throws
/// UsageError for a missing run or baseline or a control that names no single cell
/// of the run, store::StoreError on a store error.
NightAnalysis analyse(const std::filesystem::path& db, store::RunId run, const AnalyseOptions& opt);

}  // namespace rlab::nightly
