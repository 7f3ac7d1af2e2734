#pragma once
// One boot's counters and "where the time went", summed over its counted passes, by family,
// as the "what changed" ranking (attribution/rank.hpp) reads them. Families, keys and units
// are listed in docs/attribution.md.
#include "rlab/protocol/messages.hpp"
#include "store/readers.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace rlab::attribution {

/// A counter family of the ranking.
enum class Family {
  tracepoint,  ///< xfs:* tracepoint hits (Counters::tracepoints); events
  xfs_stats,   ///< /proc/fs/xfs/stat "<group>.<index>" deltas; events
  vmstat,      ///< /proc/vmstat event counters (gauges "nr_*" left out); events
  psi,         ///< /proc/pressure stall time ("cpu.some", "io.full", ...); nanoseconds
  cpu,         ///< /proc/stat CPU time by state (user, nice, system, iowait, irq, softirq, steal); nanoseconds
  stat,        ///< /proc/stat context switches ("ctxt") and forks ("processes"); events
  lock,        ///< contended lock waits by waiting kernel stack, and the XFS AGI/AGF/buffer classes; nanoseconds
  offcpu,      ///< the load's time switched out in D or S by blocking stack; nanoseconds
  oncpu,       ///< cpu-clock samples by kernel stack and task; nanoseconds sampled
  agheader,    ///< XFS AG header buffers (AGI, AGF, AGFL) per AG: wait and held time, by header and by stack; nanoseconds
};

/// Every family, in display order.
inline constexpr Family kFamilies[] = {Family::lock,       Family::offcpu, Family::agheader, Family::oncpu,
                                       Family::psi,        Family::cpu,    Family::stat,     Family::tracepoint,
                                       Family::xfs_stats,  Family::vmstat};

/// "lock", "offcpu", "agheader", "oncpu", "psi", "cpu", "stat", "tracepoint", "xfs_stats", "vmstat".
std::string_view family_name(Family f);
/// The family named `name`; nullopt for any other text.
std::optional<Family> parse_family(std::string_view name);
/// Whether a family's values are time (nanoseconds) rather than event counts.
bool is_time(Family f);

/// What one key of a family is, which decides where the ranking shows it (attribution/rank.hpp).
/// The leading rows are the ones a person acts on: one kernel stack, a named part of a stack
/// family, one event counter. The context rows say how large the whole moved: a family's
/// total or remainder, CPU time by state, pressure.
enum class RowKind {
  stack,     ///< one kernel stack: a key of a stack family with at least one kernel frame (not in brackets)
  part,      ///< a named part of a stack family without a kernel stack: a lock class ("[AGI buffer]",
             ///< "[XFS buffer locks]"), an AG header ("[AGI of AG 3 waited]", "wait;[AGI of AG 3];[no stack]"),
             ///< a task's user-mode samples ("[user];[sh]")
  counter,   ///< one event counter: tracepoint, xfs_stats, vmstat, stat
  total,     ///< a stack family's whole ("[all]", "[D all]") or what its kept stacks leave ("[other stacks]",
             ///< "[D other stacks]", "[wait other stacks]", "[no stack]"), and the cpu family (CPU time by state)
  pressure,  ///< the psi family (stall time)
};

/// "stack", "part", "counter", "total", "pressure".
std::string_view row_kind_name(RowKind k);
/// Whether rows of kind `k` are context (total, pressure), shown after the leading rows.
bool is_context(RowKind k);
/// The kind of `key` of family `f` (keys as in BootProfile). O(key length).
RowKind row_kind(Family f, std::string_view key);

/// Summed over a boot's counted passes. Keys of stack families are the frames innermost first,
/// joined by ";" (with a "D;"/"S;" state prefix for offcpu, and ending in "[task]" for oncpu;
/// for agheader a "wait;"/"hold;" prefix, then the header frame "[AGI of AG 3]", and a hold
/// stack ends in the holder's "[task]"); keys in brackets are the family's totals ("[all]",
/// "[AGI buffer]", "[AGF buffer]", "[other stacks]", "[AGI of AG 3 waited]", "[AGI of AG 3 held]",
/// "[wait other stacks]", ...).
struct BootProfile {
  std::uint64_t loops = 0;                                   ///< counted loops of those passes
  std::map<Family, std::map<std::string, double>> values;    ///< family -> key -> events or ns
  std::set<Family> collected;                                ///< families every added pass had
  bool any_pass = false;                                     ///< add_pass() was called
};

/// Adds one counted pass: its loops, its counters, and its attribution (nullopt when the run
/// collected none). A family missing from any added pass is dropped from `collected` (its
/// values are then not comparable). The /proc/stat jiffies are taken at USER_HZ = 100.
void add_pass(BootProfile& p, std::uint64_t loops, const protocol::Counters& counters,
              const std::optional<protocol::Attribution>& attribution);

/// A pass's attribution as stored (passes.attribution_json), validated as the protocol reads
/// it. Throws nlohmann::json::exception or protocol::ProtocolException (both std::exception)
/// on malformed JSON.
protocol::Attribution read_stored_attribution(const std::string& json);

/// The profile of a boot's counted passes as stored (store::ScoredBoot::passes). A pass whose
/// JSON cannot be read (a store written by another rlab) counts with its loops but no counters.
BootProfile profile_of(const std::vector<store::CountedPass>& passes);

/// The display text of a stack key: at most `frames` frames, " < " between them (innermost
/// first), "…" when cut; an offcpu state or agheader kind prefix is shown as "D: ", "S: ",
/// "wait: " or "hold: " (not counted as a frame).
std::string short_stack(std::string_view key, std::size_t frames = 6);

}  // namespace rlab::attribution
