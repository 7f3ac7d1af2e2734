#pragma once
// Is the first bad commit believable? Three checks of every culprit a bisection names, as
// syzkaller's bisection flags suspicious culprits and Pinpoint users confirm them:
//  - no-op: the culprit's kernel code is its parent's (vmlinux's .text hashes equal,
//    build::KernelArtifact::text_sha256): the measurement moved, not the code;
//  - unrelated: the culprit changes no file this kernel compiled or included (the build's
//    source list, build::KernelArtifact::sources), nor a Kconfig or Makefile;
//  - revert: the bad end with the culprit reverted (GitTree::revert_onto), measured as a
//    bisection step against both ends (driver.cpp): the regression must go away ("good").
// Any one makes the culprit suspicious; the report says which and why. docs/bisect.md
// "Checking the culprit".
#include "kernel_bisect/git.hpp"
#include "kernel_bisect/lab.hpp"

#include "bisection/step_result.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rlab::kernel_bisect {

/// The revert check: the bad end with the culprit reverted, tested like a bisection step.
struct RevertCheck {
  std::string commit;  ///< the revert's SHA ("" when the revert does not apply)
  /// good (the regression goes away: confirmed), bad (it stays: suspicious), skip (undecided
  /// at the cap, or the revert's kernel failed); nullopt when the revert does not apply.
  /// Stored in the checks' JSON by its name, or "does not apply".
  std::optional<bisection::StepResult> result;
  std::string reason;         ///< the step's evidence, or git's complaint
  double change_vs_good = 0;  ///< the revert's median against the good end's, relative
};

/// The checks of one culprit.
struct CulpritChecks {
  std::string culprit, parent;           ///< full SHAs
  /// The kernel text equals the parent's; nullopt: unknown (a kernel did not build, or its
  /// cache entry predates text hashes; `note` says which).
  std::optional<bool> no_op;
  /// No changed file was compiled or included into the culprit's kernel; nullopt: unknown.
  std::optional<bool> unrelated;
  std::vector<std::string> changed;      ///< the files the culprit changes against its parent
  std::vector<std::string> compiled;     ///< of those, the ones the kernel compiled, included or builds by
  std::string note;                      ///< why no-op or unrelated is unknown ("" when both ran)
  std::optional<RevertCheck> revert;     ///< nullopt: not made (yet)
  /// A check failed: the named commit is suspicious.
  bool suspicious() const {
    return no_op.value_or(false) || unrelated.value_or(false) || (revert && revert->result == bisection::StepResult::bad);
  }
  /// Why, in a few words for a one-line outcome ("" when not suspicious).
  std::string suspicion() const;
};

/// Runs the no-op and unrelated checks of `culprit` against its first parent, building either kernel when it is
/// not in the cache (Lab::kernel_facts). Throws GitError for a commit without a parent.
CulpritChecks check_culprit(const GitTree& git, Lab& lab, const std::string& culprit);

/// Whether `path` (repository-relative) is part of how the kernel is built even when no
/// object lists it: Kconfig*, Makefile*, Kbuild*, scripts/, arch/<any>/configs/.
bool build_file(const std::string& path);

/// A line per check for a report: "no-op check: ...", "unrelated check: ...", "revert check:
/// ...", each with its evidence.
std::string render_checks(const CulpritChecks& c);

/// JSON form (stored with the session) and back; from_json of "" or malformed text: nullopt.
nlohmann::json checks_json(const CulpritChecks& c);
std::optional<CulpritChecks> checks_from_json(const std::string& text);

}  // namespace rlab::kernel_bisect
