#pragma once
// Where the load's time goes, per pass, aggregated in the guest's kernel (docs/attribution.md):
//  - lock waits: lock:contention_begin .. contention_end of the same task, by the waiter's
//    kernel stack, with count and total wait (a BPF program, bpf_waits.hpp);
//  - off-CPU: switched out in D (level "full": also S) .. back in, by state, task name and
//    stack, from a BPF program on the sched_switch raw tracepoint (bpf_waits.hpp), kept for the
//    load's tasks only: the scripts' commands (sh, sort, od, grep, tee, wc, rm; UnixBench's
//    looper, multi.sh, tst.sh) and kernel workers (kworker/*, which run XFS inodegc); the agent
//    itself (PID 1) and other kernel threads are not counted;
//  - on-CPU: perf_event_open cpu-clock samples counted by kernel stack and task name in a BPF
//    program on the events (oncpu.hpp);
//  - XFS AG headers (the pass's filesystem only, when XFS): waits for and holds of each AG's
//    AGF, AGI and AGFL buffer, by AG, header and stack, holds also by the holder's name
//    (bpf_ag_headers.hpp).
// Nothing of this runs in the agent during a pass: it is read after the window closed.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

struct AgHeaderRow;
class BpfAgHeaders;
class BpfWaits;
class Kallsyms;
class OnCpuSampler;
struct WaitEntry;

/// The probe's own frames removed from the top of `frames`: everything down to the last of the
/// tracepoint's glue frames (__traceiter_*, __bpf_trace_*, bpf_trace_run*, trace_*) among the
/// first 12 (the BPF program itself may be named after the symbol below it). Stacks without
/// glue (perf samples) are left as they are.
void drop_tracing_frames(std::vector<std::string>& frames);

/// The family totals of `rows` (protocol::Attribution::totals names; the XFS AGI/AGF/buffer
/// classes from lock rows whose frames hold xfs_read_agi / xfs_ialloc_read_agi,
/// xfs_read_agf / xfs_alloc_read_agf, xfs_buf_lock) and, when `keep_stacks`, the top `top`
/// rows of each family by total_ns (count for oncpu), then one "other" row (empty frames)
/// per family summing the rest. Rows with equal frames within a family are merged first.
protocol::Attribution summarize_stacks(std::vector<protocol::StackRow> rows, std::size_t top, bool keep_stacks);

/// `entries` as rows of families "lock" (state 0), "offcpu.D" (2) and "offcpu.S" (1), the
/// off-CPU ones only for the tasks `keep(comm)` accepts; frames symbolized with `syms`, leading
/// tracing/BPF frames removed, "[no stack]" when the kernel kept none.
std::vector<protocol::StackRow> wait_rows(const std::vector<WaitEntry>& entries, const Kallsyms& syms,
                                          bool (*keep)(std::string_view comm));

/// The AG header collector's counts as protocol::Attribution totals and stack rows:
///  - totals "agheader.agcount" and, per {header H in AGF/AGI/AGFL, AG} that saw a wait or a
///    hold, "agheader.<H>.<ag>.{waits,contended,wait_ns,holds,held_ns,max_held_ns}" (ns;
///    AGs from `kMaxAgs` on summed as ag "64+", their max_held_ns the largest);
///  - rows of family "agheader.wait" (frames "[AGI of AG 3]", then the waiter's stack) and
///    "agheader.hold" (frames "[AGI of AG 3]", the holder's stack when it took the header,
///    then "[<its task name>]"), symbolized with `syms`, tracing frames removed.
/// `waits`/`holds` as BpfAgHeaders::waits()/holds() read them.
void ag_header_attribution(const std::vector<AgHeaderRow>& waits, const std::vector<AgHeaderRow>& holds,
                           std::uint32_t agcount, const Kallsyms& syms, std::map<std::string, std::uint64_t>& totals,
                           std::vector<protocol::StackRow>& rows);

/// AGs counted one by one in the AG header totals; the rest are summed as "64+".
inline constexpr std::uint32_t kMaxAgs = 64;

/// The collectors of one run. Loaded at open(), cleared and started at begin_pass(), stopped
/// at stop() (the window closed: cheap, so the loops in flight are not slowed), read at
/// end_pass() (after they ended), removed by the destructor.
class Attribution {
 public:
  /// `level` counts, stacks or full (stacks, and off-CPU in S too; not off); `xfs_device`: the
  /// block device of the pass's XFS filesystem, whose AG headers are watched (nullopt: not
  /// XFS). Never throws: what cannot be collected (no BPF raw tracepoints, a kernel without
  /// the lock or xfs_buf events, no perf events, no /proc/kallsyms) is named in the pass's
  /// `unavailable`, and the rest is collected.
  static std::unique_ptr<Attribution> open(protocol::AttributionLevel level, std::uint32_t top,
                                           const std::optional<std::filesystem::path>& xfs_device = std::nullopt);
  ~Attribution();
  Attribution(const Attribution&) = delete;
  Attribution& operator=(const Attribution&) = delete;

  /// Empties and (re)starts every aggregation: the pass starts now.
  void begin_pass();
  /// Stops every aggregation (the BPF programs detached, perf events disabled): the window
  /// closed.
  void stop();
  /// The pass's attribution between begin_pass() and stop() (totals, and stacks at level
  /// "stacks"); symbolizes and sorts, so it costs far more than stop().
  protocol::Attribution end_pass();

 private:
  Attribution() = default;
  std::shared_ptr<const Kallsyms> syms_;
  std::unique_ptr<BpfWaits> waits_;
  std::unique_ptr<OnCpuSampler> oncpu_;
  std::unique_ptr<BpfAgHeaders> ag_headers_;
  std::string unavailable_;
  bool keep_stacks_ = false;
  bool full_ = false;  ///< level "full": off-CPU in S too
  std::uint32_t top_ = 20;
};

}  // namespace rlab::agent
