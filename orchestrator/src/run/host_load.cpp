#include "run/host_load.hpp"

#include "util/paths.hpp"

#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace rlab::run {

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

store::BootHost host_between(const HostSnapshot& a, const HostSnapshot& b) {
  store::BootHost h;
  h.cpus = b.cpus;
  h.load1_before = a.load1;
  h.load1_after = b.load1;
  h.seconds = std::chrono::duration<double>(b.at - a.at).count();
  if (b.cpu.total > a.cpu.total) {
    const double dt = static_cast<double>(b.cpu.total - a.cpu.total);
    const double idle = b.cpu.idle >= a.cpu.idle ? static_cast<double>(b.cpu.idle - a.cpu.idle) : 0;
    const double steal = b.cpu.steal >= a.cpu.steal ? static_cast<double>(b.cpu.steal - a.cpu.steal) : 0;
    h.busy_fraction = std::clamp(1.0 - idle / dt, 0.0, 1.0);
    h.steal_fraction = std::clamp(steal / dt, 0.0, 1.0);
  }
  return h;
}

}  // namespace rlab::run
