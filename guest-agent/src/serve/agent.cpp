#include "serve/agent.hpp"

#include <sys/reboot.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cstdio>

#include "rlab/protocol/codec.hpp"
#include "serve/sysinfo.hpp"

namespace rlab::agent {
namespace rp = rlab::protocol;

Agent::Agent(boost::asio::io_context& io, Children& children, Options opts)
    : io_(io), children_(children), opts_(opts), shutdown_timer_(io) {}

Agent::~Agent() = default;

void Agent::connected(Link* link) {
  link_ = link;
  framer_.reset();
  send(collect_hello());
}

void Agent::disconnected(Link* link) {
  if (link_ == link) link_ = nullptr;
}

void Agent::send(const rp::AgentMessage& m) {
  std::string line;
  try {
    line = rp::encode(m);
  } catch (const std::exception& e) {  // over the line limit: say so instead
    line = rp::encode(rp::AgentMessage{rp::Error{{}, rp::ErrorCode::failed, e.what()}});
  }
  if (!link_) {
    if (++dropped_ <= 10 || dropped_ % 1000 == 0)
      std::fprintf(stderr, "rlab-agent: no host connected, dropped a %s message (%zu so far)\n", rp::type_name(m),
                   dropped_);
    return;
  }
  link_->send(std::move(line));
}

void Agent::received(std::string_view bytes) {
  for (auto& frame : framer_.feed(bytes)) {
    if (std::holds_alternative<rp::Oversized>(frame)) {
      send(rp::Error{{}, rp::ErrorCode::oversized,
                     "line longer than " + std::to_string(std::get<rp::Oversized>(frame).limit) +
                         " bytes (including the newline) discarded"});
    } else {
      on_line(std::get<std::string>(frame));
    }
  }
}

void Agent::on_line(const std::string& line) {
  auto parsed = rp::parse_host_message(line);
  if (auto* err = std::get_if<rp::ProtocolError>(&parsed)) {
    send(err->to_message());
    return;
  }
  std::visit([this](const auto& m) { handle(m); }, std::get<rp::HostMessage>(parsed));
}

void Agent::handle(const rp::HelloRequest& m) {
  if (auto err = rp::check_protocol(m.protocol, m.id)) {
    send(err->to_message());
    return;
  }
  auto h = collect_hello();
  h.id = m.id;
  send(h);
}

void Agent::handle(const rp::Prepare& m) {
  if (shutting_down_ || run_ || prepare_) {
    send(rp::Error{m.id, rp::ErrorCode::busy, run_ ? "a run is in progress" : "a prepare is in progress"});
    return;
  }
  prepare_ = std::make_unique<PrepareJob>(children_, m, [this](rp::AgentMessage reply) {
    send(reply);
    boost::asio::post(io_, [this] { prepare_.reset(); });
  });
  prepare_->start();
}

void Agent::handle(const rp::Run& m) {
  if (shutting_down_ || run_ || prepare_) {
    send(rp::Error{m.id, rp::ErrorCode::busy, run_ ? "a run is in progress" : "a prepare is in progress"});
    return;
  }
  run_ = std::make_unique<ShellRun>(
      io_, children_, m, [this](rp::AgentMessage msg) { send(msg); },
      [this] { boost::asio::post(io_, [this] { run_.reset(); }); });
  try {
    run_->start();
  } catch (const std::exception& e) {
    run_.reset();
    send(rp::Error{m.id, rp::ErrorCode::failed, e.what()});
  }
}

void Agent::handle(const rp::Shutdown& m) {
  if (shutting_down_) return;
  shutting_down_ = true;
  if (run_) run_->abort();
  children_.signal_all(SIGKILL);
  send(rp::Bye{m.id});
  const bool poweroff = ::getpid() == 1 || (opts_.allow_poweroff && m.poweroff);
  auto finish = [this, poweroff, done = std::make_shared<bool>(false)] {
    if (*done) return;
    *done = true;
    power_off_or_exit(poweroff);
  };
  // Give the bye two seconds to reach the host, then go regardless.
  shutdown_timer_.expires_after(std::chrono::seconds(2));
  shutdown_timer_.async_wait([finish](const boost::system::error_code&) { finish(); });
  if (link_) link_->flush_then(finish);
  else finish();
}

void Agent::power_off_or_exit(bool poweroff) {
  ::sync();
  if (poweroff) {
    std::fprintf(stderr, "rlab-agent: powering off\n");
    ::reboot(RB_POWER_OFF);
    std::perror("rlab-agent: reboot(RB_POWER_OFF)");
  }
  io_.stop();
}

}  // namespace rlab::agent
