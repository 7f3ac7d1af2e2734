#pragma once
// On-CPU stacks: perf_event_open(2) cpu-clock sampling on every online CPU (all tasks), kernel
// callchains only, aggregated in the agent by (kernel return addresses, task name) as they are
// read and symbolized from /proc/kallsyms only when rows() is asked for. User frames are not
// unwound (the guest's binaries carry no symbols); a sample taken in user mode is the frame
// "[user]". Task names come from the kernel's COMM records (exec) and FORK records (a child
// has its parent's name until it execs), /proc/<tid>/comm for tasks older than the sampler.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rlab/protocol/messages.hpp"

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

/// One mmap'ed perf ring per CPU.
class OnCpuSampler {
 public:
  /// Opens and enables one sampling event per online CPU, every `period_ns` of CPU time;
  /// `syms` names the sampled addresses. Throws std::runtime_error naming the failing call
  /// (e.g. perf_event_open without CONFIG_PERF_EVENTS).
  static std::unique_ptr<OnCpuSampler> open(std::uint64_t period_ns, std::shared_ptr<const Kallsyms> syms);
  ~OnCpuSampler();
  OnCpuSampler(const OnCpuSampler&) = delete;
  OnCpuSampler& operator=(const OnCpuSampler&) = delete;

  /// Discards what was sampled so far.
  void reset();
  /// Starts (true) or stops (false) sampling on every CPU.
  void enable(bool on);
  /// Reads every ring into the aggregation (cheap; call about once a second).
  void poll();
  /// Rows of family "oncpu" since reset(): frames innermost first, then "[<comm>]"; total_ns =
  /// count x period. Lost records (a ring overflowed) are counted in lost().
  std::vector<protocol::StackRow> rows() const;
  std::uint64_t lost() const { return lost_; }
  std::uint64_t period_ns() const { return period_ns_; }

 private:
  OnCpuSampler() = default;
  struct Ring {
    int fd = -1;
    void* base = nullptr;
    std::size_t bytes = 0;  ///< metadata page + data
    std::size_t data_bytes = 0;
  };
  void drain(Ring& r);
  void record(const unsigned char* rec, std::size_t size, std::uint32_t type);
  /// The interned name of task `tid` (an index into names_).
  std::uint32_t comm_of(std::uint32_t tid);
  std::uint32_t intern(const std::string& name);
  std::vector<Ring> rings_;
  std::shared_ptr<const Kallsyms> syms_;
  std::uint64_t period_ns_ = 0;
  std::uint64_t lost_ = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> comms_;   ///< tid -> index into names_
  std::vector<std::string> names_;                           ///< interned task names
  std::map<std::string, std::uint32_t> name_ids_;            ///< names_ -> index
  /// Kernel return addresses (innermost first), then the task name's index -> samples.
  std::map<std::vector<std::uint64_t>, std::uint64_t> counts_;
  std::vector<unsigned char> rec_;                           ///< one record, unwrapped
  std::size_t page_ = 4096;
};

}  // namespace rlab::agent
