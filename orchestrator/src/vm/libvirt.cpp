#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include <mutex>
#include <regex>

namespace rlab::vm {
namespace {

// libvirt prints every error to stderr by default; errors are reported through exceptions.
void silence(void*, virErrorPtr) {}

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    virInitialize();
    virSetErrorFunc(nullptr, silence);
  });
}

virConnectPtr C(void* p) { return static_cast<virConnectPtr>(p); }
virDomainPtr D(void* p) { return static_cast<virDomainPtr>(p); }

}  // namespace

std::string last_libvirt_error() {
  virErrorPtr e = virGetLastError();
  return e && e->message ? e->message : "";
}

Connection::Connection(const std::string& uri) : uri_(uri) {
  init_once();
  conn_ = virConnectOpen(uri.c_str());
  if (!conn_)
    throw LibvirtError(fmt::format(
        "libvirt: cannot connect to '{}': {} (is libvirtd running? scripts/start-libvirtd.sh "
        "starts it)",
        uri, last_libvirt_error()));
  virConnSetErrorFunc(C(conn_), nullptr, silence);
}

Connection::~Connection() {
  if (conn_) virConnectClose(C(conn_));
}

Domain Connection::create_transient(const std::string& xml) {
  virDomainPtr d = virDomainCreateXML(C(conn_), xml.c_str(), VIR_DOMAIN_NONE);
  if (!d)
    throw LibvirtError(fmt::format("libvirt ({}): cannot start domain: {}", uri_,
                                   last_libvirt_error()));
  const char* n = virDomainGetName(d);
  return Domain(d, n ? n : "");
}

std::vector<std::string> Connection::active_domains(std::string_view prefix) const {
  virDomainPtr* doms = nullptr;
  int n = virConnectListAllDomains(C(conn_), &doms, VIR_CONNECT_LIST_DOMAINS_ACTIVE);
  if (n < 0)
    throw LibvirtError(
        fmt::format("libvirt ({}): cannot list domains: {}", uri_, last_libvirt_error()));
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    const char* name = virDomainGetName(doms[i]);
    if (name && std::string_view(name).starts_with(prefix)) out.emplace_back(name);
    virDomainFree(doms[i]);
  }
  free(doms);
  return out;
}

bool Connection::destroy_by_name(const std::string& name) {
  virDomainPtr d = virDomainLookupByName(C(conn_), name.c_str());
  if (!d) return false;
  bool destroyed = virDomainIsActive(d) == 1 && virDomainDestroy(d) == 0;
  virDomainFree(d);
  return destroyed;
}

std::optional<QemuOwner> Connection::qemu_owner() const {
  char* caps = virConnectGetCapabilities(C(conn_));
  if (!caps) return std::nullopt;
  std::string text(caps);
  free(caps);
  // <secmodel><model>dac</model>...<baselabel type='qemu'>+64055:+64055</baselabel>
  static const std::regex re(
      R"(<model>dac</model>[\s\S]*?<baselabel type='(?:qemu|kvm)'>\+?(\d+):\+?(\d+)</baselabel>)");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return std::nullopt;
  return QemuOwner{static_cast<unsigned>(std::stoul(m[1])),
                   static_cast<unsigned>(std::stoul(m[2]))};
}

Domain::Domain(void* dom, std::string name) : dom_(dom), name_(std::move(name)) {}

Domain::~Domain() {
  if (dom_) virDomainFree(D(dom_));
}

Domain::Domain(Domain&& o) noexcept : dom_(o.dom_), name_(std::move(o.name_)) { o.dom_ = nullptr; }

bool Domain::is_active() const { return dom_ && virDomainIsActive(D(dom_)) == 1; }

void Domain::destroy() {
  if (!dom_ || virDomainIsActive(D(dom_)) != 1) return;
  if (virDomainDestroy(D(dom_)) != 0 && virDomainIsActive(D(dom_)) == 1)
    throw LibvirtError(
        fmt::format("libvirt: cannot destroy domain '{}': {}", name_, last_libvirt_error()));
}

}  // namespace rlab::vm
