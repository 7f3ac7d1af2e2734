#pragma once
// "What changed" between two sets of boots, across every counter family, per 1,000 loops.
//
// Per boot and key: x = 1000 * value / loops (events, or nanoseconds, per 1,000 loops), over
// the boot's counted passes (attribution/profile.hpp). Per key: the medians of x over each
// side's boots, the relative change (new - base) / base, and a two-sided Mann-Whitney U test of
// the boots' x (stats/mann_whitney.hpp; needs 2+ boots a side). The p-values of one family are
// adjusted together by Benjamini & Hochberg's step-up procedure (J. R. Statist. Soc. B 57
// (1995) 289-300) into q-values, so a family with hundreds of stacks does not flag movers by
// chance more often than one with five counters: a row is significant when q <= fdr.
// Each key has a kind (RowKind, profile.hpp). The leading rows (Ranking::rows) are what a
// person looks at first: the kernel stacks, then the named parts of the stack families (lock
// classes, AG headers), then the event counters. The context rows (Ranking::context) come
// after them: the families' totals and remainders, CPU time by state and pressure. These hold
// the stacks' time or follow from it (more time in the kernel is more CPU system time and more
// runnable tasks waiting), so they move at least as much and would otherwise lead.
// Time rows (stacks, parts, context) are ordered by whether the boots tell the sides apart
// (the row's own p <= fdr), then by the time they moved (|new - base| in ns per 1,000 loops,
// the largest first), then significance, then |log(new / base)|. The q-value does not order
// them: with a few boots a side a stack of a family of a hundred rarely survives the
// false-discovery adjustment while a figure of a family of two does; the unadjusted p keeps a
// large stack that only wobbles (p > fdr) below a smaller one that moved in every boot.
// Counters are ordered significant first, then by |log(new / base)| (a key that rose from or
// fell to zero first), then by the absolute change.
// Rows where every boot of both sides is below the family's floor (1 event, or 1 microsecond,
// per 1,000 loops) are left out: nothing there can apply to the cell (e.g. XFS tracepoints on
// ext4). Cost O(K (B log B + B_a B_b)) for K keys and B boots.
#include "attribution/profile.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rlab::attribution {

/// Thresholds of rank().
struct RankOptions {
  double fdr = 0.05;             ///< false discovery rate within each family, in (0, 1)
  std::size_t top = 25;          ///< most leading rows returned (Ranking::rows; 0: all)
  std::size_t context_top = 10;  ///< most context rows returned (Ranking::context; 0: all)
};

/// One key's change.
struct Mover {
  Family family = Family::tracepoint;
  std::string key;                ///< counter name, or stack key (profile.hpp)
  RowKind kind = RowKind::counter;  ///< row_kind(family, key)
  double base_per_kloop = 0;      ///< median over the base boots; ns or events per 1,000 loops
  double new_per_kloop = 0;       ///< median over the new boots
  /// (new - base) / base; nullopt when base is 0 (rose from zero).
  std::optional<double> change;
  std::optional<double> p;        ///< Mann-Whitney two-sided p; nullopt with < 2 boots a side
  std::optional<double> q;        ///< Benjamini-Hochberg adjusted p within the family
  bool significant = false;       ///< q <= fdr
};

/// The ranking and what it covered.
struct Ranking {
  /// The leading rows, kinds stack, part and counter in that order, ranked within each kind;
  /// at most options.top.
  std::vector<Mover> rows;
  std::size_t left_out = 0;              ///< leading rows beyond options.top
  /// The context rows, kinds total and pressure, by the time they moved; at most
  /// options.context_top. Shown after (beside) the leading rows.
  std::vector<Mover> context;
  std::size_t context_left_out = 0;      ///< context rows beyond options.context_top
  std::size_t base_boots = 0, new_boots = 0;
  std::vector<Family> families;          ///< compared: collected in every boot of both sides
  /// Collected on one side only, or on neither (not compared); the agheader family (XFS only)
  /// is left out when no boot of either side collected it.
  std::vector<Family> missing;

  /// Whether no key moved above its floor: no leading row and no context row.
  bool empty() const { return rows.empty() && context.empty(); }
};

/// Ranks every key of the families both sides collected: `base` and `next` are the two sides'
/// boots (profiles as summed by add_pass); values in the rows are medians over each side's
/// boots of ns or events per 1,000 loops. The leading rows and the context rows are ranked and
/// cut separately (see the file's comment). Boots without loops are ignored. Throws
/// std::invalid_argument when options.fdr is not in (0, 1).
Ranking rank(const std::vector<BootProfile>& base, const std::vector<BootProfile>& next, const RankOptions& options = {});

/// Benjamini-Hochberg q-values of `p`, in the same order: q_(i) = min over j >= i of
/// p_(j) * m / j for the sorted p, capped at 1. Exposed for tests.
std::vector<double> benjamini_hochberg(const std::vector<double>& p);

}  // namespace rlab::attribution
