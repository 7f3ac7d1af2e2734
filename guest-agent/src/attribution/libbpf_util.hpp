#pragma once
// What the agent's libbpf loaders share (bpf_waits, bpf_ag_headers): libbpf's log kept for
// error messages, map clearing, stacks read back from a stack-trace map.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlab::agent::bpf {

/// From now on libbpf's warnings and errors (the verifier's whole log when a program is
/// refused) are kept for libbpf_error() instead of going to stderr. Idempotent, thread-safe.
void keep_libbpf_log();
/// Forgets what libbpf said so far (e.g. complaints about a tracepoint that is reported
/// otherwise).
void forget_libbpf_log();
/// "<what>: <strerror(err)> [libbpf: <the last 2,000 characters libbpf said>]"; forgets them.
std::runtime_error libbpf_error(const std::string& what, int err);

/// Deletes every key of the BPF map `fd` (keys of `key_size` bytes).
void clear_map(int fd, std::size_t key_size);

/// The kernel stack `stack_id` of the stack-trace map `fd` (values of `frames` u64),
/// innermost first; empty when the id is < 0 or no longer in the map.
std::vector<std::uint64_t> read_stack(int fd, std::int64_t stack_id, std::size_t frames);

}  // namespace rlab::agent::bpf
