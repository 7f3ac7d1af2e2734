#pragma once
// The request dispatcher: one connection's bytes in, protocol replies out.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "load/children.hpp"
#include "load/prepare.hpp"
#include "rlab/protocol/framing.hpp"
#include "rlab/protocol/messages.hpp"
#include "load/shell_run.hpp"

namespace rlab::agent {

/// Where the agent's messages go: the current host connection.
class Link {
 public:
  virtual ~Link() = default;
  /// Queues one encoded line for writing; never blocks.
  virtual void send(std::string line) = 0;
  /// Calls `cb` (on the io_context) once everything queued so far is written or dropped.
  virtual void flush_then(std::function<void()> cb) = 0;
};

class Agent {
 public:
  struct Options {
    bool allow_poweroff = false;  ///< --poweroff: honour shutdown.poweroff even when not PID 1
  };
  Agent(boost::asio::io_context& io, Children& children, Options opts);
  ~Agent();

  /// A host connected on `link`: resets framing and sends an unprompted hello.
  void connected(Link* link);
  /// `link` went away; messages are dropped until the next connection.
  void disconnected(Link* link);
  /// Bytes from the host.
  void received(std::string_view bytes);

 private:
  void on_line(const std::string& line);
  void handle(const protocol::HelloRequest& m);
  void handle(const protocol::Prepare& m);
  void handle(const protocol::Run& m);
  void handle(const protocol::Shutdown& m);
  void send(const protocol::AgentMessage& m);
  void finish_job();
  void power_off_or_exit(bool poweroff);

  boost::asio::io_context& io_;
  Children& children_;
  Options opts_;
  Link* link_ = nullptr;
  protocol::LineFramer framer_;
  std::unique_ptr<ShellRun> run_;
  std::unique_ptr<PrepareJob> prepare_;
  bool shutting_down_ = false;
  boost::asio::steady_timer shutdown_timer_;
  std::size_t dropped_ = 0;
};

}  // namespace rlab::agent
