#pragma once
// A bisection session from start to result: create it (refs resolved, cell chosen), measure
// both ends adaptively and interleaved, then answer `git bisect` step by step (each commit
// booted in turn with both ends) until git names the first bad commit or the range skips hide; every answer and sample is stored first, so a crashed
// session resumes where it stopped (`rlab bisect --resume S`). docs/bisect.md.
#include "kernel_bisect/git.hpp"
#include "kernel_bisect/lab.hpp"
#include "kernel_bisect/session.hpp"
#include "util/usage_error.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <functional>
#include <string>
#include <string_view>

namespace rlab::kernel_bisect {

/// `rlab bisect` arguments for a new session.
struct StartOptions {
  std::filesystem::path tree;
  std::string good, bad;           ///< refs
  std::string cell;                ///< selector: cell id or a unique part of one
  /// Selector of a second cell of the same kernel: bisect the gap, `cell`'s score over this
  /// one's, each commit booted in both cells round by round; "" bisects `cell` alone.
  std::string against;
  std::filesystem::path matrix;    ///< matrix file
  bisection::Direction direction = bisection::Direction::regression;
  double alpha = 0.01;
  double min_effect = 0.02;
  /// Boots of each end before the ends' first verdict (>= 2); steps start with the boots the
  /// ends' noise and change call for (docs/bisect.md "Boots per step").
  std::size_t initial = 5;
  std::size_t cap = 20;            ///< most boots per commit (>= initial)
};

/// Validates `o` and stores a new session in `db`: the refs must be commits of the tree with
/// good an ancestor of bad (at least one commit apart), the selector must name one cell of the
/// matrix, and `against` (when given) another cell of the same kernel. Throws UsageError (or
/// GitError, matrix::MatrixError) naming the problem.
SessionId create_session(SessionDb& db, const StartOptions& o);

/// The bisection options of a stored session (verdict, plan, direction, step alpha; steps reuse
/// the ends' samples when its matrix counts guest time in instructions, `clock: icount`).
bisection::Options session_options(const SessionSpec& spec);

/// Answers one commit: the stored answer when there is one, else measures it interleaved with
/// fresh boots of both ends (bisection::test_commit, purpose = the commit) at the session's step
/// alpha, starting with as many boots as the ends' noise and change call for, and records the answer with the ends' medians alongside. Throws std::runtime_error
/// when the ends' check has not run yet; lets the lab's exceptions pass.
StepRow answer_commit(SessionDb& db, const Session& s, Lab& lab, const std::string& commit);

/// git bisect run's exit code for an answer: 0 good, 1 bad, 125 skip.
int exit_code_for(bisection::StepResult result);

/// Progress callback for lines meant for the user.
using Say = std::function<void(std::string_view line)>;

/// Runs (or resumes) session `id` to its end and returns its final state: "found", "hidden
/// by skips", or, when the ends do not show the change, "no regression", "inconclusive
/// endpoints", "wrong direction" or "endpoint failed". The tree is left without a bisection
/// in progress (`git bisect reset`). `resume`: a bisection already in progress in the tree is
/// this session's and is rebuilt from the stored answers; otherwise it is an error.
/// With a `deadline`, no new commit is measured after it: the session returns with status
/// "ends" or "bisecting", its answers stored, to be driven again later (the next night).
/// Throws GitError, store::StoreError, and whatever the lab throws (the session then stays
/// resumable).
Session drive(SessionDb& db, SessionId id, Lab& lab, bool resume, const Say& say = {},
              std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace rlab::kernel_bisect
