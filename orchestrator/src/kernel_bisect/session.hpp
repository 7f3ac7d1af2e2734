#pragma once
// A bisection session's state in the results store (store/bisect_sessions.hpp): what it was
// started with and how it stands, its answered steps, and the ordinary store runs (kind
// "bisect") whose boots hold each commit's samples, with the batch's purpose ("ends", or the
// commit under test of a step). `rlab bisect` and the `rlab bisect-step` processes that
// `git bisect run` starts share the store file (WAL, busy timeout). docs/bisect.md.
#include "bisection/bisect.hpp"
#include "store/bisect_sessions.hpp"
#include "util/usage_error.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>
#include <string>
#include <vector>

namespace rlab::kernel_bisect {

using SessionId = store::BisectSessionId;

/// What a session was started with.
struct SessionSpec {
  std::filesystem::path tree;    ///< the kernel git repository (absolute)
  std::string good_ref, bad_ref; ///< as given on the command line
  std::string good_commit, bad_commit;  ///< full SHAs
  std::string cell_id;           ///< the matrix cell measured at every commit
  /// A gap bisection: the second cell booted beside cell_id at every commit (same kernel), and
  /// the statistic is cell_id's score over this one's, round by round (docs/bisect.md "Gap
  /// bisection"); "" for a bisection of cell_id's score alone.
  std::string against_cell_id;
  std::string matrix_path;
  std::string matrix_text;       ///< exact text; resume and steps re-parse it
  bisection::Direction direction = bisection::Direction::regression;
  double alpha = 0.01;           ///< verdict significance of the ends
  double min_effect = 0.02;      ///< minimum relative effect
  std::size_t initial = 3;       ///< boots per commit before the first verdict
  std::size_t cap = 12;          ///< most boots per commit
  std::size_t commit_count = 0;  ///< commits in good..bad plus the good end
  /// True for a gap bisection (against_cell_id set).
  bool gap() const { return !against_cell_id.empty(); }
};

/// Where a session stands: measuring its ends, bisecting, or finished (the bisection::Status
/// outcomes). Stored as its name (state_name); unfinished: ends or bisecting.
enum class SessionState {
  ends,                    ///< created, or cut short before its ends were judged
  bisecting,               ///< the ends differ; steps are answered
  found,                   ///< first_bad names the first bad commit
  hidden_by_skips,         ///< candidates hold it
  no_regression,
  inconclusive_endpoints,
  wrong_direction,
  endpoint_failed,
};

/// "ends", "bisecting", or bisection::status_name of the outcome ("found", "hidden by skips", ...).
std::string_view state_name(SessionState s);
/// The state named `name` (state_name's text); throws store::StoreError naming it otherwise.
SessionState parse_state(std::string_view name);
/// The finished state of a bisection outcome.
SessionState finished_state(bisection::Status s);
/// ends or bisecting: the session is to be driven again (`--resume`, the next night).
inline bool unfinished(SessionState s) { return s == SessionState::ends || s == SessionState::bisecting; }
/// For test output.
inline std::ostream& operator<<(std::ostream& o, SessionState s) { return o << state_name(s); }

/// A stored session.
struct Session {
  SessionId id = 0;
  SessionSpec spec;
  SessionState status = SessionState::ends;
  std::string message;  ///< the last summary line
  std::string first_bad;          ///< SHA when status found
  std::vector<std::string> candidates;  ///< status hidden_by_skips: the commits git names
  std::string created_at;
  std::string checks_json;  ///< the culprit's checks (culprit.hpp) once they ran, else ""
};

/// One answered step (a commit git asked about).
using StepRow = store::BisectStepRow;

/// The bisect sessions of one store file.
class SessionDb {
 public:
  /// Opens the store at `db` (store::Store::open: created or migrated, session tables
  /// included). Throws store::StoreError.
  explicit SessionDb(const std::filesystem::path& db);

  /// The store on the same file (for runs and boots).
  store::Store& store() { return *store_; }
  const store::Store& store() const { return *store_; }
  const std::filesystem::path& path() const { return path_; }

  /// Stores a new session (status ends) and returns its id.
  SessionId create(const SessionSpec& spec);
  /// The session, or nullopt.
  std::optional<Session> get(SessionId id) const;
  /// The unfinished sessions (status ends or bisecting) of matrix file `matrix_path`,
  /// oldest first: what a night resumes.
  std::vector<SessionId> unfinished(const std::string& matrix_path) const {
    return store::unfinished_bisect_sessions(*store_, matrix_path);
  }
  /// Sets status and message (and the result fields, which may be empty).
  void set_status(SessionId id, SessionState status, const std::string& message,
                  const std::string& first_bad = "",
                  const std::vector<std::string>& candidates = {});
  /// Stores the checks of the session's culprit (CulpritChecks as JSON).
  void set_checks(SessionId id, const std::string& checks_json);

  /// Records that store run `run` booted `commit` for the session under `purpose`
  /// (kEndsPurpose or the SHA of the step's commit under test).
  void add_batch(SessionId id, const std::string& commit, store::RunId run, const std::string& purpose);
  /// The runs that booted `commit` (under `purpose`; every purpose when empty), oldest first.
  std::vector<store::RunId> batches(SessionId id, const std::string& commit,
                                    const std::string& purpose = "") const;
  /// Scores (lpm) of every finished boot of `commit` in those runs, in boot order (a run's
  /// boots of other commits left out); with `cell_id`, only the boots of that matrix cell (its
  /// id after the kernel name: a batch's cells are the matrix's cells at the commit).
  std::vector<double> samples(SessionId id, const std::string& commit, const std::string& purpose = "",
                              const std::string& cell_id = "") const;
  /// The session's statistic for `commit` (under `purpose`; every purpose when empty): one
  /// sample per boot of the cell (lpm), or for a gap session one per round whose two boots
  /// both finished, cell_id's score over against_cell_id's (a ratio, dimensionless), by run
  /// and repeat.
  std::vector<double> statistic(const Session& s, const std::string& commit, const std::string& purpose = "") const;
  /// The "phase: message" of the newest failed boot of those runs, "" if none failed.
  std::string last_failure(SessionId id, const std::string& commit) const;

  /// Records (or replaces, for the same commit) an answered step; returns its seq.
  int record_step(SessionId id, const StepRow& row);
  /// The step recorded for `commit`, if any.
  std::optional<StepRow> step(SessionId id, const std::string& commit) const;
  /// All steps in answer order.
  std::vector<StepRow> steps(SessionId id) const;

 private:
  std::filesystem::path path_;
  std::unique_ptr<store::Store> store_;
};

/// "regression" or "improvement"; parse_direction() throws UsageError otherwise.
std::string direction_name(bisection::Direction d);
bisection::Direction parse_direction(const std::string& s);

}  // namespace rlab::kernel_bisect
