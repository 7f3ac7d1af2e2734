#pragma once
// Booting a kernel + initramfs under qemu-system-aarch64 in the /init self-test mode
// (kernel command line `rlab.selftest=1`) and reading what the guest reports. Used by the
// image tests and `rlab images selftest`; the lab's real guests run under libvirt (vm/).
#include "image/guest_images.hpp"

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace rlab::image {

/// What /init printed as "RLAB-SELFTEST key=value" lines.
struct SelftestReport {
  bool complete = false;               ///< saw both "begin" and "end"
  std::optional<unsigned long> page_size;  ///< bytes, getconf PAGESIZE
  std::optional<unsigned> nproc;           ///< online CPUs
  std::optional<double> init_uptime_s;     ///< /proc/uptime when /init started: boot to /init
  std::string kernel_release;
  std::set<std::string> filesystems;   ///< /proc/filesystems names
  std::set<std::string> tracepoints;   ///< "xfs:xfs_inodegc_*" events present in tracefs
  std::set<std::string> virtio_ports;  ///< names linked under /dev/virtio-ports
  std::set<std::string> tools;         ///< commands found in PATH
  bool hist_triggers = false;
  std::string console;                 ///< the whole serial console output
  double wall_seconds = 0;             ///< QEMU start to exit, host time
};

/// Parses console output (other lines are ignored; "\r" tolerated).
SelftestReport parse_selftest(std::string_view console);

/// How to boot.
struct SelftestOptions {
  unsigned vcpus = 1;
  unsigned memory_mib = 1024;
  std::chrono::seconds timeout{300};
  /// "max,pauth=off" under TCG; pointer authentication emulation is 3-6x slower.
  std::string cpu = "max,pauth=off";
};

/// Boots `kernel_image` + `initramfs` with `qemu-system-aarch64 -M virt,gic-version=3`
/// (TCG), one virtio-serial port named org.rlab.agent.0, console on the PL011, and returns
/// the parsed report. Throws std::runtime_error with the console tail when QEMU fails or
/// times out.
SelftestReport run_selftest(const std::filesystem::path& kernel_image,
                            const std::filesystem::path& initramfs, const SelftestOptions& options);

}  // namespace rlab::image
