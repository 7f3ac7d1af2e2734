#pragma once
// The tables of `rlab bisect` sessions (bisect_sessions, bisect_steps, bisect_batch_commits):
// what a session was started with and how it stands, the store runs (kind "bisect") that
// booted each commit for it, and the steps git asked about. docs/bisect.md.
#include "bisection/step_result.hpp"
#include "store/store.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlab::store {

using BisectSessionId = std::int64_t;

/// One session as stored.
struct BisectSessionRow {
  BisectSessionId id = 0;       ///< set by the store
  std::string created_at;       ///< ISO 8601 UTC; set by the store
  std::string tree;             ///< the kernel git repository (absolute)
  std::string good_ref, bad_ref;
  std::string good_commit, bad_commit;  ///< full SHAs
  std::string cell_id;
  std::string matrix_path;
  std::string matrix_text;
  std::string direction;        ///< "regression" or "improvement"
  double alpha = 0.01;
  double min_effect = 0.02;
  std::int64_t initial_boots = 0;
  std::int64_t cap_boots = 0;
  std::int64_t commit_count = 0;
  std::string status;           ///< "ends" when created; "bisecting", "found", ...
  std::string message;          ///< the last summary line
  std::string first_bad;        ///< SHA when found
  std::vector<std::string> candidates;  ///< the commits git names when skips hide the culprit
  std::string checks_json;      ///< the culprit's checks (kernel_bisect::CulpritChecks JSON); "" before they ran
  /// A gap bisection's second cell (each commit booted in both, the statistic cell_id's score
  /// over this cell's, round by round); "" for a bisection of one cell.
  std::string against_cell_id;
};

/// One answered step.
struct BisectStepRow {
  int seq = 0;                  ///< 1-based, in answer order; set by the store
  std::string commit;           ///< full SHA
  bisection::StepResult result = bisection::StepResult::skip;  ///< stored by its name
  std::size_t samples = 0;
  double median = 0;            ///< lpm; 0 without samples
  double change_vs_good = 0;    ///< fraction
  double p_vs_good = 1, p_vs_bad = 1;
  std::string reason;
  double good_median = 0;       ///< lpm of the good end's boots alongside this step; 0 without
  double bad_median = 0;        ///< lpm of the bad end's boots alongside this step; 0 without
  std::size_t reference_samples = 0;  ///< boots of the two ends alongside this step
  /// False when the step's own boots of the ends no longer differed in the expected direction
  /// (bisection::Step::references_differ): the change did not reproduce.
  bool ends_differ = true;
};

/// Stores a new session (status "ends"; id and created_at are the store's) and returns its id.
BisectSessionId create_bisect_session(Store& st, const BisectSessionRow& row);

/// The session, or nullopt.
std::optional<BisectSessionRow> bisect_session(const Store& st, BisectSessionId id);

/// The sessions of matrix file `matrix_path` that have not finished (status "ends" or
/// "bisecting": never driven, cut short by a time budget, or killed), oldest first.
std::vector<BisectSessionId> unfinished_bisect_sessions(const Store& st, const std::string& matrix_path);

/// Sets a session's status, message, first bad commit and candidates. Throws StoreError
/// naming the session when there is none.
void set_bisect_status(Store& st, BisectSessionId id, const std::string& status,
                       const std::string& message, const std::string& first_bad,
                       const std::vector<std::string>& candidates);

/// Stores the checks of a session's culprit (JSON). Throws StoreError naming the session when
/// there is none.
void set_bisect_checks(Store& st, BisectSessionId id, const std::string& checks_json);

/// Records that run `run` booted `commit` for the session under `purpose`. Throws StoreError
/// when that run already did.
void add_bisect_batch(Store& st, BisectSessionId id, const std::string& commit, RunId run,
                      const std::string& purpose);

/// The runs that booted `commit` for the session (under `purpose`; every purpose when
/// empty), oldest first.
std::vector<RunId> bisect_batches(const Store& st, BisectSessionId id, const std::string& commit,
                                  const std::string& purpose);

/// Records (or replaces, for the same commit, keeping its seq) an answered step; returns its seq.
int record_bisect_step(Store& st, BisectSessionId id, const BisectStepRow& row);

/// The step recorded for `commit`, if any.
std::optional<BisectStepRow> bisect_step(const Store& st, BisectSessionId id, const std::string& commit);

/// All steps of the session in answer order.
std::vector<BisectStepRow> bisect_steps(const Store& st, BisectSessionId id);

}  // namespace rlab::store
