#pragma once
// Thin RAII layer over the libvirt C API: a connection to one host, transient domains on it.
// libvirt connections are thread-safe; one Connection may be shared by the cells of a host.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stdexcept>

namespace rlab::vm {

/// A libvirt call failed; the message names the operation, the object and libvirt's error.
struct LibvirtError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Domain;

/// The uid/gid the host's QEMU processes run as (libvirt's DAC security label), used to give
/// QEMU access to per-cell directories. nullopt when the host has no DAC model (e.g. remote).
struct QemuOwner {
  unsigned uid = 0;
  unsigned gid = 0;
};

/// An open connection to a libvirt URI (e.g. "qemu:///system").
class Connection {
 public:
  /// Opens `uri`; throws LibvirtError naming the URI (and hinting at scripts/start-libvirtd.sh)
  /// when the daemon does not answer.
  explicit Connection(const std::string& uri);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::string& uri() const { return uri_; }

  /// Starts a transient domain from `xml` (virDomainCreateXML; nothing is defined, so the
  /// domain disappears when it stops). Throws LibvirtError with libvirt's message.
  Domain create_transient(const std::string& xml);

  /// Names of active domains whose name starts with `prefix`.
  std::vector<std::string> active_domains(std::string_view prefix) const;

  /// Destroys the active domain `name` if it exists; returns whether one was destroyed.
  bool destroy_by_name(const std::string& name);

  /// QEMU's DAC owner from the host capabilities (`<secmodel><model>dac` baselabel).
  std::optional<QemuOwner> qemu_owner() const;

  /// Raw handle (virConnectPtr) for callers that need more of the C API.
  void* raw() const { return conn_; }

 private:
  std::string uri_;
  void* conn_ = nullptr;
};

/// One running (transient) domain. Destroyed by destroy(); the destructor only releases the
/// handle, it does not stop the guest (the run's cleanup does that explicitly).
class Domain {
 public:
  Domain(void* dom, std::string name);
  ~Domain();
  Domain(Domain&& o) noexcept;
  Domain& operator=(Domain&&) = delete;
  Domain(const Domain&) = delete;

  const std::string& name() const { return name_; }
  /// Whether the domain is still running (false once it powered off or was destroyed).
  bool is_active() const;
  /// Stops it at once (virDomainDestroy). Idempotent: a domain already gone is not an error.
  void destroy();

 private:
  void* dom_ = nullptr;
  std::string name_;
};

/// libvirt's last error message for the calling thread ("" when none).
std::string last_libvirt_error();

}  // namespace rlab::vm
