#pragma once
// What the agent tests need from this machine's kernel, set up by the tests themselves so that
// the test binary alone works on a fresh machine (no systemd, no tracefs mounted, no modules
// loaded beyond what boot needed). Both need root, like the loop devices the prepare tests
// use. scripts/host-setup.sh does the same before ctest.
#include <filesystem>
#include <string>

namespace rlab::agent::test {

/// Mounts tracefs (mount(2), type "tracefs") on /sys/kernel/tracing when the agent finds no
/// tracefs (rlab::agent::find_tracefs()). Returns "" when tracefs is there afterwards, else why
/// it is not (the kernel has none, or the mount was refused and with what error).
std::string ensure_tracefs();

/// Makes loop devices available: when /dev/loop-control is missing, loads the loop module
/// (`modprobe loop`). Returns "" when /dev/loop-control exists afterwards, else why not.
std::string ensure_loop_control();

/// A loop device over a sparse 512 MiB file `dir`/disk.img (losetup --find); on destruction
/// `mountpoint` is unmounted (every mount on it) and the device detached. Throws
/// std::runtime_error when no loop device can be had.
struct LoopDisk {
  LoopDisk(const std::filesystem::path& dir, const std::filesystem::path& mnt);
  ~LoopDisk();
  LoopDisk(const LoopDisk&) = delete;
  LoopDisk& operator=(const LoopDisk&) = delete;
  std::string device;  ///< /dev/loopN
  std::filesystem::path mountpoint;
};

}  // namespace rlab::agent::test
