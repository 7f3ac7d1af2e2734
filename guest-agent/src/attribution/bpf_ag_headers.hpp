#pragma once
// Waits for, and holds of, the AG header buffers (AGF, AGI, AGFL) of one XFS filesystem, per
// AG, counted in the kernel by BPF programs (bpf/ag_headers.bpf.c, loaded by libbpf) on the
// xfs_buf_class raw tracepoints: xfs_buf_lock to xfs_buf_lock_done is a wait (contended when
// another task held the header as the lock call began), xfs_buf_lock_done or a successful
// xfs_buf_trylock to xfs_buf_unlock a hold. The buffer's address (read from struct xfs_buf,
// XFS_BUF_DADDR_OFFSET) maps to {AG, header} through the filesystem's geometry (xfs_ag.hpp);
// every other buffer returns at once.
// Limits: buffers are told apart by address alone, so with several XFS filesystems mounted
// the headers of all of them at the same addresses count together (rlab's guest mounts one).
// A buffer released by another task than the one that locked it (XFS hands a locked buffer
// from a transaction to log I/O completion) counts as held by the locker until the unlock; a
// header locked before start() and released after it is not counted.
// Cost: per XFS buffer lock/unlock a raw tracepoint call, one 8-byte kernel read, a map lookup
// and two divisions; per header lock two hash updates, and a stack walk for the long ones.
// Needs CONFIG_BPF_EVENTS and XFS with tracepoints; no BTF.
#include "attribution/xfs_ag.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

struct ag_headers_bpf;
struct bpf_link;

namespace rlab::agent {

/// One {AG, header, stack (, holder)} as the kernel counted it.
struct AgHeaderRow {
  std::uint32_t ag = 0;             ///< 0..agcount-1
  AgHeader header = AgHeader::agi;  ///< agf, agi or agfl
  std::vector<std::uint64_t> ips;   ///< kernel return addresses, innermost first; empty: no stack
  std::string comm;                 ///< holds: the holder's task name; waits: ""
  std::uint64_t count = 0;          ///< waits (blocking locks) or holds
  std::uint64_t contended = 0;      ///< waits that found the header held by another task
  std::uint64_t total_ns = 0;       ///< waited or held, summed
  std::uint64_t max_ns = 0;         ///< the longest single wait or hold
};

/// The AG header collector of one filesystem: programs loaded at open(), counting between
/// start() and stop(), read by waits() and holds(), closed by the destructor.
class BpfAgHeaders {
 public:
  /// The levels' stack_min_ns (below): `stacks` and `full` walk the stacks of waits and holds
  /// of 50 us and more (a walk per header lock cost the load one loop in 200 at 2 vCPUs),
  /// `counts` none.
  static constexpr std::uint64_t kStackMinNs = 50'000, kNoStacks = ~std::uint64_t{0};
  /// For the XFS filesystem on block device `device` (its superblock read for the geometry).
  /// `stack_min_ns`: waits and holds at least this long keep the task's kernel
  /// stack (the waiter's as it gets the header, the holder's as it releases it; a hold
  /// released by another task has none), shorter ones none; kNoStacks: none at all. Throws
  /// std::runtime_error when the device is no XFS or libbpf cannot load the programs (with
  /// its log); start() throws when the kernel lacks the xfs_buf tracepoints.
  static std::unique_ptr<BpfAgHeaders> open(const std::filesystem::path& device, std::uint64_t stack_min_ns);
  ~BpfAgHeaders();
  BpfAgHeaders(const BpfAgHeaders&) = delete;
  BpfAgHeaders& operator=(const BpfAgHeaders&) = delete;

  const XfsGeometry& geometry() const { return geometry_; }
  /// Empties the maps and attaches the programs: counting starts now. Throws on attach failure.
  void start();
  /// Detaches the programs. Idempotent.
  void stop();
  /// Waits by {AG, header, the waiter's stack}.
  std::vector<AgHeaderRow> waits() const;
  /// Holds by {AG, header, the holder's stack when it took the header, its name}.
  std::vector<AgHeaderRow> holds() const;
  /// Waits or holds that could not be counted (a full map) since start().
  std::uint64_t dropped() const;

 private:
  BpfAgHeaders() = default;
  std::vector<AgHeaderRow> rows(int map_fd) const;
  ag_headers_bpf* skel_ = nullptr;
  std::vector<bpf_link*> links_;
  XfsGeometry geometry_;
};

}  // namespace rlab::agent
