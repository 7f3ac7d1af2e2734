#include "link/agent_link.hpp"

#include <spdlog/spdlog.h>

namespace rlab::link {

std::unique_ptr<vm::StreamBridge> connect_agent(AgentSession& session, vm::Connection& conn,
                                                const vm::DomainSpec& spec, Duration timeout) {
  if (!spec.agent_via_libvirt) {
    session.connect(spec.agent_socket, timeout);
    return nullptr;
  }
  std::unique_ptr<vm::StreamBridge> bridge;
  try {
    bridge = vm::open_channel(conn, spec.name, std::string(vm::kAgentChannel));
  } catch (const vm::LibvirtError& e) {
    throw LinkError("connect", e.what());
  }
  session.attach(bridge->take_session_fd());
  spdlog::debug("{}: agent channel opened through libvirt ({})", spec.name, conn.uri());
  return bridge;
}

}  // namespace rlab::link
