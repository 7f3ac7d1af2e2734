#pragma once
// Booting a kernel + initramfs in the /init self-test mode (kernel command line
// `rlab.selftest=1`) as a transient libvirt domain with the lab's own machine (domain_xml()),
// and reading what the guest reports on its console. Used by the image tests and `rlab images
// selftest`.
#include "vm/libvirt.hpp"

#include <filesystem>

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace rlab::vm {

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
  double wall_seconds = 0;             ///< domain start to power-off, host time
};

/// Parses console output (other lines are ignored; "\r" tolerated).
SelftestReport parse_selftest(std::string_view console);

/// How to boot.
struct SelftestOptions {
  unsigned vcpus = 1;
  unsigned memory_mib = 1024;
  std::chrono::seconds timeout{300};
};

/// Boots `kernel_image` + `initramfs` on `conn` as the transient domain "rlab-selftest-<pid>"
/// (TCG, `max` CPU without pointer authentication, the agent's virtio-serial port, console on
/// the PL011: domain_xml()), copied first into /var/tmp/rlab-selftest-<pid>/ where QEMU's user
/// can read them, waits for the guest to power off and returns the parsed console. Throws
/// LibvirtError when the domain cannot start, std::runtime_error with the console tail when
/// the report is incomplete or the guest is still up after the timeout (it is destroyed).
SelftestReport run_selftest(Connection& conn, const std::filesystem::path& kernel_image,
                            const std::filesystem::path& initramfs, const SelftestOptions& options);

}  // namespace rlab::vm
