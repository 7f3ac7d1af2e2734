#include "host/pinning.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>
#include <libvirt/libvirt.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>
#include <stdexcept>
#include <tuple>

namespace rlab::host {

std::vector<HostCpu> parse_topology(const std::string& xml) {
  std::vector<HostCpu> out;
  const auto topo_at = xml.find("<topology>");
  if (topo_at == std::string::npos) throw std::runtime_error("host capabilities: no <topology>");
  static const std::regex cell_re(R"(<cell id='(\d+)'>)");
  static const std::regex cpu_re(R"(<cpu id='(\d+)'([^>]*)/>)");
  static const std::regex socket_re(R"(socket_id='(\d+)')");
  static const std::regex core_re(R"(core_id='(\d+)')");
  const std::string topo = xml.substr(topo_at, xml.find("</topology>", topo_at) - topo_at);
  // Walk the cells in order; each cpu belongs to the last cell opened before it.
  std::vector<std::pair<std::size_t, unsigned>> cells;
  for (std::sregex_iterator it(topo.begin(), topo.end(), cell_re), end; it != end; ++it)
    cells.emplace_back(it->position(), static_cast<unsigned>(std::stoul((*it)[1])));
  for (std::sregex_iterator it(topo.begin(), topo.end(), cpu_re), end; it != end; ++it) {
    HostCpu c;
    c.id = static_cast<unsigned>(std::stoul((*it)[1]));
    const std::string attrs = (*it)[2];
    std::smatch m;
    if (std::regex_search(attrs, m, socket_re)) c.socket = static_cast<unsigned>(std::stoul(m[1]));
    if (std::regex_search(attrs, m, core_re)) c.core = static_cast<unsigned>(std::stoul(m[1]));
    for (const auto& [pos, id] : cells)
      if (pos < static_cast<std::size_t>(it->position())) c.numa_cell = id;
    out.push_back(c);
  }
  if (out.empty()) throw std::runtime_error("host capabilities: the topology lists no CPU");
  std::sort(out.begin(), out.end(), [](const HostCpu& a, const HostCpu& b) {
    return std::tie(a.numa_cell, a.socket, a.core, a.id) < std::tie(b.numa_cell, b.socket, b.core, b.id);
  });
  return out;
}

std::vector<HostCpu> host_topology(vm::Connection& conn) {
  char* caps = virConnectGetCapabilities(static_cast<virConnectPtr>(conn.handle().get()));
  if (!caps)
    throw vm::LibvirtError(conn.uri() + ": cannot read the host capabilities: " +
                           vm::last_libvirt_error());
  std::string xml(caps);
  std::free(caps);
  return parse_topology(xml);
}

std::vector<unsigned> pinning_cpus(const matrix::Pinning& p, const std::vector<HostCpu>& topo,
                                   const std::string& uri, unsigned budget, unsigned largest) {
  std::vector<unsigned> cpus;
  if (p.host_cpus.empty()) {
    for (const auto& c : topo) cpus.push_back(c.id);
  } else {
    std::set<unsigned> known;
    for (const auto& c : topo) known.insert(c.id);
    for (unsigned c : p.host_cpus) {
      if (!known.count(c))
        throw UsageError(fmt::format(
            "guest.pinning.host_cpus: host {} has no CPU {} (it has {})", uri, c,
            fmt::join(known, ",")));
      cpus.push_back(c);
    }
  }
  if (!p.allow_oversubscription) {
    if (budget > cpus.size())
      throw UsageError(fmt::format(
          "guest.pinning: host {} runs up to {} vCPUs at once (hosts[].vcpus) but has {} CPUs "
          "to pin to: pinned guests would share CPUs. Lower the host's vcpus to {} or set "
          "guest.pinning.allow_oversubscription: true",
          uri, budget, cpus.size(), cpus.size()));
    if (largest > cpus.size())
      throw UsageError(fmt::format(
          "guest.pinning: a cell has {} vCPUs but host {} has {} CPUs to pin to; drop the cell "
          "or set guest.pinning.allow_oversubscription: true",
          largest, uri, cpus.size()));
  }
  return cpus;
}

CpuPool::CpuPool(std::vector<unsigned> cpus) : cpus_(std::move(cpus)), use_(cpus_.size(), 0) {
  if (cpus_.empty()) throw std::invalid_argument("CpuPool: no CPUs");
}

std::vector<unsigned> CpuPool::acquire(unsigned n) {
  std::lock_guard l(mu_);
  std::vector<unsigned> out;
  for (unsigned k = 0; k < n; ++k) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < cpus_.size(); ++i)
      if (use_[i] < use_[best]) best = i;
    ++use_[best];
    out.push_back(cpus_[best]);
  }
  return out;
}

void CpuPool::release(const std::vector<unsigned>& cpus) {
  std::lock_guard l(mu_);
  for (unsigned c : cpus)
    for (std::size_t i = 0; i < cpus_.size(); ++i)
      if (cpus_[i] == c && use_[i] > 0) {
        --use_[i];
        break;
      }
}

std::string cpuset(const std::vector<unsigned>& cpus) { return fmt::format("{}", fmt::join(cpus, ",")); }

}  // namespace rlab::host
