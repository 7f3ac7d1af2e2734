#include "vm/channel.hpp"

#include <fmt/format.h>
#include <libvirt/libvirt.h>
#include <spdlog/spdlog.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <condition_variable>
#include <iterator>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace rlab::vm {

struct StreamBridge::State {
  std::unique_ptr<ByteStream> stream;
  std::string name;
  int fd = -1;    ///< the bridge's end of the socketpair
  int wake = -1;  ///< eventfd: close() wakes the thread
  std::atomic<bool> closing{false};
  std::mutex mu;
  std::condition_variable cv;
  bool running = false;  ///< the thread has not finished (guarded by mu)
  std::string error;     ///< why the stream ended (guarded by mu)

  ~State() {
    for (int f : {fd, wake})
      if (f >= 0) ::close(f);
  }
  void fail(const std::string& why) {
    if (closing) return;  // an error caused by close() is not the stream's
    std::lock_guard lk(mu);
    if (error.empty()) error = why;
  }
  void finished() {
    std::lock_guard lk(mu);
    running = false;
    cv.notify_all();
  }
};

namespace {

constexpr std::size_t kChunk = 64 * 1024;

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

void drain(int fd) {
  std::uint64_t v;
  while (::read(fd, &v, sizeof v) > 0) {
  }
}

/// How one pass of the pump ended.
enum class Pass { idle, moved, ended };

/// Stream -> socket: everything the stream has now.
Pass from_stream(StreamBridge::State& s, std::vector<char>& buf) {
  Pass p = Pass::idle;
  for (;;) {
    const long n = s.stream->recv(buf.data(), buf.size());
    if (n == ByteStream::kAgain) return p;
    if (n < 0) s.fail(s.stream->error());
    if (n <= 0) return Pass::ended;  // the stream's end or error
    if (!write_all(s.fd, buf.data(), static_cast<std::size_t>(n))) return Pass::ended;  // the session closed
    p = Pass::moved;
  }
}

/// Socket -> stream: what is pending first, then what the session wrote.
Pass to_stream(StreamBridge::State& s, std::vector<char>& buf, std::string& pending) {
  if (pending.empty()) {
    const ssize_t r = ::recv(s.fd, buf.data(), buf.size(), MSG_DONTWAIT);
    if (r == 0) return Pass::ended;  // the session closed its end
    if (r < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? Pass::idle : Pass::ended;
    pending.assign(buf.data(), static_cast<std::size_t>(r));
  }
  const long n = s.stream->send(pending.data(), pending.size());
  if (n == ByteStream::kAgain) return Pass::moved;  // read from the session, the stream is full
  if (n < 0) {
    s.fail(s.stream->error());
    return Pass::ended;
  }
  pending.erase(0, static_cast<std::size_t>(n));
  return Pass::moved;
}

// The bridge's thread: both directions until either side ends or close() asks, then the
// stream is aborted and the socket shut down (the session reads end-of-file).
void pump(const std::shared_ptr<StreamBridge::State>& sp) {
  auto& s = *sp;
  std::vector<char> in(kChunk), out(kChunk);
  std::string pending;  ///< read from the session, not yet taken by the stream
  while (!s.closing) {
    const Pass a = from_stream(s, in);
    if (a == Pass::ended) break;
    const Pass b = to_stream(s, out, pending);
    if (b == Pass::ended) break;
    if (a == Pass::moved || (b == Pass::moved && pending.empty())) continue;
    const int ready = s.stream->wake_fd();
    pollfd fds[3] = {{s.fd, static_cast<short>(pending.empty() ? POLLIN : 0), 0}, {s.wake, POLLIN, 0}, {ready, POLLIN, 0}};
    const int n = ready >= 0 ? 3 : 2;
    ::poll(fds, static_cast<nfds_t>(n), ready >= 0 && pending.empty() ? 1000 : 20);
    if (fds[1].revents & POLLIN) drain(s.wake);
  }
  s.stream->abort();
  ::shutdown(s.fd, SHUT_RDWR);
  s.finished();
}

/// A non-blocking libvirt stream on a connection of its own. libvirt's event loop thread reads
/// what arrives into the stream's buffer; the bridge looks every 20 ms (no stream event
/// callback: one fewer object shared with that thread, and nothing it could leave behind).
class LibvirtStream final : public ByteStream {
 public:
  /// Takes `st` (created with VIR_STREAM_NONBLOCK on `conn`, whose handle is `c`).
  LibvirtStream(std::shared_ptr<Connection> conn, virConnectPtr c, virStreamPtr st)
      : conn_(std::move(conn)), c_(c), st_(st) {}
  ~LibvirtStream() override {
    abort();
    virStreamFree(st_);
  }
  long recv(char* buf, std::size_t n) override {
    const int r = virStreamRecv(st_, buf, n);
    // libvirt 9.0 does not end a non-blocking stream whose connection closed: it answers
    // "nothing yet" for ever. Only a send would fail, and while the agent works (prepare's
    // mkfs) the session sends nothing; so a closed connection (the daemon gone, or its
    // keepalive unanswered) ends the stream here. virConnectIsAlive is local: no RPC.
    if (r == -2 && virConnectIsAlive(c_) == 0) {
      error_ = fmt::format("the connection to {} closed (its libvirt stopped answering)", conn_->uri());
      return -1;
    }
    if (r == -2) return kAgain;
    if (r < 0) set_error();
    return r;
  }
  long send(const char* buf, std::size_t n) override {
    const int r = virStreamSend(st_, buf, n);
    if (r == -2) return kAgain;
    if (r < 0) set_error();
    return r;
  }
  void abort() override {
    if (aborted_) return;
    aborted_ = true;
    virStreamAbort(st_);  // fails harmlessly on a stream already ended
  }
  int wake_fd() const override { return -1; }
  std::string error() const override { return error_; }

 private:
  void set_error() {
    const std::string e = last_libvirt_error();
    error_ = e.empty() ? "libvirt stream error" : e;
  }
  std::shared_ptr<Connection> conn_;  ///< the stream's own connection, closed after it
  virConnectPtr c_;                   ///< its handle (conn_ keeps it open)
  virStreamPtr st_;
  bool aborted_ = false;
  std::string error_;
};

}  // namespace

StreamBridge::StreamBridge(std::unique_ptr<ByteStream> stream, std::string name)
    : state_(std::make_shared<State>()) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::system_error(errno, std::generic_category(), "agent channel: socketpair");
  state_->stream = std::move(stream);
  state_->name = std::move(name);
  state_->fd = sv[0];
  session_fd_ = sv[1];
  state_->wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (state_->wake < 0) {
    const int e = errno;
    ::close(session_fd_);
    throw std::system_error(e, std::generic_category(), "agent channel: eventfd");
  }
  state_->running = true;
  try {
    pump_ = std::thread(pump, state_);
  } catch (...) {
    state_->running = false;
    ::close(session_fd_);
    throw;
  }
}

StreamBridge::~StreamBridge() {
  close();
  if (session_fd_ >= 0) ::close(session_fd_);
}

int StreamBridge::take_session_fd() {
  int fd = session_fd_;
  session_fd_ = -1;
  return fd;
}

void StreamBridge::close(std::chrono::milliseconds grace) {
  auto& s = *state_;
  if (!pump_.joinable()) return;  // closed before
  if (!s.closing.exchange(true)) {
    // Wakes the thread from poll, and from a send to a session that stopped reading.
    ::shutdown(s.fd, SHUT_RDWR);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto w = ::write(s.wake, &one, sizeof one);
  }
  std::unique_lock lk(s.mu);
  const bool ended = s.cv.wait_for(lk, grace, [&] { return !s.running; });
  lk.unlock();
  if (ended) {
    pump_.join();
    return;
  }
  pump_.detach();  // it holds the state (stream, socket) and releases it when it ends
  spdlog::warn("{}: the agent channel's libvirt stream did not end within {} ms after it was "
               "aborted (host unreachable?); it is released when it does",
               s.name, grace.count());
}

std::string StreamBridge::stream_error() const {
  std::lock_guard lk(state_->mu);
  return state_->error;
}

namespace {

/// A new connection to `uri` for one stream. The host answered a moment ago on its shared
/// connection, so a failed open is taken as transient (an ssh handshake that timed out on a
/// host whose CPUs its guests fill; the emulated KVM host has refused them for 80 s while two
/// guests booted): tried six times, 2, 5, 10, 20 and 40 s apart, and the last error thrown.
std::shared_ptr<Connection> own_connection(const std::string& uri) {
  constexpr int kPauseS[] = {2, 5, 10, 20, 40};
  constexpr int kAttempts = static_cast<int>(std::size(kPauseS)) + 1;
  for (int attempt = 1;; ++attempt) {
    try {
      return std::make_shared<Connection>(uri);
    } catch (const LibvirtError& e) {
      if (attempt == kAttempts) throw;
      const int pause = kPauseS[attempt - 1];
      spdlog::warn("{} (attempt {} of {}; trying again in {} s)", e.what(), attempt, kAttempts, pause);
      std::this_thread::sleep_for(std::chrono::seconds(pause));
    }
  }
}

}  // namespace

std::unique_ptr<StreamBridge> open_channel(Connection& conn, const std::string& domain_name,
                                           const std::string& channel) {
  auto own = own_connection(conn.uri());
  auto c = static_cast<virConnectPtr>(own->raw());
  virDomainPtr d = virDomainLookupByName(c, domain_name.c_str());
  if (!d)
    throw LibvirtError(fmt::format("libvirt ({}): no domain '{}' to open channel {} of: {}",
                                   conn.uri(), domain_name, channel, last_libvirt_error()));
  virStreamPtr st = virStreamNew(c, VIR_STREAM_NONBLOCK);
  int r = st ? virDomainOpenChannel(d, channel.c_str(), st, 0) : -1;
  const std::string err = r < 0 ? last_libvirt_error() : "";
  virDomainFree(d);
  if (r < 0) {
    if (st) virStreamFree(st);
    throw LibvirtError(fmt::format("libvirt ({}): cannot open channel {} of domain '{}': {}",
                                   conn.uri(), channel, domain_name, err));
  }
  return std::make_unique<StreamBridge>(std::make_unique<LibvirtStream>(std::move(own), c, st), domain_name);
}

}  // namespace rlab::vm
