#include "link/agent_session.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>

#include <memory>

#include <unistd.h>

namespace rlab::link {
namespace asio = boost::asio;
using stream = asio::local::stream_protocol;

namespace {

std::error_code to_std(const boost::system::error_code& ec) {
  if (!ec) return {};
  if (ec == asio::error::eof) return std::make_error_code(std::errc::connection_reset);
  return std::error_code(ec.value(), std::generic_category());
}

const std::error_code kTimedOut = std::make_error_code(std::errc::timed_out);

// Whichever of an I/O completion and its timeout fires first wins; the other is ignored.
struct Race {
  bool finished = false;
  bool timed_out = false;
};

/// Arms `timer` for `timeout`: if it fires before the race is finished, the race is marked
/// timed out and `socket`'s pending operations are cancelled (their handlers see the timeout).
/// Both must outlive the operation (the session owns them).
template <class Timer, class Socket>
std::shared_ptr<Race> arm(Timer& timer, Socket& socket, Duration timeout) {
  auto race = std::make_shared<Race>();
  timer.expires_after(timeout);
  timer.async_wait([&socket, race](boost::system::error_code ec) {
    if (ec || race->finished) return;
    race->timed_out = true;
    boost::system::error_code ignored;
    socket.cancel(ignored);
  });
  return race;
}

Duration left(Clock::time_point deadline) {
  auto d = std::chrono::duration_cast<Duration>(deadline - Clock::now());
  return d.count() > 0 ? d : Duration{0};
}

template <class T>
const T* as(const Incoming& in) {
  auto* msg = std::get_if<protocol::AgentMessage>(&in);
  return msg ? std::get_if<T>(msg) : nullptr;
}

std::string describe(const Incoming& in) {
  if (auto* e = std::get_if<protocol::ProtocolError>(&in))
    return fmt::format("unreadable line from agent ({}): {}", protocol::to_string(e->code),
                       e->message);
  const auto& msg = std::get<protocol::AgentMessage>(in);
  if (auto* err = std::get_if<protocol::Error>(&msg))
    return fmt::format("agent error {}: {}", protocol::to_string(err->code), err->message);
  return fmt::format("unexpected '{}' message", protocol::type_name(msg));
}

}  // namespace

LinkError::LinkError(std::string ph, const std::string& message, bool to)
    : std::runtime_error(ph + ": " + message), phase(std::move(ph)), timed_out(to) {}

AgentSession::AgentSession(asio::io_context& io) : io_(io), socket_(io), timer_(io) {}

void AgentSession::async_connect(const std::filesystem::path& path, Duration timeout,
                                 Handler handler) {
  auto deadline = Clock::now() + timeout;
  auto attempt = std::make_shared<std::function<void()>>();
  *attempt = [this, path, deadline, handler, attempt] {
    boost::system::error_code ec;
    if (socket_.is_open()) socket_.close(ec);
    socket_.open(stream(), ec);
    socket_.async_connect(stream::endpoint(path.string()), [this, deadline, handler, attempt](
                                                               boost::system::error_code ec) {
      if (!ec || ec == asio::error::operation_aborted) {
        handler(to_std(ec));
        *attempt = nullptr;  // break the self-reference
        return;
      }
      // Not there yet (ENOENT) or not listening yet (ECONNREFUSED): QEMU is still starting.
      if (Clock::now() + Duration{50} >= deadline) {
        handler(kTimedOut);
        *attempt = nullptr;
        return;
      }
      timer_.expires_after(Duration{50});
      timer_.async_wait([attempt](boost::system::error_code) {
        if (*attempt) (*attempt)();
      });
    });
  };
  (*attempt)();
}

void AgentSession::async_send(const protocol::HostMessage& msg, Duration timeout,
                              Handler handler) {
  auto line = std::make_shared<std::string>(protocol::encode(msg));
  auto race = arm(timer_, socket_, timeout);
  asio::async_write(socket_, asio::buffer(*line),
                    [this, line, race, handler](boost::system::error_code ec, std::size_t) {
                      race->finished = true;
                      timer_.cancel();
                      handler(race->timed_out ? kTimedOut : to_std(ec));
                    });
}

void AgentSession::async_receive(Duration timeout, ReceiveHandler handler) {
  if (!frames_.empty()) {
    protocol::Frame f = std::move(frames_.front());
    frames_.pop_front();
    Incoming in;
    if (auto* line = std::get_if<std::string>(&f)) {
      auto parsed = protocol::parse_agent_message(*line);
      if (auto* m = std::get_if<protocol::AgentMessage>(&parsed))
        in = std::move(*m);
      else
        in = std::get<protocol::ProtocolError>(parsed);
    } else {
      in = protocol::ProtocolError{protocol::ErrorCode::oversized,
                                   "agent sent a line longer than the protocol's limit", {}};
    }
    asio::post(io_, [handler, in = std::move(in)] { handler({}, in); });
    return;
  }
  auto deadline = Clock::now() + timeout;
  auto race = arm(timer_, socket_, timeout);
  socket_.async_read_some(
      asio::buffer(rbuf_), [this, race, handler, deadline](boost::system::error_code ec,
                                                           std::size_t n) {
        race->finished = true;
        timer_.cancel();
        if (n > 0)
          for (auto& f : framer_.feed(std::string_view(rbuf_.data(), n)))
            frames_.push_back(std::move(f));
        if (race->timed_out && frames_.empty()) return handler(kTimedOut, {});
        if (ec && frames_.empty()) return handler(to_std(ec), {});
        async_receive(left(deadline), handler);
      });
}

void AgentSession::cancel() {
  asio::post(io_, [this] {
    boost::system::error_code ignored;
    timer_.cancel();
    socket_.close(ignored);
  });
}

// ---------------------------------------------------------------- blocking steps

void AgentSession::run_until(const bool& done) {
  io_.restart();
  while (!done && io_.run_one() > 0) {
  }
}

void AgentSession::connect(const std::filesystem::path& path, Duration timeout) {
  bool done = false;
  std::error_code err;
  async_connect(path, timeout, [&](std::error_code ec) {
    err = ec;
    done = true;
  });
  run_until(done);
  if (err == kTimedOut)
    throw LinkError("connect", fmt::format("no agent socket at {} after {} ms", path.string(),
                                           timeout.count()),
                    true);
  if (err) throw LinkError("connect", fmt::format("{}: {}", path.string(), err.message()));
}

void AgentSession::attach(int fd) {
  boost::system::error_code ec;
  if (socket_.is_open()) socket_.close(ec);
  socket_.assign(stream(), fd, ec);
  if (ec) {
    ::close(fd);
    throw LinkError("connect", fmt::format("cannot use the agent channel's socket: {}", ec.message()));
  }
}

void AgentSession::send(const char* phase, const protocol::HostMessage& msg, Duration timeout) {
  bool done = false;
  std::error_code err;
  async_send(msg, timeout, [&](std::error_code ec) {
    err = ec;
    done = true;
  });
  run_until(done);
  if (err)
    throw LinkError(phase, fmt::format("cannot send '{}': {}", protocol::type_name(msg),
                                       err.message()),
                    err == kTimedOut);
}

Incoming AgentSession::receive(const char* phase, Clock::time_point deadline, bool* timed_out) {
  bool done = false;
  std::error_code err;
  Incoming in;
  async_receive(left(deadline), [&](std::error_code ec, Incoming i) {
    err = ec;
    in = std::move(i);
    done = true;
  });
  run_until(done);
  if (timed_out) *timed_out = err == kTimedOut;
  if (err == kTimedOut && timed_out) return in;
  if (err == kTimedOut) throw LinkError(phase, "the agent did not answer in time", true);
  if (err == std::errc::connection_reset)
    throw LinkError(phase, "the guest closed the agent channel");
  if (err) throw LinkError(phase, err.message());
  return in;
}

template <class T>
T AgentSession::await_reply(const char* phase, protocol::RequestId id,
                            Clock::time_point deadline) {
  for (;;) {
    Incoming in = receive(phase, deadline, nullptr);
    if (auto* m = as<T>(in)) {
      if constexpr (std::is_same_v<T, protocol::Hello>) return *m;
      else if (m->id == id) return *m;
      continue;
    }
    // A late unprompted hello (the agent re-greets on reconnect) is not an error.
    if (as<protocol::Hello>(in)) continue;
    throw LinkError(phase, describe(in));
  }
}

protocol::Hello AgentSession::wait_hello(Duration timeout) {
  return await_reply<protocol::Hello>("hello", 0, Clock::now() + timeout);
}

protocol::Prepared AgentSession::prepare(protocol::Prepare req, Duration timeout) {
  auto deadline = Clock::now() + timeout;
  req.id = next_id();
  send("prepare", req, left(deadline));
  return await_reply<protocol::Prepared>("prepare", req.id, deadline);
}

void AgentSession::shutdown(Duration timeout) {
  auto deadline = Clock::now() + timeout;
  protocol::Shutdown req{next_id(), true};
  send("shutdown", req, left(deadline));
  await_reply<protocol::Bye>("shutdown", req.id, deadline);
}

protocol::Result AgentSession::run(protocol::Run req, const RunCallbacks& cb,
                                   const RunTimeouts& t) {
  const auto end = Clock::now() + t.total;
  req.id = next_id();
  send("run", req, t.quiet);
  std::optional<protocol::RequestId> probe;  // outstanding liveness probe
  for (;;) {
    auto wait_until = std::min(end, Clock::now() + (probe ? t.probe : t.quiet));
    bool quiet = false;
    Incoming in = receive("run", wait_until, &quiet);
    if (quiet) {
      if (Clock::now() >= end)
        throw LinkError("run", fmt::format("no result after {} s", t.total.count() / 1000), true);
      if (probe)
        throw LinkError("run",
                        fmt::format("the agent stopped answering ({} s without a message, "
                                    "liveness probe unanswered)",
                                    (t.quiet + t.probe).count() / 1000),
                        true);
      probe = next_id();
      send("run", protocol::HelloRequest{*probe, protocol::kProtocolVersion}, t.probe);
      continue;
    }
    if (auto* s = as<protocol::Sample>(in)) {
      probe.reset();
      if (s->id == req.id && cb.on_sample) cb.on_sample(*s);
      continue;
    }
    if (auto* p = as<protocol::PassReport>(in)) {
      probe.reset();
      if (p->id == req.id && cb.on_pass) cb.on_pass(*p);
      continue;
    }
    if (auto* r = as<protocol::Result>(in)) {
      if (r->id == req.id) return *r;
      continue;
    }
    if (as<protocol::Hello>(in)) {
      probe.reset();
      continue;
    }
    throw LinkError("run", describe(in));
  }
}

std::string check_hello(const protocol::Hello& h, unsigned page_size) {
  if (h.protocol != protocol::kProtocolVersion)
    return fmt::format("agent speaks protocol {}, rlab speaks {}", h.protocol,
                       protocol::kProtocolVersion);
  if (h.page_size != page_size)
    return fmt::format("guest page size {} != cell's {} (kernel {})", h.page_size, page_size,
                       h.kernel_release);
  return "";
}

}  // namespace rlab::link
