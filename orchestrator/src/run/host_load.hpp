#pragma once
// The load of the machine rlab runs on around a boot: the 1-minute load average
// (/proc/loadavg) and CPU time by state (/proc/stat's aggregate `cpu` line), read before the
// domain starts and after it is gone (docs/noise.md "Host load").
#include "store/store.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace rlab::run {

/// Aggregate CPU time of all host CPUs, in USER_HZ ticks (1/100 s on Linux).
struct CpuTimes {
  std::uint64_t total = 0;  ///< user + nice + system + idle + iowait + irq + softirq + steal
  std::uint64_t idle = 0;   ///< idle + iowait
  std::uint64_t steal = 0;  ///< stolen by the hypervisor when the host is itself a guest
};

/// One reading of the host.
struct HostSnapshot {
  double load1 = 0;   ///< 1-minute load average
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
/// passed (0 when no tick passed), the load averages, the seconds between them. Pinning fields
/// are left for the caller.
store::BootHost host_between(const HostSnapshot& before, const HostSnapshot& after);

}  // namespace rlab::run
