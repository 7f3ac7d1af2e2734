#include "host/host_load.hpp"

#include "util/paths.hpp"

#include <libvirt/libvirt.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace rlab::host {

CpuTimes parse_proc_stat(const std::string& text, const std::string& where) {
  std::istringstream in(text);
  std::string label;
  in >> label;
  if (label != "cpu") throw std::runtime_error(where + ": no aggregate 'cpu' line first");
  std::vector<std::uint64_t> f;
  std::uint64_t v = 0;
  while (f.size() < 8 && in.peek() != '\n' && in >> v) f.push_back(v);
  if (f.size() < 4) throw std::runtime_error(where + ": the 'cpu' line has fewer than 4 fields");
  f.resize(8, 0);
  CpuTimes t;
  for (auto x : f) t.total += x;
  t.idle = f[3] + f[4];
  t.steal = f[7];
  return t;
}

double parse_loadavg(const std::string& text, const std::string& where) {
  std::istringstream in(text);
  double l = 0;
  if (!(in >> l) || l < 0) throw std::runtime_error(where + ": no load average in '" + text + "'");
  return l;
}

HostSnapshot read_host(const std::filesystem::path& proc) {
  HostSnapshot s;
  s.at = std::chrono::steady_clock::now();
  s.load1 = parse_loadavg(util::read_file(proc / "loadavg"), (proc / "loadavg").string());
  s.cpu = parse_proc_stat(util::read_file(proc / "stat"), (proc / "stat").string());
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  s.cpus = n > 0 ? static_cast<unsigned>(n) : 1;
  return s;
}

CpuTimes parse_node_cpu_stats(const std::vector<std::pair<std::string, std::uint64_t>>& fields,
                              const std::string& where) {
  std::optional<std::uint64_t> user, kernel, idle, iowait;
  for (const auto& [name, v] : fields) {
    if (name == VIR_NODE_CPU_STATS_USER) user = v;
    else if (name == VIR_NODE_CPU_STATS_KERNEL) kernel = v;
    else if (name == VIR_NODE_CPU_STATS_IDLE) idle = v;
    else if (name == VIR_NODE_CPU_STATS_IOWAIT) iowait = v;
  }
  if (!user || !kernel || !idle)
    throw std::runtime_error(where + ": node CPU stats lack user, kernel or idle time");
  CpuTimes t;
  t.idle = *idle + iowait.value_or(0);
  t.total = *user + *kernel + t.idle;
  t.steal_from_wall = true;
  return t;
}

HostSnapshot read_host(vm::Connection& conn) {
  auto h = conn.handle();
  auto c = static_cast<virConnectPtr>(h.get());
  int n = 0;
  if (virNodeGetCPUStats(c, VIR_NODE_CPU_STATS_ALL_CPUS, nullptr, &n, 0) < 0 || n <= 0)
    throw vm::LibvirtError(fmt::format("{}: cannot read the node CPU stats: {}", conn.uri(), vm::last_libvirt_error()));
  std::vector<virNodeCPUStats> p(static_cast<std::size_t>(n));
  virNodeInfo info{};
  HostSnapshot s;
  if (virNodeGetCPUStats(c, VIR_NODE_CPU_STATS_ALL_CPUS, p.data(), &n, 0) < 0 || virNodeGetInfo(c, &info) < 0)
    throw vm::LibvirtError(fmt::format("{}: cannot read the node CPU stats: {}", conn.uri(), vm::last_libvirt_error()));
  s.at = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, std::uint64_t>> fields;
  for (int i = 0; i < n; ++i) fields.emplace_back(p[static_cast<std::size_t>(i)].field, p[static_cast<std::size_t>(i)].value);
  s.cpu = parse_node_cpu_stats(fields, conn.uri());
  s.cpus = info.cpus ? info.cpus : 1;
  if (local_host_uri(conn.uri())) {
    try {
      s.load1 = parse_loadavg(util::read_file("/proc/loadavg"));
    } catch (const std::exception&) {
    }
  }
  return s;
}

std::optional<double> parse_cpuinfo_mhz(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  double sum = 0;
  unsigned n = 0;
  while (std::getline(in, line)) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::istringstream v(line.substr(colon + 1));
    double mhz = 0;
    if (v >> mhz && mhz > 0) {
      sum += mhz;
      ++n;
    }
  }
  if (!n) return std::nullopt;
  return sum / n;
}

std::optional<HostFrequency> read_host_frequency(const std::filesystem::path& sys,
                                                 const std::filesystem::path& proc) {
  namespace fs = std::filesystem;
  std::error_code ec;
  double sum = 0;
  unsigned n = 0;
  for (fs::directory_iterator it(sys, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 4 || name.rfind("cpu", 0) != 0 ||
        name.find_first_not_of("0123456789", 3) != std::string::npos)
      continue;
    try {
      std::istringstream v(util::read_file(it->path() / "cpufreq" / "scaling_cur_freq"));
      double khz = 0;
      if (v >> khz && khz > 0) {
        sum += khz / 1000.0;
        ++n;
      }
    } catch (const std::exception&) {  // no cpufreq for this CPU
    }
  }
  if (n) return HostFrequency{sum / n, "cpufreq"};
  try {
    if (auto mhz = parse_cpuinfo_mhz(util::read_file(proc / "cpuinfo"))) return HostFrequency{*mhz, "cpuinfo"};
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

bool local_host_uri(const std::string& uri) {
  const auto sep = uri.find("://");
  return sep != std::string::npos && uri.compare(sep, 4, ":///") == 0;
}

store::BootHost host_between(const HostSnapshot& a, const HostSnapshot& b) {
  store::BootHost h;
  h.cpus = b.cpus;
  h.load1_before = a.load1;
  h.load1_after = b.load1;
  h.seconds = std::chrono::duration<double>(b.at - a.at).count();
  if (b.cpu.total > a.cpu.total) {
    double dt = static_cast<double>(b.cpu.total - a.cpu.total);
    const double idle = b.cpu.idle >= a.cpu.idle ? static_cast<double>(b.cpu.idle - a.cpu.idle) : 0;
    double steal = b.cpu.steal >= a.cpu.steal ? static_cast<double>(b.cpu.steal - a.cpu.steal) : 0;
    if (b.cpu.steal_from_wall) {  // ns: the wall time of every CPU is the whole
      const double wall = h.seconds * 1e9 * b.cpus;
      steal = std::max(0.0, wall - dt);
      dt = std::max(dt, wall);
    }
    h.busy_fraction = std::clamp(1.0 - idle / dt, 0.0, 1.0);
    h.steal_fraction = std::clamp(steal / dt, 0.0, 1.0);
  }
  return h;
}

}  // namespace rlab::host
