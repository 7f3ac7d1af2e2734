#pragma once
// The agent channel through libvirt: virDomainOpenChannel on the host's own libvirt connection
// (qemu+ssh, qemu+tcp, qemu+tls: libvirt's transport and auth, no port of rlab's own), so
// QEMU on another machine reaches rlab's agent link. The stream is bridged to one end of a
// local socketpair; the other end goes to link::AgentSession, which then works exactly as on
// a unix socket QEMU binds locally (same framing, limits, timeouts).
//
// The bridge is two threads: one blocks in the stream's receive and writes what arrives to
// the socket, the other reads the socket and sends to the stream. The end of either side ends
// the other: the stream's end (guest powered off, domain destroyed, connection lost) shuts the
// socket down, so the session reads end-of-file; close() (or the destructor) shuts the socket
// down and aborts the stream. libvirt's blocking streams need no event loop; a connection
// carries the streams of many concurrent boots.
#include "vm/libvirt.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>

namespace rlab::vm {

/// A bidirectional byte stream the bridge pumps (a libvirt virStream in rlab; tests use
/// others). recv() and send() are called from two different threads, abort() from a third.
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  /// Blocks until bytes arrive: their count (> 0, at most `n`), 0 at the stream's end, < 0 on
  /// an error (error() says which).
  virtual long recv(char* buf, std::size_t n) = 0;
  /// Sends all `n` bytes; false on an error (error() says which).
  virtual bool send(const char* buf, std::size_t n) = 0;
  /// Ends the stream from another thread: a blocked recv() returns (< 0 or 0). Called once.
  virtual void abort() = 0;
  /// The last error, "" when none.
  virtual std::string error() const = 0;
};

/// A running bridge between a ByteStream and a local socketpair (see the top of this file).
/// Thread-safe: close() may be called from any thread.
class StreamBridge {
 public:
  /// Creates the socketpair and starts the two threads. `name` (e.g. the domain) is used in
  /// log lines. Throws std::system_error when the socketpair or a thread cannot be created.
  StreamBridge(std::unique_ptr<ByteStream> stream, std::string name);
  /// close().
  ~StreamBridge();
  StreamBridge(const StreamBridge&) = delete;
  StreamBridge& operator=(const StreamBridge&) = delete;

  /// The session's end of the socketpair (a connected AF_UNIX stream socket, close-on-exec).
  /// Ownership passes to the caller; -1 after the first call.
  int take_session_fd();

  /// Shuts the bridge's end of the socket down, aborts the stream, and waits up to `grace`
  /// for both threads. A thread still blocked after that (a host that vanished without
  /// closing the connection) is left to finish on its own: it owns what it uses and releases
  /// it when it ends; a warning names the bridge. Idempotent.
  void close(std::chrono::milliseconds grace = std::chrono::seconds(10));

  /// Why the stream ended ("" while it runs or when it ended cleanly): libvirt's message.
  std::string stream_error() const;

  /// Shared between the bridge and its threads (channel.cpp).
  struct State;

 private:
  std::shared_ptr<State> state_;
  int session_fd_ = -1;
  std::thread from_stream_;  ///< stream -> socket
  std::thread to_stream_;    ///< socket -> stream
};

/// Opens the virtio-serial channel `channel` (kAgentChannel) of the running domain
/// `domain_name` on `conn` with virDomainOpenChannel and bridges it. The domain's channel
/// must be a unix channel in bind mode (domain_xml with agent_via_libvirt) or a pty.
/// Throws LibvirtError naming the host, the domain and libvirt's error (no such domain, no
/// such channel, the channel already open, the connection lost).
std::unique_ptr<StreamBridge> open_channel(Connection& conn, const std::string& domain_name,
                                           const std::string& channel);

}  // namespace rlab::vm
