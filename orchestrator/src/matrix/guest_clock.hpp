#pragma once
// `guest.clock` and `guest.icount_shift`: the deterministic TCG mode (docs/matrix.md
// "Deterministic mode"). Internal to matrix/.
#include "matrix/yaml_check.hpp"

namespace rlab::matrix::detail {

/// Reads `clock` and `icount_shift` of the `guest:` mapping `g` into `guest` (whose `accel`
/// is already parsed). Throws MatrixError at the offending node for: a clock other than
/// realtime/icount, a shift that is not an integer in [0, kMaxIcountShift] (or is "auto"),
/// `icount_shift` without `clock: icount`, and `clock: icount` with `accel: kvm` (`accel:
/// auto` is resolved per host, where a KVM host refuses it: run/host_fit.hpp).
void parse_guest_clock(const Checker& ck, const YAML::Node& g, Guest& guest);

}  // namespace rlab::matrix::detail
