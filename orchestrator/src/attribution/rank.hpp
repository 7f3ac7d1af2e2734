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
// Rows are ranked significant first, then by |log(new / base)| (a key that rose from or fell
// to zero first), then by the absolute change. Rows where every boot of both sides is below
// the family's floor (1 event, or 1 microsecond, per 1,000 loops) are left out: nothing there
// can apply to the cell (e.g. XFS tracepoints on ext4). Cost O(K (B log B + B_a B_b)) for K
// keys and B boots.
#include "attribution/profile.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rlab::attribution {

/// Thresholds of rank().
struct RankOptions {
  double fdr = 0.05;     ///< false discovery rate within each family, in (0, 1)
  std::size_t top = 25;  ///< most rows returned (0: all)
};

/// One key's change.
struct Mover {
  Family family = Family::tracepoint;
  std::string key;                ///< counter name, or stack key (profile.hpp)
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
  std::vector<Mover> rows;               ///< ranked, at most options.top
  std::size_t left_out = 0;              ///< ranked rows beyond options.top
  std::size_t base_boots = 0, new_boots = 0;
  std::vector<Family> families;          ///< compared: collected in every boot of both sides
  /// Collected on one side only, or on neither (not compared); the agheader family (XFS only)
  /// is left out when no boot of either side collected it.
  std::vector<Family> missing;
};

/// Ranks every key of the families both sides collected. Boots without loops are ignored.
/// Throws std::invalid_argument when options.fdr is not in (0, 1).
Ranking rank(const std::vector<BootProfile>& base, const std::vector<BootProfile>& next, const RankOptions& options = {});

/// Benjamini-Hochberg q-values of `p`, in the same order: q_(i) = min over j >= i of
/// p_(j) * m / j for the sorted p, capped at 1. Exposed for tests.
std::vector<double> benjamini_hochberg(const std::vector<double>& p);

}  // namespace rlab::attribution
