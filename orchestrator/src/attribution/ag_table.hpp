#pragma once
// Which allocation group's header was waited for, and held by whom: the XFS AG header buffers
// (AGI, AGF, AGFL) per allocation group (AG), from the agent's `agheader.*` totals and its
// `agheader.wait` / `agheader.hold` stacks (docs/attribution.md "The AG header table").
//
// Sources, per counted pass (passes.attribution_json): totals `agheader.<H>.<ag>.<field>`
// (H in AGI, AGF, AGFL; ag "0".."63" or "64+", all AGs from 64 on summed; fields waits,
// contended, wait_ns, holds, held_ns, max_held_ns), `agheader.agcount`, `agheader.dropped`;
// stacks of family `agheader.wait` (frames[0] "[AGI of AG 3]", then the waiter's kernel frames
// innermost first) and `agheader.hold` (the same, then the holder's "[task]" as the last frame);
// a row with empty frames is the stacks the guest did not keep.
//
// Units: per boot, x = 1000 * ns / loops over the passes that carried agheader totals, shown in
// ms per 1,000 loops, the median over the boots. Shares (contended, waiter kinds) are pooled
// over the boots: summed numerator over summed denominator. The longest hold is the maximum over
// the boots, in ms. Cost O(P (T + S F)) for P passes of T totals and S stacks of F frames.
#include "store/readers.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::attribution {

/// One AG header buffer: which header of which allocation group.
struct AgHeader {
  std::string header;  ///< "AGI", "AGF" or "AGFL"
  std::string ag;      ///< decimal AG number "0".."63", or "64+" (every AG from 64 on)
  /// "AGI of AG 3".
  std::string name() const;
  /// By header (AGI, AGF, AGFL), then by AG number ("64+" last).
  bool operator<(const AgHeader& o) const;
  bool operator==(const AgHeader& o) const { return header == o.header && ag == o.ag; }
};

/// Who a wait or hold stack belongs to, from its kernel frames.
enum class TaskKind {
  unlinking,  ///< do_unlinkat / xfs_remove
  inodegc,    ///< xfs_inodegc_worker (inode inactivation: xfs_inactive, xfs_difree, ...)
  creating,   ///< xfs_create / xfs_create_tmpfile
  renames,    ///< xfs_rename
  writes,     ///< xfs_file_write_iter, xfs_bmapi_write, xfs_alloc_vextent*
  writeback,  ///< the AIL pushing metadata to disk: xfsaild*, xfs_buf_item_push (a buffer under write stays locked until its I/O completes)
  log,        ///< xlog_* / xfs_log_*
  other,      ///< none of the above
};

/// "unlinking tasks", "the inodegc worker", "creating tasks", "renames", "writes", "metadata
/// writeback (xfsaild)", "log", "other".
std::string_view task_kind_name(TaskKind k);

/// The kind of a stack's frames (any order; brackets frames such as "[AGI of AG 3]" or "[rm]"
/// are ignored). The inodegc worker wins over everything (it unlinks nothing itself but runs
/// xfs_inactive for unlinked inodes), then unlinking, renames, creating, writes, writeback, log.
TaskKind classify_stack(const std::vector<std::string>& frames);

/// One header's counts, summed over passes (ns, events).
struct AgHeaderCounts {
  double waits = 0;        ///< blocking lock calls on the header
  double contended = 0;    ///< of those, the ones that found it held by another task
  double wait_ns = 0;      ///< summed wait
  double holds = 0;        ///< lock..unlock intervals
  double held_ns = 0;      ///< summed held time
  double max_held_ns = 0;  ///< longest single hold
};

/// One boot's AG header figures, summed over its counted passes that carried agheader totals.
struct BootAgHeaders {
  std::uint64_t loops = 0;          ///< loops of the passes with agheader totals
  bool collected = false;           ///< some counted pass carried agheader totals
  std::optional<unsigned> agcount;  ///< the filesystem's AG count
  double dropped = 0;               ///< records the guest's full BPF map could not count
  bool stacks = false;              ///< some pass carried agheader stacks
  std::map<AgHeader, AgHeaderCounts> counts;
  /// Wait ns of the kept wait stacks, by header and the waiter's kind.
  std::map<AgHeader, std::map<TaskKind, double>> wait_ns_by_kind;
  /// Wait ns of the waits the guest walked no stack for (shorter than its threshold, 50 us),
  /// by header: shown as the share "in short waits".
  std::map<AgHeader, double> short_wait_ns;
  /// Held ns of the kept hold stacks, by header, the holder's kind and task name ("[rm]").
  std::map<AgHeader, std::map<TaskKind, std::map<std::string, double>>> held_ns_by_holder;
};

/// The AG header figures of a boot's counted passes as stored (store::ScoredBoot::passes). A
/// pass whose attribution is missing, unreadable or without `agheader.agcount` adds nothing.
BootAgHeaders ag_headers_of(const std::vector<store::CountedPass>& passes);

/// Whether any of `boots` carried agheader totals.
bool any_ag_headers(const std::vector<BootAgHeaders>& boots);

/// One {header, AG} over a set of boots.
struct AgHeaderRow {
  AgHeader at;
  double waited_ms_per_kloop = 0;         ///< median over the boots
  double held_ms_per_kloop = 0;           ///< median over the boots
  std::optional<double> contended_share;  ///< contended / waits, pooled; nullopt without waits
  /// Share of the wait time (pooled over the boots, of the totals' wait_ns) by waiter kind
  /// (task_kind_name), and "unclassified" for the wait time of stacks the guest did not keep;
  /// empty without wait stacks or wait time.
  std::map<std::string, double> wait_share;
  double longest_hold_ms = 0;             ///< longest single hold over the boots
  /// The holder kind with the most summed held time, with its task of most held time, e.g.
  /// "the inodegc worker [kworker/1:2]"; "" without hold stacks.
  std::string held_most_by;
};

/// The per-AG table of one set of boots.
struct AgTable {
  std::vector<AgHeaderRow> rows;  ///< by waited time, then held time, most first; at most `top`
  std::size_t left_out = 0;       ///< rows beyond `top`
  double left_out_waited_ms_per_kloop = 0;  ///< their waited ms per 1,000 loops, summed
  std::size_t boots = 0;          ///< boots with agheader totals and loops
  std::optional<unsigned> agcount;
  double dropped = 0;             ///< records not counted, summed over the boots
};

/// The table of `boots` (boots without agheader totals or loops are ignored): one row per
/// {header, AG} with any wait or hold; top 0 keeps every row.
AgTable ag_table(const std::vector<BootAgHeaders>& boots, std::size_t top = 10);

/// One {header, AG} on both sides.
struct AgHeaderChange {
  AgHeader at;
  double base_waited_ms_per_kloop = 0, new_waited_ms_per_kloop = 0;
  double base_held_ms_per_kloop = 0, new_held_ms_per_kloop = 0;
  std::optional<double> waited_change, held_change;  ///< (new - base) / base; nullopt when base is 0
  std::optional<AgHeaderRow> next;  ///< the new side's row (who waited, who held); nullopt when absent there
};

/// The two-sided per-AG table (base against new: two runs, the first bad commit against its parent).
struct AgComparison {
  std::vector<AgHeaderChange> rows;  ///< by |new - base| waited, then held, most first; at most `top`
  std::size_t left_out = 0;
  std::size_t base_boots = 0, new_boots = 0;
};

/// Both sides' tables joined by {header, AG}; nullopt when neither side has agheader totals.
std::optional<AgComparison> ag_compare(const std::vector<BootAgHeaders>& base, const std::vector<BootAgHeaders>& next,
                                       std::size_t top = 10);

}  // namespace rlab::attribution
