#pragma once
// What `hello` reports about the guest.
#include <string>
#include <string_view>

#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

/// The agent's version string (the project version).
extern const char* const kAgentVersion;

/// Fills a Hello from uname(2), sysconf, /proc/meminfo, tracefs discovery, the kernel log
/// (the hypervisor) and the boot timeline: $RLAB_INIT_UPTIME (set by the guest's /init), the
/// CLOCK_BOOTTIME when the agent started and now.
protocol::Hello collect_hello();

/// The guest's uptime (CLOCK_BOOTTIME, s) when this process started: read during static
/// initialisation, before main().
double agent_start_uptime_s();

/// `text` as the seconds /init passes in RLAB_INIT_UPTIME ("0.81", /proc/uptime's first
/// field); nullopt when it is no finite number >= 0.
std::optional<double> parse_uptime(const char* text);

/// "kvm" when `kernel_log` (the guest kernel's log) has the line arm64 guests print when KVM's
/// vendor hypervisor services answer them ("smccc: KVM: hypervisor services detected", from
/// drivers/firmware/smccc/kvm_guest.c), else "none" (TCG offers no such services).
std::string hypervisor_from_log(std::string_view kernel_log);

/// The kernel log's whole buffer (klogctl SYSLOG_ACTION_READ_ALL); "" when it cannot be read.
std::string read_kernel_log();

/// MemTotal in KiB from /proc/meminfo text; 0 when absent.
std::uint64_t parse_mem_total_kib(const std::string& meminfo);

/// The `Rss:` line of /proc/<pid>/smaps_rollup text, in KiB; 0 when absent.
std::uint64_t parse_rollup_rss_kib(const std::string& smaps_rollup);

/// The agent's resident set now, in KiB, exact: /proc/self/smaps_rollup walks the page tables.
/// getrusage's ru_maxrss and VmHWM come from the kernel's per-CPU RSS counters, which are only
/// folded into the total once a CPU's delta passes its batch (at least 32 pages): with 64K pages
/// the agent's ~70 pages can read as 0 there. 0 when smaps_rollup is unreadable
/// (no CONFIG_PROC_PAGE_MONITOR).
std::uint64_t current_rss_kib();

/// The agent's peak RSS in KiB as reported in `result.agent_max_rss_kib`: the larger of
/// getrusage(RUSAGE_SELF).ru_maxrss and `seen_kib` (the largest current_rss_kib() the caller
/// observed, e.g. at each pass end).
std::uint64_t peak_rss_kib(std::uint64_t seen_kib);

/// CPU time (user + system, seconds) the calling thread has used: getrusage(RUSAGE_THREAD).
double thread_cpu_s();

}  // namespace rlab::agent
