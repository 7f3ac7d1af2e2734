#pragma once
// The result of a bisection session in words: the ends, one row per answered step, the first
// bad commit (or the range skips hide) with its subject, and the inodegc tracepoints per
// 1,000 loops at the first bad commit against its parent (the nearest measured ancestor when
// the parent was skipped).
#include "kernel_bisect/git.hpp"
#include "kernel_bisect/session.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace rlab::kernel_bisect {

/// Multi-line text report of session `s` (any status); at a first bad commit, "where the time
/// went" ranks every counter family and, for XFS cells whose passes carry AG header totals,
/// shows the AG header table of the first bad commit against its parent (attribution/ag_table.hpp). Subjects are read from `git`; a
/// commit the tree no longer has is shown by its SHA alone. Throws store::StoreError.
std::string render_report(const SessionDb& db, const Session& s, const GitTree& git);

/// Writes the differential flame graphs (attribution/flame.hpp) of the first bad commit
/// against the side render_report's "where the time went" uses, one per stack family both
/// collected, as `<dir>/<family>.svg`; returns the files written (none before a first bad
/// commit, or without stacks). Throws std::filesystem::filesystem_error, std::runtime_error.
std::vector<std::filesystem::path> write_flame_graphs(const SessionDb& db, const Session& s, const GitTree& git,
                                                      const std::filesystem::path& dir);

}  // namespace rlab::kernel_bisect
