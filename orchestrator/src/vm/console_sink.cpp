#include "vm/console_sink.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

namespace fs = std::filesystem;

namespace rlab::vm {

struct ConsoleSink::State {
  int listener = -1, log = -1, stop = -1;
  std::atomic<bool> connected{false};
  std::promise<void> done;
  std::thread pump;
  fs::path socket;
  ~State() {
    for (int fd : {listener, log, stop})
      if (fd >= 0) ::close(fd);
  }
};

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::system_error(errno, std::generic_category(), what); }

// Appends what `conn` has now to the log; false at the connection's end (or an error).
bool drain(int conn, int log) {
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(conn, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return true;
    if (n <= 0) return false;
    for (ssize_t off = 0; off < n;) {
      const ssize_t w = ::write(log, buf + off, static_cast<size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;  // a full disk loses console text, never the boot
      off += w;
    }
  }
}

// The thread: one connection accepted, its bytes appended to the log until its end. Asked to
// stop, it takes what is already there (a connection waiting, bytes sent) and ends.
void pump(ConsoleSink::State& s) {
  int conn = -1;
  for (bool stopping = false; !stopping;) {
    pollfd p[2] = {{conn < 0 ? s.listener : conn, POLLIN, 0}, {s.stop, POLLIN, 0}};
    if (::poll(p, 2, -1) < 0 && errno != EINTR) break;
    stopping = p[1].revents & POLLIN;
    if (conn < 0) {
      conn = ::accept4(s.listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (conn >= 0) s.connected = true;
      else if (stopping || errno != EAGAIN) break;
    }
    if (conn >= 0 && !drain(conn, s.log)) break;
  }
  if (conn >= 0) ::close(conn);
}

}  // namespace

ConsoleSink::ConsoleSink(const fs::path& socket, const fs::path& log) : state_(std::make_shared<State>()) {
  State& s = *state_;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket.string().size() >= sizeof addr.sun_path)
    throw std::invalid_argument("console socket '" + socket.string() + "' is longer than the 107 bytes a unix socket path holds");
  std::strcpy(addr.sun_path, socket.c_str());
  s.log = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (s.log < 0) fail("console log " + log.string());
  s.stop = ::eventfd(0, EFD_CLOEXEC);
  if (s.stop < 0) fail("eventfd");
  s.listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (s.listener < 0) fail("socket");
  ::unlink(socket.c_str());
  if (::bind(s.listener, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) fail("bind " + socket.string());
  s.socket = socket;
  if (::chmod(socket.c_str(), 0666) != 0 || ::listen(s.listener, 1) != 0) fail("listen " + socket.string());
  s.pump = std::thread([st = state_] {
    pump(*st);
    st->done.set_value();
  });
}

ConsoleSink::~ConsoleSink() {
  State& s = *state_;
  if (s.connected) s.done.get_future().wait_for(std::chrono::seconds(5));
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto w = ::write(s.stop, &one, sizeof one);
  if (s.pump.joinable()) s.pump.join();
  ::unlink(s.socket.c_str());
}

}  // namespace rlab::vm
