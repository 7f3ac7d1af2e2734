#pragma once
// The result of a bisection session in words: the ends, one row per answered step, the first
// bad commit (or the range skips hide) with its subject, and the inodegc tracepoints per
// 1,000 loops at the first bad commit against its parent (the nearest measured ancestor when
// the parent was skipped).
#include "kernel_bisect/git.hpp"
#include "kernel_bisect/session.hpp"

#include <string>

namespace rlab::kernel_bisect {

/// Multi-line text report of session `s` (any status). Subjects are read from `git`; a
/// commit the tree no longer has is shown by its SHA alone. Throws store::StoreError.
std::string render_report(const SessionDb& db, const Session& s, const GitTree& git);

}  // namespace rlab::kernel_bisect
