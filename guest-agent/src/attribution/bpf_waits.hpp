#pragma once
// Where tasks wait, by kernel stack, aggregated in the kernel by BPF programs on raw tracepoints
// (no trace record is built per event). The programs are BPF C (bpf/waits.bpf.c, compiled by
// clang -target bpf at build time and embedded as a bpftool skeleton), loaded by libbpf:
//  - off-CPU, on sched_switch(preempt, prev, next, prev_state) (Linux >= 5.18): a switch-out of
//    `prev` asleep in D (prev_state & 0x7f == 2, not TASK_NOLOAD, not preempted; with S also 1),
//    PID 1 (this agent) excepted, saves {now, kernel stack id, state, comm} keyed by the task
//    pointer (S sleeps only one in WAITS_S_SAMPLE = 8, at random; entries() scales them up); the switch-in of a `next` with a saved entry adds (1, now - saved) to the counts of
//    {stack id, state, comm} and deletes the entry;
//  - lock waits, on lock:contention_begin / contention_end (Linux >= 5.19: mutexes, rwsems,
//    semaphores such as the XFS buffer lock, spinlocks' slow path): the first begin of a task's
//    wait for a lock saves {now, stack id} keyed by {pid, lock}; its end adds (1, now - saved)
//    to the counts of {stack id, state 0}.
// No kernel BTF is needed: the programs read only the tracepoints' u64 arguments (no CO-RE).
// Limits: a task whose sleep is cut short by a pending signal passes sched_switch with its
// sleeping state while it stays runnable (the tracepoint reports the state it had); a wait
// whose stack could not be stored (a stack map bucket taken by another stack) is counted
// without a stack.
// Cost: per context switch one hash lookup keyed by 8 bytes; per counted wait a stack walk
// (bpf_get_stackid, up to kFrames frames) and two hash updates. Needs CONFIG_BPF_SYSCALL and
// CONFIG_BPF_EVENTS (raw tracepoint programs); CONFIG_BPF_JIT makes it cheaper
// (docs/benchmarks.md "Attribution overhead").
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct bpf_link;
struct bpf_program;
struct waits_bpf;

namespace rlab::agent {

/// One aggregated wait entry as the kernel counted it.
struct WaitEntry {
  std::vector<std::uint64_t> ips;  ///< kernel return addresses, innermost first; empty: no stack
  std::uint32_t state = 0;         ///< 0 = a lock wait; off-CPU: 2 = D (uninterruptible), 1 = S
  std::string comm;                ///< off-CPU: the task's name when it switched out; "" for locks
  std::uint64_t count = 0;         ///< waits (S: the sampled ones times WAITS_S_SAMPLE, an estimate)
  std::uint64_t total_ns = 0;      ///< begin to end (switch-out to switch-in), summed (S: scaled too)
};

/// The BPF wait collectors of one run: maps and programs made at open(), attached at start(),
/// detached at stop(), read by entries(), closed by the destructor.
class BpfWaits {
 public:
  /// Frames kept per stack (the stack map's value is kFrames x 8 bytes; bpf/waits.h).
  static constexpr std::uint32_t kFrames = 32;
  /// Opens and loads the programs and their maps (libbpf) and tries attaching each (then
  /// detaches). `with_s`: count S sleeps too. Throws std::runtime_error naming the failing step
  /// and errno (with the end of libbpf's log, the verifier's when a program is refused) when
  /// nothing can be collected; a family whose tracepoints this kernel lacks is named in
  /// unavailable().
  static std::unique_ptr<BpfWaits> open(bool with_s);
  ~BpfWaits();
  BpfWaits(const BpfWaits&) = delete;
  BpfWaits& operator=(const BpfWaits&) = delete;

  bool lock() const { return lock_; }      ///< lock waits are collected
  bool offcpu() const { return offcpu_; }  ///< off-CPU time is collected
  /// "lock: ..." / "offcpu: ..." for what this kernel cannot collect; "" when both are.
  const std::string& unavailable() const { return unavailable_; }

  /// Empties every map and attaches the programs: counting starts now. Throws on attach failure.
  void start();
  /// Detaches the programs (waits still under way are not counted). Idempotent.
  void stop();
  /// What was counted between start() and stop().
  std::vector<WaitEntry> entries() const;
  /// Waits that could not be counted (a full map) since start().
  std::uint64_t dropped() const;

 private:
  BpfWaits() = default;
  struct Attached {
    const char* tracepoint;
    bpf_program* prog = nullptr;
    bpf_link* link = nullptr;
  };
  waits_bpf* skel_ = nullptr;  ///< the skeleton: programs and maps (bpf/waits.bpf.c)
  std::vector<Attached> progs_;
  bool lock_ = false, offcpu_ = false;
  std::string unavailable_;
};

}  // namespace rlab::agent
