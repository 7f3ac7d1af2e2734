#pragma once
// Transports: a unix socket server (tests, host-side debugging) and a character device
// (the virtio-serial port in the guest; also a pty).
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <memory>
#include <string>

#include "serve/agent.hpp"

namespace rlab::agent {

/// Queue of lines written in order to one async stream. Bounded: beyond kMaxQueuedBytes new
/// lines are dropped (and counted) rather than growing without limit while a host is stalled.
class WriteQueue {
 public:
  static constexpr std::size_t kMaxQueuedBytes = 16u << 20;
  /// `write`: starts writing the front line and calls its callback with the error.
  using Writer = std::function<void(const std::string&, std::function<void(boost::system::error_code)>)>;
  explicit WriteQueue(Writer w) : write_(std::move(w)) {}
  void push(std::string line);
  void flush_then(boost::asio::io_context& io, std::function<void()> cb);
  /// Drops everything (connection gone) and fires pending flush callbacks.
  void clear();
  /// Whether writes may be started (device: host connected).
  void set_enabled(bool on);

 private:
  void next();
  Writer write_;
  std::deque<std::string> q_;
  std::size_t bytes_ = 0;
  bool writing_ = false;
  bool enabled_ = true;
  std::vector<std::function<void()>> flush_cbs_;
  std::size_t dropped_ = 0;
};

/// Listens on a unix socket path; one host connection at a time (a new one replaces the old).
class UnixServer {
 public:
  UnixServer(boost::asio::io_context& io, const std::string& path, Agent& agent);
  ~UnixServer();

 private:
  class Conn;
  void accept();
  boost::asio::io_context& io_;
  std::string path_;
  Agent& agent_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  std::shared_ptr<Conn> conn_;
};

/// Serves on a character device (virtio-serial port, pty). Opens it O_RDWR (retrying until it
/// exists), switches ttys to raw mode, and treats POLLHUP / EOF as "no host connected": it then
/// polls every 250 ms and sends hello again when a host (re)connects.
/// The character device of the virtio-serial port named `name` ("org.rlab.agent.0"): scans
/// `<sys_class>/*/name` (sysfs, one line each) and returns the port's node name ("vport1p1",
/// under /dev), or "" when no port has that name yet. The name reaches the guest in a control
/// message from QEMU after the port is probed, so it may appear after /init has looked.
std::string virtio_port_device(const std::string& sys_class, const std::string& name);

class DeviceServer : public Link {
 public:
  DeviceServer(boost::asio::io_context& io, std::string path, Agent& agent);
  void send(std::string line) override;
  void flush_then(std::function<void()> cb) override;

 private:
  void open();
  int open_port();
  void wait_host();
  void read();
  boost::asio::io_context& io_;
  std::string path_;
  Agent& agent_;
  boost::asio::posix::stream_descriptor dev_;
  boost::asio::steady_timer timer_;
  WriteQueue queue_;
  char buf_[65536];
  bool warned_ = false;
};

}  // namespace rlab::agent
