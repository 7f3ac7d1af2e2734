#pragma once
// The host end of the agent link: one connection to a guest's rlab-agent over the unix socket
// QEMU exposes for the virtio-serial port org.rlab.agent.0, or over a socket bridged to that
// port through libvirt (attach(), vm/channel.hpp), or, in tests, the socket a host-native
// agent listens on. Boost.Asio, asynchronous, every operation with a timeout;
// framing and messages come from the protocol library (docs/protocol.md).
#include "rlab/protocol/protocol.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>

#include <array>
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <variant>

namespace rlab::link {

using Clock = std::chrono::steady_clock;
using Duration = std::chrono::milliseconds;

/// The link failed: timeout, connection lost, a protocol violation, or an `error` reply.
/// `phase` names the step ("connect", "hello", "prepare", "run", "shutdown").
struct LinkError : std::runtime_error {
  LinkError(std::string phase, const std::string& message, bool timed_out = false);
  std::string phase;
  bool timed_out = false;  ///< the agent did not answer in time
};

/// One line from the agent: a message, or why the line could not be understood.
using Incoming = std::variant<protocol::AgentMessage, protocol::ProtocolError>;

/// Callbacks of run(): each `sample` and `pass` message as it arrives.
struct RunCallbacks {
  std::function<void(const protocol::Sample&)> on_sample;
  std::function<void(const protocol::PassReport&)> on_pass;
};

/// Timeouts of run().
struct RunTimeouts {
  /// With no message for this long, a `hello` request is sent as a liveness probe.
  Duration quiet{20'000};
  /// After a probe, the agent must send something within this long, else "stopped answering".
  Duration probe{15'000};
  /// Upper bound of the whole run (passes x (duration + pause) plus a margin).
  Duration total{3'600'000};
};

/// A session with one agent. Not thread safe: use it from the thread running its io_context;
/// only cancel() may be called from another thread.
class AgentSession {
 public:
  explicit AgentSession(boost::asio::io_context& io);

  // ------------------------------------------------------------ asynchronous primitives
  using Handler = std::function<void(std::error_code)>;
  using ReceiveHandler = std::function<void(std::error_code, Incoming)>;

  /// Connects to the unix socket `path`, retrying while it does not exist or refuses
  /// (QEMU still starting) until `timeout`; then `handler(ec)` (timed_out on timeout).
  void async_connect(const std::filesystem::path& path, Duration timeout, Handler handler);
  /// Sends one message; `handler(ec)` after it was written or after `timeout` (timed_out).
  void async_send(const protocol::HostMessage& msg, Duration timeout, Handler handler);
  /// Delivers the next line from the agent, or an error: timed_out after `timeout` without a
  /// complete line, eof / connection_reset when the guest went away.
  void async_receive(Duration timeout, ReceiveHandler handler);

  // ------------------------------------------------------------ request/reply steps
  // Each drives the io_context until done and throws LinkError on failure.

  /// Connects (see async_connect).
  void connect(const std::filesystem::path& path, Duration timeout);
  /// Uses `fd`, an already connected AF_UNIX stream socket (e.g. vm::StreamBridge's session
  /// end), instead of connect(); the session owns and closes it. Throws LinkError ("connect")
  /// when it cannot be taken over (the fd is closed then too).
  void attach(int fd);
  /// Waits for the agent's unprompted `hello` (sent when the guest's agent starts serving).
  protocol::Hello wait_hello(Duration timeout);
  /// Sends `prepare` and waits for `prepared`.
  protocol::Prepared prepare(protocol::Prepare req, Duration timeout);
  /// Sends `run`, forwards samples and passes, returns the `result`. Liveness: see RunTimeouts.
  protocol::Result run(protocol::Run req, const RunCallbacks& callbacks,
                       const RunTimeouts& timeouts);
  /// Sends `shutdown` (poweroff) and waits for `bye`.
  void shutdown(Duration timeout);

  /// Closes the connection from any thread; pending operations fail with operation_aborted.
  void cancel();

  /// Request ids are assigned here, increasing from 1.
  protocol::RequestId next_id() { return ++last_id_; }

 private:
  template <class T>
  T await_reply(const char* phase, protocol::RequestId id, Clock::time_point deadline);
  Incoming receive(const char* phase, Clock::time_point deadline, bool* timed_out);
  void send(const char* phase, const protocol::HostMessage& msg, Duration timeout);
  void run_until(const bool& done);

  boost::asio::io_context& io_;
  boost::asio::local::stream_protocol::socket socket_;
  boost::asio::steady_timer timer_;
  protocol::LineFramer framer_;
  std::deque<protocol::Frame> frames_;
  std::array<char, 64 * 1024> rbuf_{};
  protocol::RequestId last_id_ = 0;
};

/// "" when `hello` is acceptable for a cell expecting `page_size` bytes and protocol
/// version kProtocolVersion; otherwise why not (e.g. "guest page size 4096 != cell's 65536").
std::string check_hello(const protocol::Hello& hello, unsigned page_size);

}  // namespace rlab::link
