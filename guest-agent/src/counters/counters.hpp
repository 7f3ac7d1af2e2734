#pragma once
// Parsers for the kernel's counter files and the snapshot/delta arithmetic of the agent.
// Parsers take the file's text and throw std::runtime_error naming the file and line on
// input they cannot understand.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

/// Counter name -> value.
using CounterMap = std::map<std::string, std::uint64_t>;

/// Counters as parallel vectors in file order. Parsing into an existing table reuses its
/// name strings' storage, so re-reading a file every second allocates nothing.
struct CounterTable {
  CounterTable() = default;
  CounterTable(std::initializer_list<std::pair<std::string, std::uint64_t>> init);
  std::vector<std::string> names;
  std::vector<std::uint64_t> values;
  CounterMap to_map() const;
  /// The name of counter k, growing both columns to k + 1 when shorter (a re-read table
  /// reuses its strings: no allocation once the names are known).
  std::string& name_at(std::size_t k);
  /// Drops the counters from k on.
  void keep(std::size_t k);
};

/// The parts of /proc/stat the agent reports.
struct ProcStat {
  CounterMap cpu;           ///< aggregate "cpu" line: user nice system idle iowait irq softirq steal, jiffies
  std::uint64_t ctxt = 0;   ///< context switches since boot
  std::uint64_t forks = 0;  ///< "processes": forks since boot
};

/// /proc/stat. Throws when the aggregate "cpu" line or "ctxt" is missing.
ProcStat parse_proc_stat(std::string_view text);

/// /proc/vmstat: "name value" lines.
CounterMap parse_vmstat(std::string_view text);
void parse_vmstat_into(std::string_view text, CounterTable& out);

/// One /proc/pressure/<resource> file: {"<resource>.some": total_us, "<resource>.full": total_us}
/// (the cumulative stall time, the "total=" field, microseconds).
CounterMap parse_pressure(std::string_view text, std::string_view resource);

/// An XFS stats file (/sys/fs/xfs/<dev>/stats/stats, /sys/fs/xfs/stats/stats or
/// /proc/fs/xfs/stat): "<group> v0 v1 ..." lines -> {"<group>.<i>": v_i}.
CounterMap parse_xfs_stats(std::string_view text);
void parse_xfs_stats_into(std::string_view text, CounterTable& out);

/// A tracefs hist file (events/<sys>/<event>/hist): the "Hits:" total of its "Totals:"
/// section. nullopt when there is none (no trigger installed).
std::optional<std::uint64_t> parse_hist_hits(std::string_view text);

/// All counters at one instant.
struct Snapshot {
  CounterMap tracepoints;   ///< "xfs:<event>" -> hits since the run's counters were installed
  CounterTable xfs_stats;
  ProcStat stat;
  CounterMap pressure;
  CounterTable vmstat;
};

/// The counters between two snapshots (`later` - `earlier`). Tracepoints present in `later`
/// are always reported (0 included); xfs_stats and vmstat omit zero deltas; a counter that
/// went backwards (stats cleared) reports its new value.
protocol::Counters delta(const Snapshot& earlier, const Snapshot& later);

}  // namespace rlab::agent
