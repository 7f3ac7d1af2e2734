#pragma once
// Which way the agent session reaches a guest's virtio-serial port org.rlab.agent.0: the unix
// socket QEMU binds in the boot's directory (QEMU on rlab's machine), or the channel opened
// through the host's libvirt connection (QEMU anywhere libvirt reaches: vm/channel.hpp).
#include "link/agent_session.hpp"
#include "vm/channel.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <memory>

namespace rlab::link {

/// Connects `session` to the agent of the running domain `spec` on `conn`.
/// - spec.agent_via_libvirt: opens the domain's kAgentChannel with virDomainOpenChannel and
///   attaches the session to the bridge's socket; returns the bridge, which must outlive the
///   session's use of the link (destroying it ends the link). Throws LinkError ("connect",
///   not timed out) with libvirt's reason when the channel cannot be opened.
/// - otherwise: AgentSession::connect(spec.agent_socket, timeout) (QEMU still starting is
///   retried until `timeout`); returns nullptr. Throws what connect() throws.
std::unique_ptr<vm::StreamBridge> connect_agent(AgentSession& session, vm::Connection& conn,
                                                const vm::DomainSpec& spec, Duration timeout);

}  // namespace rlab::link
