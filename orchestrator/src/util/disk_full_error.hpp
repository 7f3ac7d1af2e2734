#pragma once
// The lab's own disk is full: a fault of the lab, never of the kernel or commit under test.
// Whatever was stored stays; the work ends unfinished (a run's boot stays running for
// `--resume`, a bisection stops to be resumed, never marking a commit skip for it).
#include <stdexcept>

namespace rlab {

/// A step failed for want of host disk space: a kernel build in the cache, or a guest whose
/// disk image's filesystem filled (QEMU paused it on ENOSPC). what() names the place, its free
/// space and the step's own message.
struct DiskFullError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace rlab
