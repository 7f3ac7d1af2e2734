#pragma once
// What `hello` reports about the guest.
#include <string>

#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

/// The agent's version string (the project version).
extern const char* const kAgentVersion;

/// Fills a Hello from uname(2), sysconf, /proc/meminfo and tracefs discovery.
protocol::Hello collect_hello();

/// MemTotal in KiB from /proc/meminfo text; 0 when absent.
std::uint64_t parse_mem_total_kib(const std::string& meminfo);

}  // namespace rlab::agent
