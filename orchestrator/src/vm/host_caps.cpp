#include "vm/host_caps.hpp"

#include "vm/xml.hpp"

#include <fmt/format.h>
#include <libvirt/libvirt.h>

#include <algorithm>
#include <cstdlib>

namespace rlab::vm {

const char* to_string(Granule64k g) {
  switch (g) {
    case Granule64k::kYes: return "yes";
    case Granule64k::kNo: return "no";
    default: return "unknown";
  }
}

HostCaps parse_capabilities(const std::string& uri, const std::string& xml) {
  const XmlDoc doc(xml, "capabilities of " + uri);
  HostCaps c;
  c.uri = uri;
  c.arch = doc.text("string(/capabilities/host/cpu/arch)");
  if (c.arch.empty()) throw std::runtime_error("capabilities of " + uri + ": no host CPU arch");
  c.uuid = doc.text("string(/capabilities/host/uuid)");
  c.cpu_vendor = doc.text("string(/capabilities/host/cpu/vendor)");
  c.cpu_model = doc.text("string(/capabilities/host/cpu/model)");
  for (const auto& s : doc.texts("/capabilities/host/cpu/pages[@unit='KiB']/@size"))
    if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos)
      c.page_kib.push_back(static_cast<unsigned>(std::stoul(s)));
  const std::string guest = "/capabilities/guest[os_type='hvm']/arch[@name='aarch64']";
  const std::string emulator = doc.text("string(" + guest + "/emulator)");
  if (!doc.texts(guest + "/domain[@type='qemu']").empty()) c.tcg.emplace().emulator = emulator;
  if (!doc.texts(guest + "/domain[@type='kvm']").empty()) c.kvm.emplace().emulator = emulator;
  c.granule_64k = granule_64k(c);
  return c;
}

AccelCaps parse_domain_caps(const std::string& what, const std::string& xml) {
  const XmlDoc doc(xml, what);
  AccelCaps a;
  a.emulator = doc.text("string(/domainCapabilities/path)");
  a.machine = doc.text("string(/domainCapabilities/machine)");
  const auto max = doc.number("string(/domainCapabilities/vcpu/@max)");
  if (!max || *max < 1) throw std::runtime_error(what + ": no <vcpu max>");
  a.max_vcpus = static_cast<unsigned>(std::min<unsigned long long>(*max, 1u << 20));
  const std::string cpu = "/domainCapabilities/cpu/mode";
  a.cpu_models = doc.texts(cpu + "[@name='custom'][@supported='yes']/model");
  std::sort(a.cpu_models.begin(), a.cpu_models.end());
  a.maximum = !doc.texts(cpu + "[@name='maximum'][@supported='yes']").empty();
  a.host_passthrough = !doc.texts(cpu + "[@name='host-passthrough'][@supported='yes']").empty();
  for (const auto& v : doc.texts("/domainCapabilities/features/gic[@supported='yes']/enum[@name='version']/value"))
    if (!v.empty() && std::all_of(v.begin(), v.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) && v.size() < 4)
      a.gic_versions.push_back(static_cast<unsigned>(std::stoul(v)));
  return a;
}

Granule64k granule_64k(const HostCaps& c) {
  if (c.arch == "aarch64" && std::count(c.page_kib.begin(), c.page_kib.end(), 64u)) return Granule64k::kYes;
  if (c.cpu_vendor == "Apple") return Granule64k::kNo;
  return Granule64k::kUnknown;
}

namespace {


/// The domain capabilities of aarch64 `virt` guests of domain type `virttype` on `conn`.
AccelCaps domain_caps(Connection& conn, const std::string& virttype) {
  const std::string xml = take_string(conn.with_reopen(
      [&](void* c) {
        return virConnectGetDomainCapabilities(static_cast<virConnectPtr>(c), nullptr, "aarch64",
                                               "virt", virttype.c_str(), 0);
      },
      [](const char* s) { return s == nullptr; }));
  const std::string what = fmt::format("domain capabilities ({}, aarch64 virt) of {}", virttype, conn.uri());
  if (xml.empty()) throw LibvirtError(what + ": " + last_libvirt_error());
  try {
    return parse_domain_caps(what, xml);
  } catch (const std::runtime_error& e) {
    throw LibvirtError(e.what());
  }
}

}  // namespace

HostCaps read_host_caps(Connection& conn) {
  const std::string xml = take_string(conn.with_reopen(
      [](void* c) { return virConnectGetCapabilities(static_cast<virConnectPtr>(c)); },
      [](const char* s) { return s == nullptr; }));
  if (xml.empty())
    throw LibvirtError(fmt::format("{}: cannot read the host capabilities: {}", conn.uri(), last_libvirt_error()));
  HostCaps c;
  try {
    c = parse_capabilities(conn.uri(), xml);
  } catch (const std::runtime_error& e) {
    throw LibvirtError(e.what());
  }
  if (c.tcg) c.tcg = domain_caps(conn, "qemu");
  if (c.kvm) {
    try {
      c.kvm = domain_caps(conn, "kvm");
    } catch (const LibvirtError&) {
      c.kvm.reset();  // listed, but QEMU cannot use KVM there (e.g. /dev/kvm not usable)
    }
  }
  virNodeInfo info{};
  if (conn.with_reopen([&](void* h) { return virNodeGetInfo(static_cast<virConnectPtr>(h), &info); },
                       [](int r) { return r < 0; }) < 0)
    throw LibvirtError(fmt::format("{}: cannot read the node info: {}", conn.uri(), last_libvirt_error()));
  c.cpus = info.cpus;
  c.memory_kib = info.memory;
  return c;
}

std::string describe(const HostCaps& c) {
  std::string out = fmt::format("{} host{}, {} CPUs, {:.0f} GiB", c.arch,
                                c.cpu_model.empty() ? "" : " (" + c.cpu_model + ")", c.cpus,
                                double(c.memory_kib) / (1 << 20));
  if (c.kvm) out += fmt::format("; KVM up to {} vCPUs, 64K granule {}", c.kvm->max_vcpus, to_string(c.granule_64k));
  if (c.tcg) out += fmt::format("; TCG up to {} vCPUs", c.tcg->max_vcpus);
  if (!c.kvm && !c.tcg) out += "; no QEMU for aarch64 guests";
  return out;
}

}  // namespace rlab::vm
