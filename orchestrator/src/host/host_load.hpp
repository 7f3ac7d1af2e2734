#pragma once
// The load of the host a guest runs on, around a boot and per sample: CPU time by state from
// the host's own libvirt (virNodeGetCPUStats: any host, local or remote), and for a host on
// this machine also the 1-minute load average (/proc/loadavg), which libvirt does not report
// (docs/noise.md "Host load"). /proc/stat is kept as the reference the libvirt figures are
// tested against.
#include "store/store.hpp"
#include "vm/libvirt.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rlab::host {

/// Aggregate CPU time of all host CPUs: USER_HZ ticks (1/100 s) from /proc/stat, or ns from
/// libvirt. Differences of two readings of the same source only.
struct CpuTimes {
  std::uint64_t total = 0;  ///< /proc: user + nice + system + idle + iowait + irq + softirq + steal;
                            ///< libvirt: user + kernel + idle + iowait (no steal)
  std::uint64_t idle = 0;   ///< idle + iowait
  std::uint64_t steal = 0;  ///< stolen by the hypervisor when the host is itself a guest (/proc only)
  /// libvirt's reading: steal is not reported, so an interval's total is its wall time x CPUs
  /// and steal what the four states leave of it (host_between).
  bool steal_from_wall = false;
};

/// One reading of the host.
struct HostSnapshot {
  double load1 = 0;   ///< 1-minute load average; 0 for a remote host (libvirt has none)
  CpuTimes cpu;
  unsigned cpus = 0;  ///< online CPUs (sysconf)
  std::chrono::steady_clock::time_point at;
};

/// Parses /proc/stat text: the first line "cpu  user nice system idle iowait irq softirq steal
/// ...". Throws std::runtime_error naming `where` when the line is missing or short (fewer than
/// four numbers); absent later fields count as 0.
CpuTimes parse_proc_stat(const std::string& text, const std::string& where = "/proc/stat");

/// Parses /proc/loadavg text ("0.52 0.58 0.59 1/467 12345"): the 1-minute figure. Throws
/// std::runtime_error naming `where` when it is not a number.
double parse_loadavg(const std::string& text, const std::string& where = "/proc/loadavg");

/// Reads `proc`/loadavg and `proc`/stat. Throws std::runtime_error when they cannot be read.
HostSnapshot read_host(const std::filesystem::path& proc = "/proc");

/// Parses virNodeGetCPUStats' fields (name, ns): "user", "kernel", "idle", "iowait" (others
/// ignored) into CpuTimes with steal_from_wall. Throws std::runtime_error naming `where` when
/// user, kernel or idle is missing.
CpuTimes parse_node_cpu_stats(const std::vector<std::pair<std::string, std::uint64_t>>& fields,
                              const std::string& where);

/// The host of `conn` from its libvirt: virNodeGetCPUStats over all CPUs and virNodeGetInfo's
/// active CPUs, plus this machine's load average when the URI is local (local_host_uri).
/// Throws vm::LibvirtError when libvirt cannot answer.
HostSnapshot read_host(vm::Connection& conn);

/// The host CPUs' frequency at one moment and where it was read.
struct HostFrequency {
  double mhz = 0;       ///< mean over the CPUs that report one, MHz
  std::string source;   ///< "cpufreq" (scaling_cur_freq) or "cpuinfo" ("cpu MHz")
};

/// Parses /proc/cpuinfo text: the mean of its "cpu MHz : N" lines (x86; arm64 has none);
/// nullopt when there is none.
std::optional<double> parse_cpuinfo_mhz(const std::string& text);

/// The host CPU frequency: the mean of `sys`/cpu<N>/cpufreq/scaling_cur_freq (kHz, converted
/// to MHz) over the CPUs that have one; else the mean "cpu MHz" of `proc`/cpuinfo; else
/// nullopt (a guest host without cpufreq on arm64). Never throws.
std::optional<HostFrequency> read_host_frequency(const std::filesystem::path& sys = "/sys/devices/system/cpu",
                                                 const std::filesystem::path& proc = "/proc");

/// Whether the libvirt `uri` names a daemon on this machine ("qemu:///system",
/// "qemu:///session", "test:///default": no host part), so that this machine's /proc and /sys
/// describe the host the guest runs on. "qemu+tcp://127.0.0.1/system" counts as remote.
bool local_host_uri(const std::string& uri);

/// The store's host facts between two readings: busy and steal shares of the CPU time that
/// passed (0 when none passed), the load averages, the seconds between them. For libvirt's
/// readings the CPU time that passed is max(wall seconds x CPUs, the four states' sum) and
/// steal the difference: exact to the jitter of the two calls' latency (a millisecond on a
/// 1 s sample, 0.1%). Pinning fields are left for the caller.
store::BootHost host_between(const HostSnapshot& before, const HostSnapshot& after);

}  // namespace rlab::host
