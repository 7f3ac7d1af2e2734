#pragma once
// Test support: start a daemon in the background with its output appended to a log, and wait
// for a libvirtd to answer. Header-only (private_libvirtd.hpp, isolated_libvirtd.hpp).
#include "vm/libvirt.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace rlab::testing {

/// Spawns `argv` (argv[0] looked up in PATH) with stdout and stderr appended to `log`;
/// its pid, -1 when it cannot be spawned.
inline pid_t spawn_logged(std::vector<std::string> argv, const std::filesystem::path& log) {
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  const std::string logf = log.string();
  posix_spawn_file_actions_addopen(&fa, 1, logf.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  if (posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

/// Waits up to `limit` (a first start probes QEMU's capabilities) for a libvirtd at `uri`
/// to answer while process `pid` runs; false when it ended or never answered (`pid` is set
/// to -1 when it ended and was reaped).
inline bool wait_answering(pid_t& pid, const std::string& uri,
                           std::chrono::seconds limit = std::chrono::seconds(90)) {
  using namespace std::chrono_literals;
  for (auto until = std::chrono::steady_clock::now() + limit;
       pid > 0 && std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(300ms)) {
    if (::waitpid(pid, nullptr, WNOHANG) == pid) {  // it ended: its log says why
      pid = -1;
      return false;
    }
    try {
      vm::Connection c(uri);
      return true;
    } catch (const vm::LibvirtError&) {
    }
  }
  return false;
}

}  // namespace rlab::testing
