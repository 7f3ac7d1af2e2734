#pragma once
// Counting XFS inodegc tracepoints cheaply, without a text trace: tracefs hist triggers when
// the kernel has them (CONFIG_HIST_TRIGGERS), else perf_event_open counting-mode counters
// (PERF_TYPE_TRACEPOINT, one event group per CPU read with PERF_FORMAT_GROUP). See docs/agent.md.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counters/counters.hpp"

namespace rlab::agent {

/// The tracefs mount (the directory holding events/), or nullopt. Tries /sys/kernel/tracing
/// then /sys/kernel/debug/tracing.
std::optional<std::filesystem::path> find_tracefs();

/// The counted events the kernel has: every events/xfs/xfs_inodegc_* plus
/// xfs_inode_set_need_inactive and xfs_inode_inactivating; bare names, sorted.
std::vector<std::string> discover_events(const std::filesystem::path& tracefs);

/// Whether hist triggers exist (events/xfs/<event>/hist present for the first event).
bool hist_available(const std::filesystem::path& tracefs, const std::vector<std::string>& events);

/// Live counters for a set of events; installed by open(), removed by the destructor.
class TracepointCounters {
 public:
  /// Installs counters for every discovered event. method(): "hist", "perf" or "none" (no
  /// tracefs, no events, or neither method works); `why` then says what failed.
  static std::unique_ptr<TracepointCounters> open();
  ~TracepointCounters();
  TracepointCounters(const TracepointCounters&) = delete;
  TracepointCounters& operator=(const TracepointCounters&) = delete;

  /// "xfs:<event>" -> hits since open(), for the events being counted.
  CounterMap read() const;
  const std::string& method() const { return method_; }
  const std::string& why() const { return why_; }
  std::vector<std::string> names() const;

 private:
  TracepointCounters() = default;
  bool open_hist();
  bool open_perf();
  struct Event {
    std::string name;                 ///< bare event name
    std::filesystem::path dir;        ///< events/xfs/<name>
    std::string trigger;              ///< hist: the installed trigger text
    std::uint64_t config = 0;         ///< perf: the tracepoint id
  };
  /// perf: per CPU, one group whose leader reads all events at once (PERF_FORMAT_GROUP, one
  /// cross-CPU read per CPU instead of one per event and CPU).
  std::vector<int> leaders_;
  std::vector<int> members_;  ///< every fd, leaders included, for closing
  std::filesystem::path tracefs_;
  std::vector<Event> events_;
  std::string method_ = "none";
  std::string why_;
};

}  // namespace rlab::agent
