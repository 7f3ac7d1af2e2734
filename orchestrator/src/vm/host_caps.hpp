#pragma once
// What a libvirt host can run, read from the host's own libvirt (never from the machine rlab
// runs on): virConnectGetCapabilities (host CPU, page sizes, the emulators and their domain
// types), virConnectGetDomainCapabilities for aarch64 `virt` guests per accelerator (the most
// vCPUs, CPU models) and virNodeGetInfo (CPUs, memory). docs/matrix.md "hosts".
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlab::vm {

/// aarch64 `virt` guests under one accelerator on a host (its domain capabilities).
struct AccelCaps {
  std::string emulator;                 ///< e.g. "/usr/bin/qemu-system-aarch64"
  std::string machine;                  ///< the `virt` machine type it resolves to, e.g. "virt-7.2"
  unsigned max_vcpus = 0;               ///< `<vcpu max>`: the most vCPUs of one guest, >= 1
  std::vector<std::string> cpu_models;  ///< named models of `<mode name='custom'>` ("cortex-a57", ...)
  bool maximum = false;                 ///< `<mode name='maximum'>` supported (TCG's "max")
  bool host_passthrough = false;        ///< `<mode name='host-passthrough'>` supported (KVM's "host")
  /// GIC versions `<features><gic>` lists (2, 3, 4); empty when libvirt does not say. rlab's
  /// guests use GICv3: a host whose list lacks 3 (a GICv2-only KVM host) cannot run them.
  std::vector<unsigned> gic_versions;
};

/// Whether guests with a 64 KiB page size can run under KVM on a host: the host CPU must
/// implement the 64K translation granule, which libvirt does not report directly.
enum class Granule64k {
  kYes,      ///< the host itself runs with 64 KiB pages (its page sizes list 64 KiB)
  kNo,       ///< the host CPU is known to lack it (Apple M-series: 4K and 16K only)
  kUnknown,  ///< neither: assumed present (server arm64 CPUs have it); a guest that cannot
             ///< use it never says hello, which fails its boot
};

/// "yes", "no", "unknown".
const char* to_string(Granule64k g);

/// One host's capabilities for rlab's guests.
struct HostCaps {
  std::string uri;                      ///< the libvirt URI they were read from
  std::string uuid;                     ///< the host's UUID (`<host><uuid>`; "" when not reported)
  std::string arch;                     ///< host CPU architecture ("x86_64", "aarch64")
  std::string cpu_vendor;               ///< host CPU vendor as libvirt names it ("AMD", "ARM"; "" unknown)
  std::string cpu_model;                ///< host CPU model as libvirt names it ("kvm64", "Neoverse-N1"; "")
  std::vector<unsigned> page_kib;       ///< page sizes the host offers, KiB (4, 2048, 1048576, ...)
  unsigned cpus = 0;                    ///< active host CPUs (virNodeGetInfo)
  std::uint64_t memory_kib = 0;         ///< host memory, KiB (virNodeGetInfo)
  std::optional<AccelCaps> tcg;         ///< aarch64 guests under TCG (domain type qemu); nullopt: none
  std::optional<AccelCaps> kvm;         ///< aarch64 guests under KVM; nullopt: none (not an arm64 host, no /dev/kvm)
  /// 64K-page guests under KVM (TCG's CPU models all have the granule).
  Granule64k granule_64k = Granule64k::kUnknown;

  /// The accelerator's capabilities, nullopt when the host has none for aarch64 guests.
  const std::optional<AccelCaps>& of(Accel a) const { return a == Accel::kKvm ? kvm : tcg; }
};

/// What the host capabilities XML says: arch, CPU vendor and model, page sizes, and for the
/// `<guest>` of arch aarch64 which domain types it offers (`tcg`/`kvm` set with the emulator
/// only; the rest comes from the domain capabilities). Throws std::runtime_error naming
/// `uri` when the XML is not well-formed or has no host arch.
HostCaps parse_capabilities(const std::string& uri, const std::string& xml);

/// What one domain capabilities XML (aarch64, machine virt) says. Throws std::runtime_error
/// naming `what` when it is not well-formed or has no `<vcpu max>`.
AccelCaps parse_domain_caps(const std::string& what, const std::string& xml);

/// The 64K granule rule above, from the parsed host fields.
Granule64k granule_64k(const HostCaps& caps);

/// Reads `conn`'s host: capabilities, the domain capabilities of aarch64 `virt` guests for
/// each domain type the host offers, and the node info. Throws LibvirtError naming the URI
/// when libvirt cannot answer or its answers cannot be parsed.
HostCaps read_host_caps(Connection& conn);

/// One line a person reads: "aarch64 host (Neoverse-N1), 80 CPUs, 256 GiB; KVM up to 512
/// vCPUs, 64K granule yes; TCG up to 512 vCPUs".
std::string describe(const HostCaps& caps);

}  // namespace rlab::vm
