#pragma once
// Where the load's time goes, per pass, aggregated in the guest's kernel (docs/attribution.md):
//  - lock waits: lock:contention_begin .. contention_end of the same task, as a synthetic
//    event carrying the wait (ns) and the waiter's kernel stack, histogrammed by stack;
//  - off-CPU: sched:sched_switch out in D (2; level "full": also S, 1) .. back in, same shape, by state, task
//    name and stack, kept for the load's tasks only: the scripts' commands (sh, sort, od, grep,
//    tee, wc, rm; UnixBench's looper, multi.sh, tst.sh) and kernel workers (kworker/*, which
//    run XFS inodegc); the agent itself (PID 1) and other kernel threads are not counted;
//  - on-CPU: perf_event_open cpu-clock samples with kernel callchains (oncpu.hpp).
// Kernel interfaces: Documentation/trace/histogram.rst (hist triggers, variables, onmatch,
// synthetic events with stacktrace fields, Linux >= 6.3) and events/lock (Linux >= 5.19).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

class OnCpuSampler;

/// One entry of a stacktrace-keyed hist file.
struct HistStack {
  std::vector<std::string> frames;   ///< symbols without "+off/size" or " [module]", innermost first
  std::optional<std::int64_t> state; ///< the entry's `state` key, when the histogram has one
  std::string comm;                  ///< the entry's `comm` key, "" when it has none
  std::uint64_t hitcount = 0;
  std::uint64_t delta = 0;           ///< the summed `delta` value (ns), 0 when absent
};

/// Parses a tracefs `hist` file keyed by a stacktrace (optionally also by `state`, `comm`), with values
/// hitcount and delta. Entries it cannot read are skipped; comment and "Totals" lines ignored.
std::vector<HistStack> parse_stack_hist(std::string_view text);

/// Leading frames of the tracing machinery itself (trace_*, __traceiter_*, event_*, perf_*,
/// *_hist_*) removed from `frames`.
void drop_tracing_frames(std::vector<std::string>& frames);

/// The family totals of `rows` (protocol::Attribution::totals names; the XFS AGI/AGF/buffer
/// classes from lock rows whose frames hold xfs_read_agi / xfs_ialloc_read_agi,
/// xfs_read_agf / xfs_alloc_read_agf, xfs_buf_lock) and, when `keep_stacks`, the top `top`
/// rows of each family by total_ns (count for oncpu), then one "other" row (empty frames)
/// per family summing the rest. Rows with equal frames within a family are merged first.
protocol::Attribution summarize_stacks(std::vector<protocol::StackRow> rows, std::size_t top, bool keep_stacks);

/// The collectors of one run. Install at open(), clear and start at begin_pass(), pause at
/// stop() (the window closed: cheap, so the loops in flight are not slowed), read at
/// end_pass() (after they ended), removed by the destructor (triggers first, then the
/// synthetic events).
class Attribution {
 public:
  /// `level` "counts", "stacks" or "full" (stacks, and off-CPU in S too). Never throws: what cannot be installed (no tracefs, no hist
  /// triggers, a kernel without stacktrace variables, no perf events) is named in the pass's
  /// `unavailable`, and the rest is collected.
  static std::unique_ptr<Attribution> open(const std::string& level, std::uint32_t top);
  ~Attribution();
  Attribution(const Attribution&) = delete;
  Attribution& operator=(const Attribution&) = delete;

  /// Empties and (re)starts every aggregation: the pass starts now.
  void begin_pass();
  /// Pauses every aggregation (hist triggers' `pause`, perf events disabled): the window closed.
  void stop();
  /// Moves on-CPU samples out of the kernel's ring buffers (call every second or so during a
  /// pass so they do not overflow).
  void poll();
  /// The pass's attribution between begin_pass() and stop() (totals, and stacks at level
  /// "stacks"); symbolizes and sorts, so it costs far more than stop().
  protocol::Attribution end_pass();

 private:
  Attribution() = default;
  struct Trigger {
    std::filesystem::path file;  ///< events/<system>/<event>/trigger
    std::string text;            ///< as installed
  };
  bool install(const std::filesystem::path& file, const std::vector<std::string>& texts);
  bool install_family(const std::string& synth, const std::string& synth_fields,
                      const std::vector<std::pair<std::filesystem::path, std::vector<std::string>>>& triggers,
                      const std::string& hist_keys, std::string& why);
  std::optional<std::filesystem::path> tracefs_;
  std::vector<Trigger> triggers_;          ///< in install order; removed in reverse
  std::vector<std::string> synthetic_;     ///< synthetic events created
  std::vector<Trigger> clearable_;         ///< the synthetic events' hist triggers
  bool lock_ = false, offcpu_ = false;
  std::unique_ptr<OnCpuSampler> oncpu_;
  std::string unavailable_;
  bool keep_stacks_ = false;
  bool full_ = false;  ///< level "full": off-CPU in S too
  std::uint32_t top_ = 20;
};

}  // namespace rlab::agent
