#pragma once
// Two runs of the fixture matrix whose cells exercise every verdict:
//  - 6.12/xfs-defaults: 270 lpm ± 2% -> 240 lpm ± 2% (-11%): different, a regression, with
//    inodegc throttling rising sharply;
//  - 6.12/xfs-agcount4: 270 ± 0.3% -> 270.5 ± 0.3%: same;
//  - 6.12+inline-inactivation/*: 5 noisy boots a side (12%), medians 270 vs 262: unknown.
#include "store_fixture.hpp"

#include <array>

namespace rlab::testing {

inline const std::string kDefaults = "6.12/xfs-defaults/2vcpu/shell1";
inline const std::string kAgcount4 = "6.12/xfs-agcount4/2vcpu/shell1";
inline const std::string kInlineDefaults = "6.12+inline-inactivation/xfs-defaults/2vcpu/shell1";
inline const std::string kInlineAgcount4 = "6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1";

/// Standardised noise, a different order per cell so that no two samples move together.
inline double z(unsigned r, unsigned shift) {
  static constexpr std::array<double, 10> kZ = {-1.5, -1.0, -0.6, -0.3, -0.1,
                                                0.1,  0.3,  0.6,  1.0,  1.5};
  return kZ[(r * 7 + shift) % 10];
}

/// `which` = 0 for the base run, 1 for the new run.
inline BootSpec scenario_boot(int which, const std::string& cell, const std::string& kernel,
                              unsigned r) {
  const bool patched = kernel != "6.12";
  const bool agcount4 = cell.find("agcount4") != std::string::npos;
  BootSpec b;
  b.env = tcg_env(agcount4 ? R"(["-d","agcount=4"])" : "[]", patched);
  if (!patched && !agcount4) {
    b.score = which == 0 ? 270.0 * (1 + 0.02 * z(r, 1)) : 240.0 * (1 + 0.02 * z(r, 4));
    b.tracepoints = which == 0
        ? std::map<std::string, double>{{"xfs:xfs_inodegc_queue", 200}, {"xfs:xfs_inodegc_worker", 20},
                                        {"xfs:xfs_inodegc_throttle", 2}, {"xfs:xfs_inodegc_push", 0}}
        : std::map<std::string, double>{{"xfs:xfs_inodegc_queue", 210}, {"xfs:xfs_inodegc_worker", 20},
                                        {"xfs:xfs_inodegc_throttle", 30}, {"xfs:xfs_inodegc_push", 5},
                                        {"xfs:xfs_inodegc_shrinker_scan", 1}};
  } else if (!patched) {
    b.score = which == 0 ? 270.0 * (1 + 0.003 * z(r, 2)) : 270.5 * (1 + 0.003 * z(r, 6));
    b.tracepoints = {{"xfs:xfs_inodegc_queue", 200}};
  } else {
    if (r >= 5) return b;  // only 5 boots measured: left pending
    static constexpr std::array<double, 5> kBase = {240, 300, 270, 250, 290};
    static constexpr std::array<double, 5> kNew = {262, 235, 295, 280, 255};
    b.score = which == 0 ? kBase[r] : kNew[r];
  }
  return b;
}

}  // namespace rlab::testing
