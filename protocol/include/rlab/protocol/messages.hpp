#pragma once
// Message types of the agent protocol (docs/protocol.md). Plain structs; JSON conversion and
// validation live in json.hpp / codec.hpp.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rlab::protocol {

/// The protocol version spoken by this library (hello.protocol).
inline constexpr int kProtocolVersion = 1;

/// Upper bound, in seconds, of every time span a `run` request carries (duration_s,
/// sample_interval_s, pause_s): one day, the matrix's own limit for duration_s. Larger values
/// (up to 1e308) would overflow the agent's clocks and keep it busy forever.
inline constexpr double kMaxSpanS = 86400.0;

/// Request id chosen by the host; replies and stream messages echo it.
using RequestId = std::uint64_t;

// ---------------------------------------------------------------- host -> agent requests

/// `hello` request: asks the agent to (re)send its hello; refused with `incompatible` when
/// `protocol` is not one the agent speaks.
struct HelloRequest {
  RequestId id = 0;
  int protocol = kProtocolVersion;
};

/// `prepare`: make a filesystem on the disk under test and mount it.
/// Exactly one of `device` (a block device path) and `serial` (the disk's virtio serial,
/// matched against /sys/block/*/serial) is set.
struct Prepare {
  RequestId id = 0;
  std::optional<std::string> device;     ///< e.g. "/dev/vdb"
  std::optional<std::string> serial;     ///< e.g. "rlab-test"
  std::string fs;                        ///< "xfs" or "ext4"
  std::vector<std::string> mkfs_options; ///< argv words, e.g. {"-d", "agcount=4"}
  std::string mount_options;             ///< comma separated, may be empty
  std::string mountpoint;                ///< absolute path; created if missing
};

/// SHA-256 (hex) of the agent's generated input (the sort input when `run.input` is absent and
/// the runner is "rlab"); the agent's tests fail when the generator's output changes without it.
inline constexpr const char* kGeneratedInputSha256 =
    "c7a7385e5b7e1b198650659861f403017a26e17f852b9d50b78d810d16eeb848";

/// Largest `run.input`, bytes (JSON: base64, so the request stays under the 1 MiB line limit).
inline constexpr std::size_t kMaxInputBytes = 512 * 1024;

/// Most concurrent loopers of one `run` (UnixBench -c).
inline constexpr std::uint32_t kMaxCopies = 4096;

/// `run.layout`: where the loopers work. JSON: the word in quotes.
enum class Layout {
  shared,    ///< "shared" (UnixBench): every looper's cwd is <workdir>/testdir
  per_copy,  ///< "per-copy": looper i in <workdir>/testdir/copy<i>, each with its own input; on
             ///< XFS the copies' files then spread over the allocation groups
};

/// `run.runner`: whose scripts run. JSON: the word in quotes.
enum class Runner {
  rlab,       ///< "rlab": rlab's loop.sh/copy.sh, written by the agent into <workdir>/pgms
  unixbench,  ///< "unixbench": UnixBench's own looper, multi.sh and tst.sh, copied from
              ///< <unixbench_dir>/pgms into <workdir>/pgms; `copies` loopers of duration_s whole seconds
};

/// `run.attribution`: where the load's time goes, per pass (docs/attribution.md). JSON: the
/// word in quotes.
enum class AttributionLevel {
  off,     ///< "off": nothing beyond the load's own counters
  counts,  ///< "counts": totals per family (contended lock waits, off-CPU waits in D, XFS AGI/AGF
           ///< buffer-lock waits, on-CPU samples)
  stacks,  ///< "stacks": those plus the top `attribution_top` kernel stacks of each family
  full,    ///< "full": stacks, and off-CPU waits in S too
};

/// The words of the enums above, as on the wire ("per-copy", "unixbench", "stacks", ...).
const char* to_string(Layout layout);
const char* to_string(Runner runner);
const char* to_string(AttributionLevel level);

/// `run`: the shell1/shell8 load. Defaults follow UnixBench except duration_s
/// (docs/agent.md "shell1 as UnixBench runs it").
struct Run {
  RequestId id = 0;
  std::string workload = "shell1";       ///< "shell1" or "shell8"
  std::uint32_t copies = 1;              ///< concurrent loopers (UnixBench -c), [1, kMaxCopies]
  std::uint32_t passes = 3;              ///< [1, 1000]
  double duration_s = 60.0;              ///< length of one pass, seconds, (0, kMaxSpanS]
  std::uint32_t scripts_per_loop = 1;    ///< 1 (shell1) or 8 (shell8); from workload if absent
  std::string workdir;                   ///< absolute directory on the filesystem under test
  double sample_interval_s = 0;          ///< seconds between periodic samples; 0 = none (edges only), else [0.1, kMaxSpanS]
  /// Settling before every pass, seconds, [0, kMaxSpanS]: sync, sleep pause_s/3, sync, sleep
  /// 2*pause_s/3 — UnixBench's `sync; sleep 1; sync; sleep 2` at the default 3.
  double pause_s = 3.0;
  /// Guest hygiene before every pass (not UnixBench's; off by default): after the settling's
  /// first sync, write 3 to /proc/sys/vm/drop_caches (page cache, dentries and inodes).
  bool drop_caches = false;
  Layout layout = Layout::shared;        ///< where the loopers work
  Runner runner = Runner::rlab;          ///< whose scripts run
  std::string unixbench_dir = "/opt/unixbench";  ///< guest directory holding pgms/ (runner "unixbench")
  /// The bytes of the input the scripts sort (sort.src), at most kMaxInputBytes; nullopt:
  /// rlab's generated input (runner "rlab") or <unixbench_dir>/testdir/sort.src ("unixbench").
  /// JSON: `input_base64`.
  std::optional<std::string> input;
  AttributionLevel attribution = AttributionLevel::off;  ///< where the load's time goes, per pass
  std::uint32_t attribution_top = 20;    ///< stacks kept per family and pass, [1, 200]; the rest is one "other" row
};

/// `shutdown`: the agent replies `bye`, syncs and powers the guest off (when PID 1, or when
/// started with --poweroff and `poweroff` is true) or else exits.
struct Shutdown {
  RequestId id = 0;
  bool poweroff = true;
};

// ---------------------------------------------------------------- agent -> host messages

/// `hello`: sent unprompted when a host connects, and in reply to a HelloRequest (then with
/// its id).
struct Hello {
  std::optional<RequestId> id;
  int protocol = kProtocolVersion;
  std::string agent_version;
  std::string kernel_release;            ///< uname -r
  std::uint64_t page_size = 0;           ///< bytes, sysconf(_SC_PAGESIZE)
  std::uint32_t nr_cpus = 0;             ///< online CPUs
  std::uint64_t mem_total_kib = 0;       ///< /proc/meminfo MemTotal
  std::vector<std::string> tracepoints;  ///< counted events present, e.g. "xfs:xfs_inodegc_queue"
  bool hist_triggers = false;            ///< tracefs hist triggers usable
  /// How tracepoints are counted: "hist" (tracefs hist triggers), "perf" (perf_event_open
  /// counting mode, PERF_TYPE_TRACEPOINT, one counter per CPU) or "none".
  std::string tracepoint_counting = "none";
  bool xfs_stats = false;                ///< an XFS stats file is readable
  bool pid1 = false;                     ///< the agent is the guest's init
  /// The guest's own view of what runs it: "kvm" when KVM's hypervisor services answered the
  /// guest kernel (its log says "smccc: KVM: hypervisor services detected"), "none" when
  /// they did not (TCG); "" from an agent that does not say (optional field).
  std::string hypervisor;
  /// The guest's boot timeline, seconds of its CLOCK_BOOTTIME (instruction time under icount):
  /// when /init began (it passes RLAB_INIT_UPTIME to the agent), when the agent's main() began,
  /// and when this hello was made. Each >= 0 and finite; nullopt when not known (optional fields).
  std::optional<double> init_uptime_s, agent_uptime_s, uptime_s;
};

/// `prepared`: the filesystem is made and mounted.
struct Prepared {
  RequestId id = 0;
  std::string device;                    ///< resolved block device path
  std::string fs;
  std::string mkfs_output;               ///< mkfs's stdout+stderr
  double elapsed_s = 0;                  ///< mkfs + mount wall time
};

/// Counter deltas over an interval (a sample) or a pass.
/// Maps hold only what the guest has: an absent tracepoint is absent, never 0.
struct Counters {
  std::map<std::string, std::uint64_t> tracepoints;  ///< "xfs:xfs_inodegc_queue" -> hits
  /// XFS stats, "<group>.<index>" (0-based, e.g. "ig.0") -> delta; zero deltas omitted.
  std::map<std::string, std::uint64_t> xfs_stats;
  /// /proc/stat aggregate "cpu" line: user nice system idle iowait irq softirq steal -> jiffies
  std::map<std::string, std::uint64_t> cpu;
  std::uint64_t ctxt = 0;                ///< /proc/stat context switches
  std::uint64_t forks = 0;               ///< /proc/stat "processes" (forks)
  /// /proc/pressure: "cpu.some", "io.full", ... -> stall time delta, microseconds ("total=")
  std::map<std::string, std::uint64_t> pressure;
  /// /proc/vmstat name -> delta (signed: some entries are gauges); zero deltas omitted.
  std::map<std::string, std::int64_t> vmstat;
};

/// Per-loop latency histogram: counts[i] loops took <= bounds_s[i] (and > bounds_s[i-1]);
/// counts has one more entry than bounds_s, the last for loops longer than every bound.
struct Histogram {
  std::vector<double> bounds_s;
  std::vector<std::uint64_t> counts;
  double sum_s = 0;                      ///< total latency of the counted loops
  double max_s = 0;
};

/// `sample`: progress of a pass: one at the counting window's start (t_s 0, no loops, empty
/// counters), one every sample_interval_s when that is > 0, and one at the window's end (the
/// counters since the previous sample). The host reads its own CPU time as each arrives, so
/// the first and last bracket the window; with sample_interval_s 0 the agent runs nothing in
/// between.
struct Sample {
  RequestId id = 0;
  std::uint32_t pass = 0;                ///< 0-based
  double t_s = 0;                        ///< seconds since the pass started
  std::uint64_t loops = 0;               ///< completed loops so far in this pass
  std::uint64_t failures = 0;            ///< failed loops so far in this pass
  Counters counters;                     ///< deltas since the previous sample (or pass start)
};

/// Where the load's inodes were placed on XFS in one pass: the allocation group of every
/// inode found in the load's directories while the pass ran (scanned at each sample and at
/// the end of the window), from inode numbers and the superblock's geometry
/// (agno = ino >> (sb_agblklog + sb_inopblog)).
struct Placement {
  std::uint32_t agcount = 0;             ///< allocation groups of the filesystem
  std::uint32_t ags = 0;                 ///< distinct allocation groups the load's inodes were in, [0, agcount]
  std::uint64_t inodes = 0;              ///< distinct inodes seen (the load's temporary files)
};

/// One aggregated kernel stack of a pass.
struct StackRow {
  /// "lock" (contended lock waits, lock:contention_begin..end), "offcpu.D" / "offcpu.S"
  /// (switched out uninterruptible / interruptible until switched back in, a BPF program on
  /// the sched_switch raw tracepoint), "oncpu" (cpu-clock samples, perf_event_open), or
  /// "agheader.wait" / "agheader.hold" (waits for, and holds of, an XFS AG header buffer of
  /// the pass's filesystem: first frame "[AGI of AG 3]" (AGF, AGI or AGFL; "64+" for the
  /// AGs from 64 on), then the waiter's or holder's stack; a hold's last frame is the
  /// holder's task name in brackets).
  std::string family;
  /// Symbols without offsets, innermost first (e.g. "down", "xfs_buf_lock", ...); empty: the
  /// "other" row, every stack of the family beyond the top N. On-CPU rows end with the
  /// sampled task's name in brackets, e.g. "[sh]" (user frames are not symbolized).
  std::vector<std::string> frames;
  std::uint64_t count = 0;               ///< waits (lock, offcpu.*, agheader.wait), holds (agheader.hold) or samples (oncpu)
  std::uint64_t total_ns = 0;            ///< summed wait or hold, nanoseconds; oncpu: samples x period
};

/// Where the time of one pass went, aggregated in the guest's kernel (BPF programs on raw
/// tracepoints; perf_event_open cpu-clock sampling). docs/attribution.md.
struct Attribution {
  /// Family totals over the pass window: "lock.waits", "lock.wait_ns", "offcpu.D.waits",
  /// "offcpu.D.wait_ns", "offcpu.S.waits", "offcpu.S.wait_ns", "xfs_agi.waits",
  /// "xfs_agi.wait_ns", "xfs_agf.waits", "xfs_agf.wait_ns", "xfs_buf.waits", "xfs_buf.wait_ns"
  /// (lock waits whose stack holds xfs_read_agi / xfs_read_agf / xfs_buf_lock), "oncpu.samples",
  /// "oncpu.sampled_ns", "oncpu.lost" (samples a full BPF map could not count), "waits.dropped" (lock and
  /// off-CPU waits a full BPF map could not count). On XFS, the AG headers:
  /// "agheader.agcount", and per header H (AGF, AGI, AGFL) and AG that saw a wait or a hold
  /// "agheader.<H>.<ag>.waits", ".contended" (waits that found it held), ".wait_ns",
  /// ".holds", ".held_ns", ".max_held_ns" (the longest hold), ns; ag "0".."63", then "64+"
  /// summing the rest; "agheader.dropped" (locks a full BPF map could not count). Only
  /// families that could be collected are present.
  std::map<std::string, std::uint64_t> totals;
  std::vector<StackRow> stacks;          ///< level "stacks" only: top N per family, then its "other" row
  std::string unavailable;               ///< families that could not be collected and why ("" = none)
};

/// `pass`: one finished pass.
struct PassReport {
  RequestId id = 0;
  std::uint32_t pass = 0;
  std::uint64_t loops = 0;               ///< loops completed inside the pass window
  /// Loops that exited non-zero (not counted; UnixBench's looper stops there) plus counted
  /// loops whose scripts wrote to stderr (a command of the pipeline failed).
  std::uint64_t failures = 0;
  /// The pass's time as UnixBench's Run takes it, seconds: the mean over the copies of each
  /// copy's elapsed time, from its start until its last loop (the one in flight when the window
  /// closed, never counted) has finished; runner "unixbench": until EOF on the looper's stderr
  /// pipe, which that loop's processes hold open, exactly as Run reads it.
  double duration_s = 0;
  double lpm = 0;                        ///< loops per minute: loops * 60 / duration_s
  /// The counting window alone, seconds: rlab's measured window (loops finished inside it are
  /// counted); runner "unixbench": the loopers' alarm (run.duration_s). window_s <= duration_s.
  double window_s = 0;
  Histogram latency;
  Counters counters;                     ///< totalled over the pass window
  bool caches_dropped = false;           ///< the agent dropped the caches just before the pass
  std::optional<Placement> placement;    ///< XFS only (absent on other filesystems)
  std::optional<Attribution> attribution;  ///< when run.attribution is not "off"
};

/// `result`: the run is over.
struct Result {
  RequestId id = 0;
  std::string workload;
  double score = 0;                      ///< lpm; geometric mean after dropping the worst int(passes/3)
  std::vector<PassReport> passes;        ///< as sent in the `pass` messages, without their attribution
  std::uint64_t failures = 0;            ///< failed loops, all passes
  std::vector<std::string> failure_examples;  ///< stderr of up to 3 failed loops
  std::uint64_t agent_max_rss_kib = 0;   ///< the agent's own peak RSS, KiB
  /// CPU time (user + system, seconds) of the agent's serving thread from the `run` request to
  /// this result: starting and reaping loops, counter reads, messages; not the load's processes
  /// nor the sync between passes. With sampling on minus off, the instrument's own cost.
  double agent_cpu_s = 0;
};

/// Error codes of the `error` message.
enum class ErrorCode { malformed, oversized, unknown_type, bad_field, incompatible, busy, failed };

/// `error`: a request was refused or failed.
struct Error {
  std::optional<RequestId> id;           ///< of the offending request, when it had one
  ErrorCode code = ErrorCode::failed;
  std::string message;                   ///< human readable, names the field / tool output
};

/// `bye`: reply to shutdown, sent before syncing and powering off.
struct Bye {
  RequestId id = 0;
};

/// Everything the host may send.
using HostMessage = std::variant<HelloRequest, Prepare, Run, Shutdown>;
/// Everything the agent may send.
using AgentMessage = std::variant<Hello, Prepared, Sample, PassReport, Result, Error, Bye>;

/// "malformed", "oversized", ...
const char* to_string(ErrorCode code);
/// Inverse of to_string; nullopt for an unknown name.
std::optional<ErrorCode> error_code_from_string(std::string_view name);

}  // namespace rlab::protocol
