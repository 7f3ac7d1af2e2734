#pragma once
// The kernel Image and initramfs the booted-guest tests and the guest benchmark boot: taken
// from rlab's own content-addressed image cache (docs/images.md), so they are the cache
// entries every other real-guest test uses.
#include <string>

#include "guest/qemu_guest.hpp"

namespace rlab::agent::test {

/// A GuestSpec with `kernel` and `initramfs` filled in (other fields at their defaults).
///
/// * `$RLAB_GUEST_KERNEL` and `$RLAB_GUEST_INITRAMFS` both set: those files (an override for
///   trying other images); only one of them set is an error.
/// * otherwise runs `rlab images build <kernel_name> [--agent $RLAB_AGENT_AARCH64]` — rlab is
///   `$RLAB_BIN`, else the `rlab` built with this tree — and takes `kernel_image` and
///   `initramfs` from its JSON. A cache hit builds nothing; on an empty cache this builds the
///   kernel (10–60 min on 2 cores) and the initramfs once, for every later test. The kernel name
///   is one of matrix.yaml's `kernels:`; "6.12" is the repository's default (64K pages).
///
/// Throws std::runtime_error when the images cannot be had: the message names the command,
/// its exit status and the last lines of its stderr, or the missing file / variable.
GuestSpec guest_spec(const std::string& kernel_name = "6.12");

}  // namespace rlab::agent::test
