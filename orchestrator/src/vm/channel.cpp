#include "vm/channel.hpp"

#include <fmt/format.h>
#include <libvirt/libvirt.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace rlab::vm {

struct StreamBridge::State {
  std::unique_ptr<ByteStream> stream;
  std::string name;
  int fd = -1;  ///< the bridge's end of the socketpair
  std::atomic<bool> closing{false};
  std::atomic<bool> aborted{false};
  std::mutex mu;
  std::condition_variable cv;
  int running = 0;    ///< pump threads not finished yet (guarded by mu)
  std::string error;  ///< why the stream ended (guarded by mu)

  ~State() {
    if (fd >= 0) ::close(fd);
  }
  void abort_stream() {
    if (!aborted.exchange(true)) stream->abort();
  }
  void fail(const std::string& why) {
    if (closing) return;  // an error caused by close() is not the stream's
    std::lock_guard lk(mu);
    if (error.empty()) error = why;
  }
  void finished() {
    std::lock_guard lk(mu);
    --running;
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

// Stream -> socket. The stream's end (or error) shuts the socket down both ways: the session
// reads end-of-file and the other thread's read returns.
void pump_from_stream(const std::shared_ptr<StreamBridge::State>& s) {
  std::vector<char> buf(kChunk);
  for (;;) {
    long n = s->stream->recv(buf.data(), buf.size());
    if (n < 0) s->fail(s->stream->error());
    if (n <= 0) break;
    if (!write_all(s->fd, buf.data(), static_cast<std::size_t>(n))) break;  // the session closed
  }
  ::shutdown(s->fd, SHUT_RDWR);
  s->finished();
}

// Socket -> stream. The session closing its end aborts the stream, which ends the other thread.
void pump_to_stream(const std::shared_ptr<StreamBridge::State>& s) {
  std::vector<char> buf(kChunk);
  for (;;) {
    ssize_t n = ::read(s->fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (!s->stream->send(buf.data(), static_cast<std::size_t>(n))) {
      s->fail(s->stream->error());
      break;
    }
  }
  s->abort_stream();
  s->finished();
}

/// A blocking libvirt stream (virStreamNew without VIR_STREAM_NONBLOCK).
class LibvirtStream final : public ByteStream {
 public:
  explicit LibvirtStream(virStreamPtr st) : st_(st) {}
  ~LibvirtStream() override { virStreamFree(st_); }
  long recv(char* buf, std::size_t n) override {
    int r = virStreamRecv(st_, buf, n);
    if (r < 0) set_error();
    return r;
  }
  bool send(const char* buf, std::size_t n) override {
    while (n > 0) {
      int r = virStreamSend(st_, buf, n);
      if (r < 0) {
        set_error();
        return false;
      }
      buf += r;
      n -= static_cast<std::size_t>(r);
    }
    return true;
  }
  void abort() override { virStreamAbort(st_); }  // fails harmlessly on a stream already ended
  std::string error() const override {
    std::lock_guard lk(mu_);
    return error_;
  }

 private:
  void set_error() {
    std::string e = last_libvirt_error();
    std::lock_guard lk(mu_);
    error_ = e.empty() ? "libvirt stream error" : e;
  }
  virStreamPtr st_;
  mutable std::mutex mu_;
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
  state_->running = 2;
  try {
    from_stream_ = std::thread(pump_from_stream, state_);
    to_stream_ = std::thread(pump_to_stream, state_);
  } catch (...) {
    if (!to_stream_.joinable()) state_->finished();
    if (!from_stream_.joinable()) state_->finished();
    close();
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
  if (!from_stream_.joinable() && !to_stream_.joinable()) return;  // closed before
  if (!s.closing.exchange(true)) {
    ::shutdown(s.fd, SHUT_RDWR);
    s.abort_stream();
  }
  std::unique_lock lk(s.mu);
  const bool ended = s.cv.wait_for(lk, grace, [&] { return s.running == 0; });
  lk.unlock();
  for (std::thread* t : {&from_stream_, &to_stream_}) {
    if (!t->joinable()) continue;
    if (ended) t->join();
    else t->detach();  // it holds the state (stream, socket) and releases it when it ends
  }
  if (!ended)
    spdlog::warn("{}: the agent channel's libvirt stream did not end within {} ms after it was "
                 "aborted (host unreachable?); it is released when it does",
                 s.name, grace.count());
}

std::string StreamBridge::stream_error() const {
  std::lock_guard lk(state_->mu);
  return state_->error;
}

std::unique_ptr<StreamBridge> open_channel(Connection& conn, const std::string& domain_name,
                                           const std::string& channel) {
  auto c = static_cast<virConnectPtr>(conn.raw());
  virDomainPtr d = virDomainLookupByName(c, domain_name.c_str());
  if (!d)
    throw LibvirtError(fmt::format("libvirt ({}): no domain '{}' to open channel {} of: {}",
                                   conn.uri(), domain_name, channel, last_libvirt_error()));
  virStreamPtr st = virStreamNew(c, 0);
  int r = st ? virDomainOpenChannel(d, channel.c_str(), st, 0) : -1;
  const std::string err = r < 0 ? last_libvirt_error() : "";
  virDomainFree(d);
  if (r < 0) {
    if (st) virStreamFree(st);
    throw LibvirtError(fmt::format("libvirt ({}): cannot open channel {} of domain '{}': {}",
                                   conn.uri(), channel, domain_name, err));
  }
  return std::make_unique<StreamBridge>(std::make_unique<LibvirtStream>(st), domain_name);
}

}  // namespace rlab::vm
