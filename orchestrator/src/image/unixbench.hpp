#pragma once
// UnixBench's own shell1 programs in the guest, for workloads with `runner: unixbench` or
// `runner: bare` (docs/agent.md "Running UnixBench's own scripts"): its looper built for
// aarch64 and its multi.sh, tst.sh and testdir/sort.src, taken from the user's UnixBench
// directory and packed under /opt/unixbench in an archive the kernel unpacks before rlab's
// initramfs, with rlab's bare guest init (images/bare/init) as /bare-init.
#include "image/guest_images.hpp"

#include <filesystem>
#include <string>

namespace rlab::image {

/// Where the packed files appear in the guest (the agent's `run.unixbench_dir`).
inline constexpr const char* kGuestUnixbenchDir = "/opt/unixbench";

/// Where the bare guest's init is in the guest: a kernel booted with `rdinit=/bare-init` runs it
/// as PID 1 instead of rlab's /init and its agent (runner "bare", run/bare_guest.hpp).
inline constexpr const char* kBareInit = "/bare-init";

/// The uncompressed newc archive of opt/unixbench/{pgms/looper, pgms/multi.sh, pgms/tst.sh,
/// testdir/sort.src} for UnixBench directory `dir` (holding src/looper.c, src/timeit.c, pgms/,
/// testdir/), and bare-init (images/bare/init). looper is compiled static for aarch64
/// (aarch64-linux-gnu-gcc -O2 -static) from src/looper.c, which includes src/timeit.c. Cached
/// under util::cache_dir()/unixbench by the SHA-256 of those sources and scripts. Throws
/// std::runtime_error naming the missing file or the compiler's error.
std::filesystem::path unixbench_archive(const std::filesystem::path& dir);

/// `img` with `archive` unpacked first: a new initramfs (archive bytes, then img's initramfs;
/// the kernel unpacks concatenated archives in order) cached by both keys, and an image_key
/// that names both. The kernel is unchanged.
GuestImages with_archive(const GuestImages& img, const std::filesystem::path& archive);

}  // namespace rlab::image
