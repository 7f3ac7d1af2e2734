#include "run/estimate.hpp"

#include <algorithm>

namespace rlab::run {

double boot_overhead_s(vm::Accel accel) { return (accel == vm::Accel::kTcg ? 15 : 5) + 5 + 3; }

double boot_estimate_s(const matrix::Cell& c, vm::Accel accel) {
  const unsigned passes = c.workload.warmup_passes + c.workload.passes;
  return boot_overhead_s(accel) + passes * (c.workload.duration_s + kPassOverheadS);
}

double boots_estimate_s(const std::vector<const matrix::Cell*>& boots, vm::Accel accel, unsigned vcpu_budget) {
  double work_s = 0, longest = 0;
  for (const auto* c : boots) {
    const double e = boot_estimate_s(*c, accel);
    work_s += e * c->vcpus;
    longest = std::max(longest, e);
  }
  return std::max(longest, work_s / std::max(1u, vcpu_budget));
}

}  // namespace rlab::run
