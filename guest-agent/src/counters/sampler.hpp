#pragma once
// Reads every counter source of a run into a Snapshot.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "counters/counters.hpp"
#include "counters/tracepoints.hpp"

namespace rlab::agent {

/// The XFS stats file for the filesystem holding `path`: /sys/fs/xfs/<dev>/stats/stats when
/// `path` is on XFS, else the global /sys/fs/xfs/stats/stats, else /proc/fs/xfs/stat, else
/// nullopt.
std::optional<std::filesystem::path> xfs_stats_file(const std::filesystem::path& path);

/// The counter sources of one run. Construction installs the tracepoint counters (removed on
/// destruction) and picks the XFS stats file for `workdir`.
class Sampler {
 public:
  explicit Sampler(const std::filesystem::path& workdir);
  /// All counters now, into `out` (reusing its storage). Unreadable optional sources (PSI,
  /// XFS stats) are left empty.
  void snapshot_into(Snapshot& out) const;
  Snapshot snapshot() const {
    Snapshot s;
    snapshot_into(s);
    return s;
  }
  const TracepointCounters& tracepoints() const { return *tracepoints_; }
  const std::optional<std::filesystem::path>& xfs_stats_path() const { return xfs_stats_; }

 private:
  std::unique_ptr<TracepointCounters> tracepoints_;
  std::optional<std::filesystem::path> xfs_stats_;
};

}  // namespace rlab::agent
