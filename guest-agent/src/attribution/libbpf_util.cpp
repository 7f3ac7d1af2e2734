#include "attribution/libbpf_util.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace rlab::agent::bpf {
namespace {

std::mutex log_mu;
std::string libbpf_log;  ///< guarded by log_mu

int keep(libbpf_print_level level, const char* fmt, va_list args) {
  if (level == LIBBPF_DEBUG) return 0;
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, args);  // the verifier's log comes in one piece
  std::string text(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, again);
  va_end(again);
  std::lock_guard lk(log_mu);
  libbpf_log += text;
  if (libbpf_log.size() > 8000) libbpf_log.erase(0, libbpf_log.size() - 4000);
  return n;
}

}  // namespace

void keep_libbpf_log() {
  static std::once_flag once;
  std::call_once(once, [] { libbpf_set_print(keep); });
}

void forget_libbpf_log() {
  std::lock_guard lk(log_mu);
  libbpf_log.clear();
}

std::runtime_error libbpf_error(const std::string& what, int err) {
  std::string log;
  {
    std::lock_guard lk(log_mu);
    log.swap(libbpf_log);
  }
  if (log.size() > 2000) log = "..." + log.substr(log.size() - 2000);
  while (!log.empty() && log.back() == '\n') log.pop_back();
  return std::runtime_error(what + ": " + std::strerror(err) + (log.empty() ? "" : " [libbpf: " + log + "]"));
}

void clear_map(int fd, std::size_t key_size) {
  std::vector<unsigned char> key(key_size);
  while (bpf_map_get_next_key(fd, nullptr, key.data()) == 0)
    if (bpf_map_delete_elem(fd, key.data()) != 0) return;
}

std::vector<std::uint64_t> read_stack(int fd, std::int64_t stack_id, std::size_t frames) {
  std::vector<std::uint64_t> out;
  if (stack_id < 0) return out;
  std::vector<std::uint64_t> ips(frames);
  const auto id = static_cast<std::uint32_t>(stack_id);
  if (bpf_map_lookup_elem(fd, &id, ips.data()) != 0) return out;
  for (std::uint64_t ip : ips) {
    if (ip == 0) break;
    out.push_back(ip);
  }
  return out;
}

}  // namespace rlab::agent::bpf
