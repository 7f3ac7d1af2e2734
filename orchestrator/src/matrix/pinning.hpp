#pragma once
// `guest.pinning`: vCPU and emulator-thread pinning (docs/matrix.md "Pinning"). Internal to
// matrix/.
#include "matrix/yaml_check.hpp"

namespace rlab::matrix::detail {

/// Reads `pinning` of the `guest:` mapping `g` (if present) into `guest.pinning`. Throws
/// MatrixError at the offending node for: a non-mapping, unknown or repeated keys, `vcpus`
/// other than auto/none, `emulator` other than vcpus/none, `host_cpus` that is not a
/// non-empty list of distinct integers in [0, 4095], and `allow_oversubscription` that is
/// not true/false.
void parse_pinning(const Checker& ck, const YAML::Node& g, Guest& guest);

}  // namespace rlab::matrix::detail
