#pragma once
// The agent channel through libvirt: virDomainOpenChannel on the host's own libvirt connection
// (qemu+ssh, qemu+tcp, qemu+tls: libvirt's transport and auth, no port of rlab's own), so
// QEMU on another machine reaches rlab's agent link. The stream is bridged to one end of a
// local socketpair; the other end goes to link::AgentSession, which then works exactly as on
// a unix socket QEMU binds locally (same framing, limits, timeouts).
//
// The bridge is one thread that moves bytes both ways without blocking on the stream: it
// waits (poll) on the socket, on a wake-up descriptor the stream signals when it may make
// progress, and on close(). The end of either side ends the other: the stream's end (guest
// powered off, domain destroyed, connection lost) shuts the socket down, so the session reads
// end-of-file; the session closing its end, close() or the destructor abort the stream.
//
// Why one thread and a connection of its own per channel: libvirt 9.0's RPC client (Debian 12)
// leaves a socket watch with a pointer into a caller's stack attached when another thread's
// call wakes its event loop; when a different thread runs that loop next, the watch fires
// into a stack that has moved on (rlab crashed so in virNetClientIOEventFD, under concurrent
// boots on the emulated KVM host). A blocking receive holds that loop for seconds while
// everything else on the connection wakes it. So every call on a channel's stream comes from
// its bridge's thread, on a connection nothing else uses; the stream is non-blocking (libvirt's
// event loop thread, vm/libvirt.hpp, reads what arrives into it without running that loop).
#include "vm/libvirt.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>

namespace rlab::vm {

/// A bidirectional, non-blocking byte stream the bridge pumps (a libvirt virStream in rlab;
/// tests use others). Every call comes from the bridge's one thread.
class ByteStream {
 public:
  /// recv() and send(): nothing can move now; try again when wake_fd() turns readable.
  static constexpr long kAgain = -2;
  virtual ~ByteStream() = default;
  /// Bytes received (> 0, at most `n`), 0 at the stream's end, kAgain when none are there
  /// now, -1 on an error (error() says which).
  virtual long recv(char* buf, std::size_t n) = 0;
  /// Bytes taken (> 0, at most `n`), kAgain when none can be taken now, -1 on an error.
  virtual long send(const char* buf, std::size_t n) = 0;
  /// Ends the stream. Called once, last.
  virtual void abort() = 0;
  /// A descriptor that turns readable when recv() or send() may make progress (the bridge
  /// only polls it; recv() drains what it signals), or -1: the bridge then tries every 20 ms.
  virtual int wake_fd() const = 0;
  /// The last error, "" when none.
  virtual std::string error() const = 0;
};

/// A running bridge between a ByteStream and a local socketpair (see the top of this file).
/// Thread-safe: close() may be called from any thread.
class StreamBridge {
 public:
  /// Creates the socketpair and starts the bridge's thread. `name` (e.g. the domain) is used in
  /// log lines. Throws std::system_error when the socketpair, its wake-up descriptor or the
  /// thread cannot be created.
  StreamBridge(std::unique_ptr<ByteStream> stream, std::string name);
  /// close().
  ~StreamBridge();
  StreamBridge(const StreamBridge&) = delete;
  StreamBridge& operator=(const StreamBridge&) = delete;

  /// The session's end of the socketpair (a connected AF_UNIX stream socket, close-on-exec).
  /// Ownership passes to the caller; -1 after the first call.
  int take_session_fd();

  /// Tells the bridge's thread to abort the stream and shut the socket down, and waits up to
  /// `grace` for it. A thread still blocked after that (in a libvirt call to a host that
  /// vanished without closing the connection) is left to finish on its own: it owns what it
  /// uses and releases it when it ends; a warning names the bridge. Idempotent.
  void close(std::chrono::milliseconds grace = std::chrono::seconds(10));

  /// Why the stream ended ("" while it runs or when it ended cleanly): libvirt's message.
  std::string stream_error() const;

  /// Shared between the bridge and its threads (channel.cpp).
  struct State;

 private:
  std::shared_ptr<State> state_;
  int session_fd_ = -1;
  std::thread pump_;  ///< both directions
};

/// Opens the virtio-serial channel `channel` (kAgentChannel) of the running domain
/// `domain_name` on a new connection to `conn`'s URI (the stream's own, closed with it) with
/// virDomainOpenChannel, as a non-blocking stream, and bridges it. The domain's channel
/// must be a unix channel in bind mode (domain_xml with agent_via_libvirt) or a pty.
/// The new connection is tried six times, 2, 5, 10, 20 and 40 s apart (a busy remote host's
/// ssh handshake can time out). Throws LibvirtError naming the host, the domain and libvirt's error (no such domain, no
/// such channel, the channel already open, the connection lost).
std::unique_ptr<StreamBridge> open_channel(Connection& conn, const std::string& domain_name,
                                           const std::string& channel);

}  // namespace rlab::vm
