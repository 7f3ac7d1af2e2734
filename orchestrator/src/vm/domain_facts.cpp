#include "vm/domain_facts.hpp"

#include "vm/host_caps.hpp"
#include "vm/xml.hpp"

#include <fmt/format.h>
#include <libvirt/libvirt.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <regex>

namespace rlab::vm {
namespace {

std::vector<unsigned> cpus_of_map(const unsigned char* map, int maplen, unsigned host_cpus) {
  std::vector<unsigned> out;
  for (unsigned cpu = 0; cpu < host_cpus && cpu / 8 < static_cast<unsigned>(maplen); ++cpu)
    if (map[cpu / 8] & (1u << (cpu % 8))) out.push_back(cpu);
  return out;
}

std::vector<unsigned> all_cpus(unsigned n) {
  std::vector<unsigned> v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = i;
  return v;
}

}  // namespace

std::vector<unsigned> parse_cpuset(const std::string& cpuset) {
  static const std::regex part(R"((\d+)(?:-(\d+))?)");
  std::vector<unsigned> out;
  std::size_t start = 0;
  while (start <= cpuset.size()) {
    const std::size_t comma = std::min(cpuset.find(',', start), cpuset.size());
    const std::string p = cpuset.substr(start, comma - start);
    std::smatch m;
    if (!std::regex_match(p, m, part)) throw std::invalid_argument("'" + cpuset + "' is not a cpuset");
    const unsigned a = static_cast<unsigned>(std::stoul(m[1])), b = m[2].matched ? static_cast<unsigned>(std::stoul(m[2])) : a;
    if (b < a || b > 65535) throw std::invalid_argument("'" + cpuset + "' is not a cpuset");
    for (unsigned c = a; c <= b; ++c) out.push_back(c);
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string to_cpuset(const std::vector<unsigned>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (j == i ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]));
    i = j + 1;
  }
  return out;
}

DomainFacts read_domain_facts(Connection& conn, const std::string& name) {
  auto h = conn.handle();
  auto* c = static_cast<virConnectPtr>(h.get());
  std::unique_ptr<virDomain, int (*)(virDomainPtr)> d(virDomainLookupByName(c, name.c_str()), virDomainFree);
  if (!d) throw LibvirtError(fmt::format("domain {} on {}: {}", name, conn.uri(), last_libvirt_error()));
  DomainFacts f;
  virNodeInfo node{};
  if (virNodeGetInfo(c, &node) != 0)
    throw LibvirtError(fmt::format("node info of {}: {}", conn.uri(), last_libvirt_error()));
  f.host_cpus = node.cpus;
  const std::string xml = take_string(virDomainGetXMLDesc(d.get(), 0));
  static const std::regex type_re(R"(<domain\s+type=['"](\w+)['"])");
  std::smatch m;
  if (!std::regex_search(xml, m, type_re))
    throw LibvirtError(fmt::format("domain {} on {}: no domain type in its XML ({})", name, conn.uri(),
                                   last_libvirt_error()));
  f.type = m[1];
  const int maplen = VIR_CPU_MAPLEN(static_cast<int>(f.host_cpus));
  virDomainInfo info{};
  if (virDomainGetInfo(d.get(), &info) != 0)
    throw LibvirtError(fmt::format("domain {} on {}: {}", name, conn.uri(), last_libvirt_error()));
  std::vector<unsigned char> maps(static_cast<std::size_t>(maplen) * info.nrVirtCpu);
  const int n = virDomainGetVcpuPinInfo(d.get(), static_cast<int>(info.nrVirtCpu), maps.data(), maplen,
                                        VIR_DOMAIN_AFFECT_LIVE);
  if (n < 0) throw LibvirtError(fmt::format("vCPU pinning of {} on {}: {}", name, conn.uri(), last_libvirt_error()));
  for (int v = 0; v < n; ++v) f.vcpu_cpus.push_back(cpus_of_map(&maps[static_cast<std::size_t>(v * maplen)], maplen, f.host_cpus));
  std::vector<unsigned char> emap(static_cast<std::size_t>(maplen));
  if (virDomainGetEmulatorPinInfo(d.get(), emap.data(), maplen, VIR_DOMAIN_AFFECT_LIVE) < 0)
    throw LibvirtError(fmt::format("emulator pinning of {} on {}: {}", name, conn.uri(), last_libvirt_error()));
  f.emulator_cpus = cpus_of_map(emap.data(), maplen, f.host_cpus);
  const HostCaps caps = parse_capabilities(conn.uri(), take_string(virConnectGetCapabilities(c)));
  if (!caps.page_kib.empty()) f.host_page_kib = *std::min_element(caps.page_kib.begin(), caps.page_kib.end());
  return f;
}

std::string pinning_mismatch(const std::vector<std::string>& vcpu_pins, const std::string& emulator_pin,
                             const DomainFacts& f) {
  const std::vector<unsigned> every = all_cpus(f.host_cpus);
  for (std::size_t v = 0; v < f.vcpu_cpus.size(); ++v) {
    const auto want = vcpu_pins.empty() ? every : parse_cpuset(vcpu_pins.at(v));
    if (f.vcpu_cpus[v] != want)
      return fmt::format("vCPU {} runs on host CPUs {}, asked {}", v, to_cpuset(f.vcpu_cpus[v]), to_cpuset(want));
  }
  if (!vcpu_pins.empty() && f.vcpu_cpus.size() != vcpu_pins.size())
    return fmt::format("the domain has {} vCPUs, {} were pinned", f.vcpu_cpus.size(), vcpu_pins.size());
  const auto want = emulator_pin.empty() ? every : parse_cpuset(emulator_pin);
  if (f.emulator_cpus != want)
    return fmt::format("the emulator threads run on host CPUs {}, asked {}", to_cpuset(f.emulator_cpus),
                       to_cpuset(want));
  return "";
}

}  // namespace rlab::vm
