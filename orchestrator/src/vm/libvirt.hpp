#pragma once
// Thin RAII layer over the libvirt C API: a connection to one host, transient domains on it.
// libvirt connections are thread-safe; one Connection may be shared by the cells of a host.
#include <chrono>
#include <memory>
#include <mutex>
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

/// An open connection to a libvirt URI (e.g. "qemu:///system") that survives a restart of
/// the daemon: when a call fails and libvirt reports the connection closed
/// (virConnectIsAlive() == 0: the daemon was restarted or the link to a remote host broke),
/// the connection is opened again — retried every second for up to `reopen_grace` — and the
/// call repeated once. Guests keep running across a libvirtd restart (the daemon adopts
/// them again), so a restart costs nothing. Once a reopen has failed, calls within the next
/// `reopen_grace` fail at once and later ones try a single time, so a host that is gone costs
/// one grace, not one per call. Thread-safe: one Connection is shared by the
/// boots of a host; a reopen happens once however many threads find the connection closed.
/// Its libvirt calls are made one thread at a time (handle() is a lease): libvirt 9.0's RPC
/// client, when one thread's call wakes another's wait on the same connection, leaves a
/// socket watch pointing into the waiting thread's stack, which a third call can later fire
/// (rlab crashed so in virNetClientIOEventFD under concurrent boots on a remote host).
class Connection {
 public:
  /// Opens `uri`; throws LibvirtError naming the URI (and, for a local URI, hinting at
  /// scripts/start-libvirtd.sh) when the daemon does not answer, or does not within 60 s (a
  /// hung ssh transport; `connect_timeout`). The first open is not retried: a host that is
  /// not there at the start of a run is drained at once.
  explicit Connection(const std::string& uri,
                      std::chrono::seconds reopen_grace = std::chrono::seconds(30),
                      std::chrono::seconds connect_timeout = std::chrono::seconds(60));
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::string& uri() const { return uri_; }

  /// Starts a transient domain from `xml` (virDomainCreateXML; nothing is defined, so the
  /// domain disappears when it stops); with `paused`, QEMU is up and the guest's memory loaded
  /// but no vCPU runs until Domain::resume() (VIR_DOMAIN_START_PAUSED). Throws LibvirtError
  /// with libvirt's message.
  Domain create_transient(const std::string& xml, bool paused = false);

  /// Names of active domains whose name starts with `prefix`. Throws LibvirtError when the
  /// daemon cannot be reached (after reopening).
  std::vector<std::string> active_domains(std::string_view prefix);

  /// Destroys the active domain `name` if it exists; returns whether one was destroyed.
  bool destroy_by_name(const std::string& name);

  /// QEMU's DAC owner from the host capabilities (`<secmodel><model>dac` baselabel).
  std::optional<QemuOwner> qemu_owner();

  /// The current libvirt handle (virConnectPtr), reopened first if the daemon closed it; the
  /// shared_ptr keeps it valid while held even if another thread reopens the connection, and
  /// is a lease: while any copy is held, other threads' handle() calls wait (the holding
  /// thread may take more). Hold it for a sequence of C API calls; release it on the thread
  /// that took it, and never while waiting for another thread that needs this connection.
  std::shared_ptr<void> handle();

  /// The current raw handle (virConnectPtr), without a lease: only for a connection that one
  /// thread uses (a channel's own).
  void* raw();

  /// How many times the connection was reopened since it was constructed.
  unsigned reopens() const;

  /// Runs `call` with the current virConnectPtr; when it fails (`failed(result)`) and libvirt
  /// says the connection is closed, reopens it (see the class comment) and runs `call` once
  /// more. Returns the last result; throws LibvirtError when the connection cannot be reopened.
  template <class F, class Failed>
  auto with_reopen(F&& call, Failed&& failed) {
    auto h = handle();
    auto r = call(h.get());
    if (!failed(r) || alive_after_failure(h.get())) return r;
    h = reopen(h.get());
    return call(h.get());
  }

 private:
  static bool alive(void* conn);
  /// alive(), keeping the failed call's error for the next last_libvirt_error() (the check
  /// itself resets libvirt's).
  static bool alive_after_failure(void* conn);
  /// Replaces `dead` (if it is still the current handle) by a new connection.
  std::shared_ptr<void> reopen(void* dead);

  std::string uri_;
  std::chrono::seconds grace_;
  std::recursive_mutex calls_;  ///< held by handle()'s leases
  mutable std::mutex mu_;
  std::shared_ptr<void> conn_;
  unsigned reopens_ = 0;
  bool gave_up_ = false;                            ///< the last reopen failed
  std::chrono::steady_clock::time_point gave_up_at_;
};

/// One running (transient) domain, known by name on its Connection (which must outlive it),
/// so that it stays reachable after the connection is reopened. destroy() stops it; the
/// destructor does not (the run's cleanup does that explicitly).
class Domain {
 public:
  Domain(Connection& conn, std::string name);

  const std::string& name() const { return name_; }
  /// Whether the domain is still running: false once it powered off or was destroyed (a
  /// transient domain then no longer exists), and false when libvirt cannot be reached.
  bool is_active() const;
  /// Lets a domain created paused run (virDomainResume). Throws LibvirtError when it cannot.
  void resume();
  /// Stops it at once (virDomainDestroy). Idempotent: a domain already gone is not an error.
  /// Throws LibvirtError when it runs and cannot be destroyed (or libvirt cannot be reached).
  void destroy();
  /// The disk errors that paused it (virDomainGetDiskErrors), as "<target>: <error>" (e.g.
  /// "vda: no space left"), when it is paused for an I/O error (QEMU's default: a write that
  /// fails with ENOSPC on the host stops the guest rather than failing it); empty otherwise,
  /// and when libvirt cannot be reached. `no_space` is set when one of them is ENOSPC.
  std::vector<std::string> io_errors(bool* no_space = nullptr) const;

 private:
  Connection* conn_;
  std::string name_;
};

/// The text of a string libvirt allocated (XML, a path), which it frees; "" for nullptr.
std::string take_string(char* s);

/// libvirt's last error message for the calling thread ("" when none).
std::string last_libvirt_error();

}  // namespace rlab::vm
