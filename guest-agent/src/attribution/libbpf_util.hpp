#pragma once
// What the agent's libbpf loaders share (bpf_waits, bpf_ag_headers): libbpf's log kept for
// error messages, map clearing, stacks read back from a stack-trace map.
#include <bpf/bpf.h>

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

/// Calls fn(key, value) for every entry of the BPF hash map `fd` (keys K, values V: the map's
/// own layout); an entry deleted between listing and lookup is skipped.
template <class K, class V, class Fn>
void for_each_entry(int fd, Fn fn) {
  K key{}, next{};
  for (const K* prev = nullptr; bpf_map_get_next_key(fd, prev, &next) == 0; prev = &key) {
    key = next;
    V value{};
    if (bpf_map_lookup_elem(fd, &key, &value) == 0) fn(key, value);
  }
}

}  // namespace rlab::agent::bpf
