#pragma once
// Progress reporting shared by the kernel and image builders.
#include <functional>
#include <string_view>

namespace rlab::build {

/// Called with a phase ("fetch", "config", "patch", "build", "initramfs", "cache") and a
/// human-readable detail line. May be empty (no reporting).
using Progress = std::function<void(std::string_view phase, std::string_view detail)>;

/// Calls `p` when it is set.
inline void report(const Progress& p, std::string_view phase, std::string_view detail) {
  if (p) p(phase, detail);
}

}  // namespace rlab::build
