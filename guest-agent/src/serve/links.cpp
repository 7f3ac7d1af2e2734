#include "serve/links.hpp"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace rlab::agent {
namespace asio = boost::asio;
using local = asio::local::stream_protocol;

// -------------------------------------------------------------------------- WriteQueue

void WriteQueue::push(std::string line) {
  if (bytes_ + line.size() > kMaxQueuedBytes) {
    if (++dropped_ <= 10 || dropped_ % 1000 == 0)
      std::fprintf(stderr, "rlab-agent: host not reading, dropped a message (%zu so far)\n", dropped_);
    return;
  }
  bytes_ += line.size();
  q_.push_back(std::move(line));
  next();
}

void WriteQueue::set_enabled(bool on) {
  enabled_ = on;
  next();
}

void WriteQueue::next() {
  if (writing_ || !enabled_) return;
  if (q_.empty()) {
    auto cbs = std::move(flush_cbs_);
    flush_cbs_.clear();
    for (auto& cb : cbs) cb();
    return;
  }
  writing_ = true;
  write_(q_.front(), [this](boost::system::error_code ec) {
    writing_ = false;
    if (q_.empty()) return;  // cleared meanwhile
    if (ec) std::fprintf(stderr, "rlab-agent: write failed: %s (message dropped)\n", ec.message().c_str());
    bytes_ -= q_.front().size();
    q_.pop_front();
    next();
  });
}

void WriteQueue::flush_then(asio::io_context& io, std::function<void()> cb) {
  if (q_.empty() && !writing_) {
    asio::post(io, std::move(cb));
    return;
  }
  flush_cbs_.push_back(std::move(cb));
}

void WriteQueue::clear() {
  q_.clear();
  bytes_ = 0;
  auto cbs = std::move(flush_cbs_);
  flush_cbs_.clear();
  for (auto& cb : cbs) cb();
}

// -------------------------------------------------------------------------- UnixServer

class UnixServer::Conn : public Link, public std::enable_shared_from_this<UnixServer::Conn> {
 public:
  Conn(asio::io_context& io, local::socket s, Agent& agent)
      : io_(io), sock_(std::move(s)), agent_(agent), queue_([this](const std::string& line, auto done) {
          asio::async_write(sock_, asio::buffer(line),
                            [self = shared_from_this(), done](boost::system::error_code ec, std::size_t) { done(ec); });
        }) {}
  void start() {
    agent_.connected(this);
    read();
  }
  void close() {
    if (closed_) return;
    closed_ = true;
    agent_.disconnected(this);
    boost::system::error_code ec;
    sock_.close(ec);
    queue_.clear();
  }
  void send(std::string line) override {
    if (!closed_) queue_.push(std::move(line));
  }
  void flush_then(std::function<void()> cb) override { queue_.flush_then(io_, std::move(cb)); }

 private:
  void read() {
    sock_.async_read_some(asio::buffer(buf_), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
      if (self->closed_) return;
      if (ec) {
        self->close();
        return;
      }
      self->agent_.received(std::string_view(self->buf_, n));
      self->read();
    });
  }
  asio::io_context& io_;
  local::socket sock_;
  Agent& agent_;
  WriteQueue queue_;
  char buf_[65536];
  bool closed_ = false;
};

UnixServer::UnixServer(asio::io_context& io, const std::string& path, Agent& agent)
    : io_(io), path_(path), agent_(agent), acceptor_(io) {
  ::unlink(path.c_str());
  acceptor_.open(local());
  acceptor_.bind(local::endpoint(path));
  acceptor_.listen();
  accept();
}

UnixServer::~UnixServer() {
  if (conn_) conn_->close();
  ::unlink(path_.c_str());
}

void UnixServer::accept() {
  acceptor_.async_accept([this](boost::system::error_code ec, local::socket s) {
    if (ec) {
      if (ec != asio::error::operation_aborted) accept();
      return;
    }
    if (conn_) conn_->close();  // the newest host wins
    conn_ = std::make_shared<Conn>(io_, std::move(s), agent_);
    conn_->start();
    accept();
  });
}

// -------------------------------------------------------------------------- DeviceServer

DeviceServer::DeviceServer(asio::io_context& io, std::string path, Agent& agent)
    : io_(io),
      path_(std::move(path)),
      agent_(agent),
      dev_(io),
      timer_(io),
      queue_([this](const std::string& line, auto done) {
        asio::async_write(dev_, asio::buffer(line), [done](boost::system::error_code ec, std::size_t) { done(ec); });
      }) {
  queue_.set_enabled(false);
  open();
}

void DeviceServer::send(std::string line) { queue_.push(std::move(line)); }
void DeviceServer::flush_then(std::function<void()> cb) { queue_.flush_then(io_, std::move(cb)); }

std::string virtio_port_device(const std::string& sys_class, const std::string& name) {
  std::error_code ec;
  for (const auto& port : std::filesystem::directory_iterator(sys_class, ec)) {
    std::ifstream in(port.path() / "name");
    std::string line;
    if (std::getline(in, line) && line == name) return port.path().filename().string();
  }
  return {};
}

namespace {
constexpr std::string_view kPortLinks = "/dev/virtio-ports/";
}

/// Opens path_; a /dev/virtio-ports/<name> link /init could not make yet (the port's name had
/// not arrived) is made here from sysfs, as udev would.
int DeviceServer::open_port() {
  constexpr int kFlags = O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
  int fd = ::open(path_.c_str(), kFlags);
  if (fd >= 0 || errno != ENOENT || !path_.starts_with(kPortLinks)) return fd;
  const std::string node = virtio_port_device("/sys/class/virtio-ports", path_.substr(kPortLinks.size()));
  if (node.empty()) {
    errno = ENOENT;
    return -1;
  }
  if (::symlink(("../" + node).c_str(), path_.c_str()) != 0 && errno != EEXIST)
    std::fprintf(stderr, "rlab-agent: link %s: %s\n", path_.c_str(), std::strerror(errno));
  return ::open(("/dev/" + node).c_str(), kFlags);
}

void DeviceServer::open() {
  int fd = open_port();
  if (fd < 0) {
    if (!warned_) std::fprintf(stderr, "rlab-agent: open %s: %s (retrying)\n", path_.c_str(), std::strerror(errno));
    warned_ = true;
    timer_.expires_after(std::chrono::seconds(1));
    timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) open();
    });
    return;
  }
  if (::isatty(fd)) {
    termios t{};
    if (::tcgetattr(fd, &t) == 0) {
      ::cfmakeraw(&t);
      ::tcsetattr(fd, TCSANOW, &t);
    }
  }
  dev_.assign(fd);
  wait_host();
}

void DeviceServer::wait_host() {
  pollfd p{dev_.native_handle(), POLLIN | POLLOUT, 0};
  const int n = ::poll(&p, 1, 0);
  if (n >= 0 && !(p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
    agent_.connected(this);
    queue_.set_enabled(true);
    read();
    return;
  }
  timer_.expires_after(std::chrono::milliseconds(250));
  timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) wait_host();
  });
}

void DeviceServer::read() {
  dev_.async_read_some(asio::buffer(buf_), [this](boost::system::error_code ec, std::size_t n) {
    if (ec == asio::error::eof || (ec && ec != asio::error::operation_aborted)) {
      // No host on the other end (virtio-serial returns EOF / POLLHUP): keep queued messages
      // for the next host and wait for one.
      queue_.set_enabled(false);
      wait_host();
      return;
    }
    if (ec) return;
    agent_.received(std::string_view(buf_, n));
    read();
  });
}

}  // namespace rlab::agent
