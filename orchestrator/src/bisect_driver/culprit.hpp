#pragma once
// Is the first bad commit believable? Two checks of every culprit a bisection names, as
// syzkaller's bisection flags suspicious culprits:
//  - no-op: the culprit's kernel code is its parent's (vmlinux's .text hashes equal,
//    build::KernelArtifact::text_sha256): the measurement moved, not the code;
//  - unrelated: the culprit changes no file this kernel compiled or included (the build's
//    source list, build::KernelArtifact::sources), nor a Kconfig or Makefile.
// Either one makes the culprit suspicious; the report says which and why. docs/bisect.md
// "Checking the culprit".
#include "bisect_driver/git.hpp"
#include "bisect_driver/lab.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rlab::bisect_driver {

/// The two checks of one culprit.
struct CulpritChecks {
  std::string culprit, parent;           ///< full SHAs
  /// The kernel text equals the parent's; nullopt: unknown (a kernel did not build, or its
  /// cache entry predates text hashes; `note` says which).
  std::optional<bool> no_op;
  /// No changed file was compiled or included into the culprit's kernel; nullopt: unknown.
  std::optional<bool> unrelated;
  std::vector<std::string> changed;      ///< the files the culprit changes against its parent
  std::vector<std::string> compiled;     ///< of those, the ones the kernel compiled, included or builds by
  std::string note;                      ///< why a check is unknown ("" when both ran)
  /// Either check failed: the named commit is suspicious.
  bool suspicious() const { return no_op.value_or(false) || unrelated.value_or(false); }
};

/// Runs both checks of `culprit` against its first parent, building either kernel when it is
/// not in the cache (Lab::kernel_facts). Throws GitError for a commit without a parent.
CulpritChecks check_culprit(const GitTree& git, Lab& lab, const std::string& culprit);

/// Whether `path` (repository-relative) is part of how the kernel is built even when no
/// object lists it: Kconfig*, Makefile*, Kbuild*, scripts/, arch/<any>/configs/.
bool build_file(const std::string& path);

/// Two lines for a report: "no-op check: ...", "unrelated check: ...", each with its evidence.
std::string render_checks(const CulpritChecks& c);

/// JSON form (stored with the session) and back; from_json of "" or malformed text: nullopt.
nlohmann::json checks_json(const CulpritChecks& c);
std::optional<CulpritChecks> checks_from_json(const std::string& text);

}  // namespace rlab::bisect_driver
