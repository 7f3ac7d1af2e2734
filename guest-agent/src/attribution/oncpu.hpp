#pragma once
// On-CPU stacks: perf_event_open(2) cpu-clock sampling on every online CPU (all tasks but the
// idle task), each sample counted in the kernel by a BPF program on the event
// (bpf/oncpu.bpf.c, loaded by libbpf) under {kernel stack (up to 64 frames), task name};
// symbolized from /proc/kallsyms only when rows() is asked for. User frames are not unwound
// (the guest's binaries carry no symbols); a sample taken in user mode is the frame "[user]".
// Nothing is read during a pass (the perf ring reader this replaced drained every CPU's ring
// once a second: docs/benchmarks.md "Attribution overhead").
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rlab/protocol/messages.hpp"

struct bpf_link;
struct oncpu_bpf;

namespace rlab::agent {

/// Kernel text symbols from /proc/kallsyms text (lines "addr type name [module]").
class Kallsyms {
 public:
  /// Parses `text`; keeps text symbols (t/T/w/W) with a non-zero address.
  explicit Kallsyms(const std::string& text);
  /// This kernel's symbols from /proc/kallsyms. Throws std::runtime_error when it cannot be read
  /// (CONFIG_KALLSYMS) or holds no addresses (kptr_restrict).
  static std::shared_ptr<const Kallsyms> load();
  /// The symbol whose start is the greatest not above `addr`, or "0x<hex>" when none.
  std::string name(std::uint64_t addr) const;
  std::size_t size() const { return addrs_.size(); }

 private:
  std::vector<std::uint64_t> addrs_;  ///< ascending
  std::vector<std::string> names_;    ///< parallel to addrs_
};

/// The on-CPU sampler of one run: perf events and the BPF program made at open().
class OnCpuSampler {
 public:
  /// Opens one sampling event per online CPU, every `period_ns` of CPU time, with the BPF
  /// program attached, and enables them; `syms` names the sampled addresses. Throws
  /// std::runtime_error naming the failing call (perf_event_open without
  /// CONFIG_PERF_EVENTS; libbpf's log when the program is refused).
  static std::unique_ptr<OnCpuSampler> open(std::uint64_t period_ns, std::shared_ptr<const Kallsyms> syms);
  ~OnCpuSampler();
  OnCpuSampler(const OnCpuSampler&) = delete;
  OnCpuSampler& operator=(const OnCpuSampler&) = delete;

  /// Discards what was sampled so far.
  void reset();
  /// Starts (true) or stops (false) sampling on every CPU.
  void enable(bool on);
  /// Rows of family "oncpu" since reset(): frames innermost first, then "[<comm>]"; total_ns =
  /// count x period.
  std::vector<protocol::StackRow> rows() const;
  /// Samples a full map could not count since reset().
  std::uint64_t lost() const;
  std::uint64_t period_ns() const { return period_ns_; }

 private:
  OnCpuSampler() = default;
  std::vector<int> events_;  ///< one perf event per online CPU
  std::vector<bpf_link*> links_;
  oncpu_bpf* skel_ = nullptr;
  std::shared_ptr<const Kallsyms> syms_;
  std::uint64_t period_ns_ = 0;
};

}  // namespace rlab::agent
