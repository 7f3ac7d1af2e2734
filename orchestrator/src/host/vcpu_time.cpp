#include "host/vcpu_time.hpp"

#include <libvirt/libvirt.h>
#include <spdlog/spdlog.h>

#include <vector>

namespace rlab::host {

std::optional<std::uint64_t> vcpu_time_ns(vm::Connection& conn, const std::string& domain) {
  try {
    const auto h = conn.handle();  // held for every call below
    virDomainPtr dom = virDomainLookupByName(static_cast<virConnectPtr>(h.get()), domain.c_str());
    if (!dom) {
      spdlog::debug("{}: vCPU time: no domain {}: {}", conn.uri(), domain, vm::last_libvirt_error());
      return std::nullopt;
    }
    std::optional<std::uint64_t> sum;
    virDomainInfo info;
    if (virDomainGetInfo(dom, &info) == 0 && info.nrVirtCpu > 0) {
      std::vector<virVcpuInfo> v(info.nrVirtCpu);
      const int n = virDomainGetVcpus(dom, v.data(), static_cast<int>(v.size()), nullptr, 0);
      if (n > 0) {
        sum = 0;
        for (int i = 0; i < n; ++i) *sum += v[static_cast<std::size_t>(i)].cpuTime;
      }
    }
    if (!sum) spdlog::debug("{}: vCPU time of {}: {}", conn.uri(), domain, vm::last_libvirt_error());
    virDomainFree(dom);
    return sum;
  } catch (const std::exception& e) {
    spdlog::debug("{}: vCPU time of {}: {}", conn.uri(), domain, e.what());
    return std::nullopt;
  }
}

std::optional<double> vcpu_share(std::uint64_t before_ns, std::uint64_t after_ns, unsigned vcpus,
                                 double seconds) {
  if (!vcpus || !(seconds > 0) || after_ns < before_ns) return std::nullopt;
  return static_cast<double>(after_ns - before_ns) / (static_cast<double>(vcpus) * seconds * 1e9);
}

}  // namespace rlab::host
