#pragma once
// An arm64 KVM host emulated by QEMU on this machine (docs/kvm-host.md): `-M virt,
// virtualization=on` gives the guest EL2, so its Linux brings up KVM and its libvirt runs rlab's
// guests with `accel: kvm`, `cpu: host` and a 64 KiB-page host — the path rlab's users run on
// arm64 servers — on any x86_64 or arm64 machine. For testing that path, not for measuring:
// every instruction of host and guest is emulated.
//
// rlab reaches it as any remote host: libvirt over ssh (qemu+libssh, key authentication, the
// host key pinned in a known_hosts file) on a port QEMU forwards from this machine's loopback
// (127.0.0.1 only). Its state lives in <util::state_dir()>/kvm-host/: state.json, qemu.pid,
// console.log, known_hosts and the client key the URI names.
#include "build/progress.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlab::kvm_host {

/// How to start the host.
struct HostConfig {
  unsigned cpus = 2;            ///< the host's CPUs (QEMU -smp), 1..64
  unsigned memory_mib = 4096;   ///< the host's memory, MiB (room for two guests), 1024..65536
  unsigned port = 0;            ///< loopback port forwarded to its sshd; 0: any free port
  std::chrono::seconds ready_timeout{300};  ///< start -> libvirt answering with KVM
  std::filesystem::path state_dir;          ///< empty: <util::state_dir()>/kvm-host
};

/// A started host, as recorded in state.json.
struct HostState {
  long pid = 0;                  ///< the outer QEMU's pid
  unsigned port = 0;             ///< 127.0.0.1:<port> -> the host's sshd
  std::string uri;               ///< libvirt URI (qemu+libssh://root@127.0.0.1:<port>/system?...)
  std::filesystem::path console; ///< the host's serial console log
  std::string started_at;        ///< UTC, ISO 8601
  double ready_s = 0;            ///< QEMU started -> libvirt answered with KVM, seconds
  unsigned cpus = 0;
  unsigned memory_mib = 0;
  std::string kernel_key;        ///< cache keys of what it booted
  std::string disk_key;
};

/// The state directory of `cfg` (cfg.state_dir or the default).
std::filesystem::path state_dir_of(const HostConfig& cfg);

/// The libvirt URI of a host on `port` whose client key and known_hosts are in `dir`:
/// qemu+libssh, root, key authentication only, the host key verified against known_hosts.
std::string libvirt_uri(unsigned port, const std::filesystem::path& dir);

/// The outer QEMU's argv (no shell): virt with EL2 and GICv3, `-cpu max` without pointer
/// authentication, MTTCG, direct kernel boot of `kernel` (this machine's time on its command line
/// as rlab.time=<seconds since 1970>: the host has no RTC driver) with the root filesystem `disk` as a
/// snapshot (nothing written back), a virtio NIC whose only way in is 127.0.0.1:`port` -> 22,
/// console to `dir`/console.log, daemonized with its pid in `dir`/qemu.pid.
std::vector<std::string> qemu_argv(const HostConfig& cfg, const std::filesystem::path& kernel,
                                   const std::filesystem::path& disk, unsigned port,
                                   const std::filesystem::path& dir);

/// Builds (or takes from the cache) the host kernel and disk, boots the host, and waits
/// until its libvirt answers over the URI and offers KVM for aarch64 guests. Throws UsageError
/// when a host is already running from this state directory, std::runtime_error when the
/// QEMU process dies or the kernel brings up no KVM (with the console's tail), or when the
/// host is not ready within cfg.ready_timeout (the QEMU is stopped first).
HostState start(const HostConfig& cfg, const build::Progress& progress = {});

/// The recorded state, or nullopt when no host was started from `dir` (or it was stopped).
/// A state whose QEMU is gone is returned as it is; alive() tells.
std::optional<HostState> read_state(const std::filesystem::path& dir);

/// Whether `s.pid` is still the host's QEMU (a live process whose command line names the
/// host), not a process that reused the pid.
bool alive(const HostState& s);

/// Stops the host started from `dir`: SIGTERM to its QEMU, SIGKILL after 10 s, then removes
/// state.json, qemu.pid and known_hosts (the console log stays for reading). Returns false
/// when nothing was running. Nothing persists: the root filesystem was a snapshot.
bool stop(const std::filesystem::path& dir);

}  // namespace rlab::kvm_host
