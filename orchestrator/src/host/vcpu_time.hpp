#pragma once
// The host CPU time a guest's vCPU threads got (virDomainGetVcpus), read by domain name on a
// host's libvirt connection: under TCG the CPU the guest really got (docs/methodology.md
// "Host facts per sample").
#include "vm/libvirt.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace rlab::host {

/// The sum over the domain `domain`'s vCPUs of virVcpuInfo::cpuTime (host CPU time of each
/// vCPU thread since it started, ns). When QEMU runs all vCPUs in one thread (icount), every
/// vCPU reports that thread's time, so the sum is vCPUs x the thread's time. nullopt when the
/// domain is not there or libvirt does not answer (logged at debug level); never throws.
std::optional<std::uint64_t> vcpu_time_ns(vm::Connection& conn, const std::string& domain);

/// The guest's vCPU share of an interval: (after_ns - before_ns) / (vcpus x seconds x 1e9),
/// the share of its vCPUs' wall time the host ran them (1 - the guest's steal). nullopt when
/// `vcpus` is 0, `seconds` is not positive or the counter went backwards (a restarted QEMU).
/// Not clamped: a reading a little above 1 is the two clocks' jitter.
std::optional<double> vcpu_share(std::uint64_t before_ns, std::uint64_t after_ns, unsigned vcpus,
                                 double seconds);

}  // namespace rlab::host
