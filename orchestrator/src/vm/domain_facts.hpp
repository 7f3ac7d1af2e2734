#pragma once
// What a running domain actually got, read back from its host's libvirt after it started
// (not what rlab asked for): the domain type (kvm or qemu, i.e. TCG), the host CPUs each vCPU
// and the emulator threads may run on, and the host's base page size. A boot checks these
// against its spec and stores them (store::BootPlatform).
#include "vm/libvirt.hpp"

#include <string>
#include <vector>

namespace rlab::vm {

/// One running domain's facts.
struct DomainFacts {
  std::string type;                           ///< `<domain type>`: "kvm" or "qemu" (TCG)
  std::vector<std::vector<unsigned>> vcpu_cpus;  ///< per vCPU, the host CPUs it may run on (sorted)
  std::vector<unsigned> emulator_cpus;        ///< host CPUs of the emulator threads (sorted)
  unsigned host_cpus = 0;                     ///< the host's CPUs (virNodeGetInfo)
  unsigned host_page_kib = 0;                 ///< the host's base page size (capabilities' first `<pages>`), 0 unknown
};

/// Reads `name`'s facts on `conn` (virDomainGetXMLDesc of the live domain, virDomainGetVcpuPinInfo,
/// virDomainGetEmulatorPinInfo, virNodeGetInfo, virConnectGetCapabilities). Throws LibvirtError
/// naming the domain when it does not run or libvirt cannot answer.
DomainFacts read_domain_facts(Connection& conn, const std::string& name);

/// The CPUs of a cpuset string ("0-3,8", "5"), sorted and unique. Throws std::invalid_argument
/// for anything else.
std::vector<unsigned> parse_cpuset(const std::string& cpuset);

/// "" when a domain pinned as asked (`vcpu_pins`: one cpuset per vCPU or none; `emulator_pin`:
/// a cpuset or "") runs as `f` says, else what differs ("vCPU 1 runs on CPUs 0-1, asked 1").
/// Unpinned means every host CPU.
std::string pinning_mismatch(const std::vector<std::string>& vcpu_pins, const std::string& emulator_pin,
                             const DomainFacts& f);

/// A CPU list as a cpuset string ("0-1,3"); "" for none.
std::string to_cpuset(const std::vector<unsigned>& cpus);

}  // namespace rlab::vm
