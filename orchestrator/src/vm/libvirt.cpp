#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include <spdlog/spdlog.h>

#include <atomic>
#include <cstdlib>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <thread>
#include <utility>

namespace rlab::vm {
namespace {

// libvirt prints every error to stderr by default; errors are reported through exceptions.
void silence(void*, virErrorPtr) {}

// libvirt's default event loop, run by one thread for the process's life, as virsh does: the
// remote driver needs it to read replies its transport has already taken off the socket (the
// libssh transport buffers them: without the loop a call over qemu+libssh waits forever) and
// to send keepalives.
// The loop stops (woken by its timer) and its thread is joined when the process exits, before
// the libraries' own teardown: a loop still running then would touch freed state.
class EventLoop {
 public:
  EventLoop() {
    if (virEventRegisterDefaultImpl() != 0) return;
    wake_ = virEventAddTimeout(-1, [](int, void*) {}, nullptr, nullptr);
    thread_ = std::thread([this] {
      while (!quit_) virEventRunDefaultImpl();
    });
  }
  ~EventLoop() {
    if (!thread_.joinable()) return;
    quit_ = true;
    virEventUpdateTimeout(wake_, 0);
    thread_.join();
  }

 private:
  std::atomic<bool> quit_{false};
  int wake_ = -1;
  std::thread thread_;
};

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    virInitialize();
    virSetErrorFunc(nullptr, silence);
    static EventLoop loop;
  });
}

virConnectPtr C(void* p) { return static_cast<virConnectPtr>(p); }

}  // namespace

std::string take_string(char* s) {
  std::string out = s ? s : "";
  std::free(s);
  return out;
}

namespace {
/// The error of the call that failed just before Connection::alive() asked the daemon (which
/// resets libvirt's last error); taken by the next last_libvirt_error() that finds none.
thread_local std::string t_failed_call;
}  // namespace

std::string last_libvirt_error() {
  virErrorPtr e = virGetLastError();
  if (e && e->message) return e->message;
  return std::exchange(t_failed_call, std::string());
}

namespace {

/// Opens `uri` with errors silenced; nullptr and libvirt's error when it does not answer.
std::shared_ptr<void> open(const std::string& uri) {
  virConnectPtr c = virConnectOpen(uri.c_str());
  if (!c) return nullptr;
  virConnSetErrorFunc(c, nullptr, silence);
  // A host that vanishes without closing the TCP connection (power lost, network cut) is
  // noticed by libvirt's keepalive: no answer to 12 probes 10 s apart closes the connection
  // (about 2 minutes; a loaded host — the emulated KVM host with two guests booting — has
  // stalled its libvirtd for 80 s and must not lose its guests for that). Refused by a
  // driver without keepalive; harmless then.
  virConnectSetKeepAlive(c, 10, 12);
  return std::shared_ptr<void>(c, [](void* p) { virConnectClose(C(p)); });
}

/// open() with a deadline: a transport that hangs (an ssh to a machine that drops packets
/// waits for ssh's own timeout, minutes) is given up after `limit`; the attempt goes on in the
/// background and closes what it opens. nullptr and why (`error`) when it failed or timed out.
std::shared_ptr<void> open_within(const std::string& uri, std::chrono::seconds limit, std::string& error) {
  struct Shared {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false, abandoned = false;
    std::shared_ptr<void> conn;
    std::string error;
  };
  auto sh = std::make_shared<Shared>();
  std::thread([sh, uri] {
    auto c = open(uri);
    const std::string e = c ? "" : last_libvirt_error();
    std::lock_guard l(sh->mu);
    sh->done = true;
    if (!sh->abandoned) sh->conn = std::move(c), sh->error = e;
    sh->cv.notify_all();
  }).detach();
  std::unique_lock l(sh->mu);
  if (!sh->cv.wait_for(l, limit, [&] { return sh->done; })) {
    sh->abandoned = true;
    error = fmt::format("no answer within {} s", limit.count());
    return nullptr;
  }
  error = sh->error;
  return sh->conn;
}

bool null(const void* p) { return p == nullptr; }
bool negative(int n) { return n < 0; }

}  // namespace

Connection::Connection(const std::string& uri, std::chrono::seconds reopen_grace,
                       std::chrono::seconds connect_timeout)
    : uri_(uri), grace_(reopen_grace) {
  init_once();
  std::string why;
  conn_ = open_within(uri, connect_timeout, why);
  if (!conn_) {
    // A daemon of this machine (no host part) can be started here; a remote one cannot.
    const bool local = uri.find(":///") != std::string::npos;
    throw LibvirtError(fmt::format("libvirt: cannot connect to '{}': {}{}", uri, why,
                                   local ? " (is libvirtd running? scripts/start-libvirtd.sh starts it)" : ""));
  }
}

Connection::~Connection() = default;

bool Connection::alive(void* conn) { return virConnectIsAlive(C(conn)) == 1; }

bool Connection::alive_after_failure(void* conn) {
  // Every libvirt call resets the thread's last error: keep the failed call's for its message.
  virErrorPtr e = virGetLastError();
  t_failed_call = e && e->message ? e->message : "";
  return alive(conn);
}

void* Connection::raw() {
  auto h = [&] {
    std::lock_guard lock(mu_);
    return conn_;
  }();
  return (alive(h.get()) ? h : reopen(h.get())).get();
}

std::shared_ptr<void> Connection::handle() {
  std::unique_lock lease(calls_);
  auto h = [&] {
    std::lock_guard lock(mu_);
    return conn_;
  }();
  if (!alive(h.get())) h = reopen(h.get());
  // The handle and the lease live and die together (aliasing: the caller sees the handle).
  struct Held {
    std::shared_ptr<void> conn;
    std::unique_lock<std::recursive_mutex> lease;
  };
  auto held = std::make_shared<Held>(Held{std::move(h), std::move(lease)});
  void* const c = held->conn.get();
  return std::shared_ptr<void>(std::move(held), c);
}

unsigned Connection::reopens() const {
  std::lock_guard lock(mu_);
  return reopens_;
}

std::shared_ptr<void> Connection::reopen(void* dead) {
  std::lock_guard lock(mu_);
  // Another thread may have reopened it already; callers then use the new one.
  if (conn_.get() != dead && alive(conn_.get())) return conn_;
  const auto now = std::chrono::steady_clock::now();
  // Given up on lately: fail at once (a dead host must not cost every later call the grace,
  // nor a TCP connect timeout); after the grace one attempt, no retries.
  if (gave_up_ && now - gave_up_at_ < grace_)
    throw LibvirtError(fmt::format("libvirt: the connection to '{}' is closed (reopening it failed {} s ago)",
                                   uri_, std::chrono::duration_cast<std::chrono::seconds>(now - gave_up_at_).count()));
  const auto deadline = gave_up_ ? now : now + grace_;
  for (;;) {
    if (auto c = open(uri_)) {
      conn_ = std::move(c);
      ++reopens_;
      gave_up_ = false;
      spdlog::warn("libvirt: the connection to '{}' was closed (daemon restarted?); reopened",
                   uri_);
      return conn_;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      gave_up_ = true;
      gave_up_at_ = std::chrono::steady_clock::now();
      throw LibvirtError(fmt::format(
          "libvirt: the connection to '{}' was closed and could not be reopened within {} s: {}",
          uri_, grace_.count(), last_libvirt_error()));
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

Domain Connection::create_transient(const std::string& xml, bool paused) {
  const unsigned flags = paused ? VIR_DOMAIN_START_PAUSED : VIR_DOMAIN_NONE;
  auto d = with_reopen([&](void* c) { return virDomainCreateXML(C(c), xml.c_str(), flags); }, null);
  if (!d)
    throw LibvirtError(fmt::format("libvirt ({}): cannot start domain: {}", uri_,
                                   last_libvirt_error()));
  const char* n = virDomainGetName(d);
  Domain dom(*this, n ? n : "");
  virDomainFree(d);
  return dom;
}

std::vector<std::string> Connection::active_domains(std::string_view prefix) {
  virDomainPtr* doms = nullptr;
  int n = with_reopen(
      [&](void* c) { return virConnectListAllDomains(C(c), &doms, VIR_CONNECT_LIST_DOMAINS_ACTIVE); },
      negative);
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

namespace {

/// 1 when `name` runs on `c`, 0 when it does not exist or is shut off, -1 when libvirt failed.
int domain_state(void* c, const std::string& name) {
  virDomainPtr d = virDomainLookupByName(C(c), name.c_str());
  if (!d) return virGetLastErrorCode() == VIR_ERR_NO_DOMAIN ? 0 : -1;
  int active = virDomainIsActive(d);
  virDomainFree(d);
  return active;
}

/// Destroys `name` on `c` if it runs: 1 destroyed, 0 not running, -1 libvirt failed.
int destroy_named(void* c, const std::string& name) {
  virDomainPtr d = virDomainLookupByName(C(c), name.c_str());
  if (!d) return virGetLastErrorCode() == VIR_ERR_NO_DOMAIN ? 0 : -1;
  int r = virDomainIsActive(d);
  if (r == 1) r = virDomainDestroy(d) == 0 || virDomainIsActive(d) == 0 ? 1 : -1;
  virDomainFree(d);
  return r;
}

/// What paused `name` on `c`: its disk errors when it is paused for an I/O error, else none.
/// -1 when libvirt failed.
/// Resumes `name` on `c`: 0, or -1 when libvirt failed (the domain gone included).
int resume_named(void* c, const std::string& name) {
  virDomainPtr d = virDomainLookupByName(C(c), name.c_str());
  if (!d) return -1;
  const int r = virDomainResume(d);
  virDomainFree(d);
  return r;
}

int disk_errors(void* c, const std::string& name, std::vector<std::pair<std::string, int>>& out) {
  out.clear();
  virDomainPtr d = virDomainLookupByName(C(c), name.c_str());
  if (!d) return virGetLastErrorCode() == VIR_ERR_NO_DOMAIN ? 0 : -1;
  int state = 0, reason = 0;
  int r = virDomainGetState(d, &state, &reason, 0);
  if (r == 0 && state == VIR_DOMAIN_PAUSED && reason == VIR_DOMAIN_PAUSED_IOERROR) {
    virDomainDiskError errs[16];
    r = virDomainGetDiskErrors(d, errs, 16, 0);
    for (int i = 0; i < r; ++i) {
      out.emplace_back(errs[i].disk ? errs[i].disk : "?", errs[i].error);
      std::free(errs[i].disk);
    }
    if (r == 0) out.emplace_back("?", VIR_DOMAIN_DISK_ERROR_UNSPEC);  // paused, disk unnamed
    r = r < 0 ? -1 : 0;
  }
  virDomainFree(d);
  return r;
}

}  // namespace

bool Connection::destroy_by_name(const std::string& name) {
  return with_reopen([&](void* c) { return destroy_named(c, name); }, negative) == 1;
}

std::optional<QemuOwner> Connection::qemu_owner() {
  char* caps = with_reopen([](void* c) { return virConnectGetCapabilities(C(c)); }, null);
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

Domain::Domain(Connection& conn, std::string name) : conn_(&conn), name_(std::move(name)) {}

bool Domain::is_active() const {
  try {
    return conn_->with_reopen([&](void* c) { return domain_state(c, name_); }, negative) == 1;
  } catch (const LibvirtError&) {  // the daemon did not come back
    return false;
  }
}

void Domain::resume() {
  if (conn_->with_reopen([&](void* c) { return resume_named(c, name_); }, negative) < 0)
    throw LibvirtError(fmt::format("libvirt: cannot resume domain '{}': {}", name_, last_libvirt_error()));
}

void Domain::destroy() {
  if (conn_->with_reopen([&](void* c) { return destroy_named(c, name_); }, negative) < 0)
    throw LibvirtError(
        fmt::format("libvirt: cannot destroy domain '{}': {}", name_, last_libvirt_error()));
}

std::vector<std::string> Domain::io_errors(bool* no_space) const {
  std::vector<std::pair<std::string, int>> errs;
  try {
    conn_->with_reopen([&](void* c) { return disk_errors(c, name_, errs); }, negative);
  } catch (const LibvirtError&) {
    errs.clear();
  }
  std::vector<std::string> out;
  if (no_space) *no_space = false;
  for (const auto& [disk, code] : errs) {
    const bool full = code == VIR_DOMAIN_DISK_ERROR_NO_SPACE;
    if (full && no_space) *no_space = true;
    out.push_back(fmt::format("{}: {}", disk, full ? "no space left" : "I/O error"));
  }
  return out;
}

}  // namespace rlab::vm
