#include "serve/sysinfo.hpp"

#include <sys/klog.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <filesystem>
#include <cstdlib>
#include <sstream>

#include "common/fileio.hpp"
#include "counters/tracepoints.hpp"

#ifndef RLAB_VERSION
#define RLAB_VERSION "0.0.0"
#endif

namespace rlab::agent {

const char* const kAgentVersion = RLAB_VERSION;

namespace {

/// Seconds since the kernel started, suspend included (CLOCK_BOOTTIME, as /proc/uptime).
double boottime_s() {
  timespec t{};
  ::clock_gettime(CLOCK_BOOTTIME, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// When the agent started: read during static initialisation, before main().
const double kStartUptime = boottime_s();

}  // namespace

double agent_start_uptime_s() { return kStartUptime; }

std::optional<double> parse_uptime(const char* text) {
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (*end != '\0' || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

std::uint64_t parse_mem_total_kib(const std::string& meminfo) {
  std::istringstream in(meminfo);
  std::string key;
  std::uint64_t v = 0;
  while (in >> key >> v) {
    if (key == "MemTotal:") return v;
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

std::string hypervisor_from_log(std::string_view kernel_log) {
  return kernel_log.find("KVM: hypervisor services detected") != std::string_view::npos ? "kvm" : "none";
}

std::string read_kernel_log() {
  const int size = ::klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, nullptr, 0);
  if (size <= 0) return "";
  std::string buf(static_cast<std::size_t>(size), '\0');
  const int n = ::klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf.data(), size);
  buf.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return buf;
}

std::uint64_t parse_rollup_rss_kib(const std::string& smaps_rollup) {
  const auto at = smaps_rollup.find("\nRss:");
  if (at == std::string::npos) return 0;
  return std::strtoull(smaps_rollup.c_str() + at + 5, nullptr, 10);
}

std::uint64_t current_rss_kib() {
  auto t = read_file("/proc/self/smaps_rollup");
  return t ? parse_rollup_rss_kib(*t) : 0;
}

std::uint64_t peak_rss_kib(std::uint64_t seen_kib) {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  return std::max(static_cast<std::uint64_t>(ru.ru_maxrss), seen_kib);
}

double thread_cpu_s() {
  rusage ru{};
  ::getrusage(RUSAGE_THREAD, &ru);
  return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

protocol::Hello collect_hello() {
  protocol::Hello h;
  h.agent_version = kAgentVersion;
  utsname u{};
  if (::uname(&u) == 0) h.kernel_release = u.release;
  h.page_size = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  h.nr_cpus = static_cast<std::uint32_t>(::sysconf(_SC_NPROCESSORS_ONLN));
  if (auto m = read_file("/proc/meminfo")) h.mem_total_kib = parse_mem_total_kib(*m);
  if (auto t = find_tracefs()) {
    auto events = discover_events(*t);
    for (const auto& e : events) h.tracepoints.push_back("xfs:" + e);
    h.hist_triggers = hist_available(*t, events);
    if (!events.empty()) h.tracepoint_counting = h.hist_triggers ? "hist" : "perf";
  }
  std::error_code ec;
  h.xfs_stats = std::filesystem::exists("/sys/fs/xfs/stats/stats", ec) || std::filesystem::exists("/proc/fs/xfs/stat", ec);
  h.pid1 = ::getpid() == 1;
  if (const std::string log = read_kernel_log(); !log.empty()) h.hypervisor = hypervisor_from_log(log);
  h.init_uptime_s = parse_uptime(std::getenv("RLAB_INIT_UPTIME"));
  h.agent_uptime_s = kStartUptime;
  h.uptime_s = boottime_s();
  return h;
}

}  // namespace rlab::agent
