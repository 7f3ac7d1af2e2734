#pragma once
// How long boots are expected to take, before any has run: the initial ETA of `rlab run` and
// the estimate of `rlab run --dry-run`. All figures are wall seconds.
#include "matrix/matrix.hpp"
#include "vm/domain_xml.hpp"

#include <vector>

namespace rlab::run {

/// Seconds one boot spends besides its passes: start to agent hello (15 under TCG, 5 under
/// KVM), mkfs and mount (5), shutdown (3).
double boot_overhead_s(vm::Accel accel);

/// Seconds a pass of `w` takes beyond its duration_s: caches dropped, result sent (2).
inline constexpr double kPassOverheadS = 2;

/// Expected seconds of one boot of `cell`: boot_overhead_s(accel) + (warm-up + counted
/// passes) x (duration_s + kPassOverheadS).
double boot_estimate_s(const matrix::Cell& cell, vm::Accel accel);

/// Expected seconds of running every boot in `boots` (one entry per boot) on hosts whose vCPU
/// budgets add up to `vcpu_budget`: the vCPU-weighted sum of boot_estimate_s() spread over
/// the budget, and never less than the longest single boot.
double boots_estimate_s(const std::vector<const matrix::Cell*>& boots, vm::Accel accel, unsigned vcpu_budget);

}  // namespace rlab::run
