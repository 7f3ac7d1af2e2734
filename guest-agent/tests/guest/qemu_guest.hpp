#pragma once
// A real arm64 guest under qemu-system-aarch64 (TCG, virt, GICv3) booting a kernel Image and
// an initramfs whose /init execs rlab-agent, with the agent channel on a unix socket and a
// scratch virtio-blk disk carrying a serial, as rlab's cells have.
#include <filesystem>
#include <memory>
#include <string>

#include "harness.hpp"

namespace rlab::agent::test {

struct GuestSpec {
  std::filesystem::path kernel;     ///< arm64 Image
  std::filesystem::path initramfs;
  unsigned vcpus = 2;
  unsigned memory_mib = 2048;
  std::uint64_t disk_bytes = 2ull << 30;
  std::string disk_serial = "rlab-test";
  /// QEMU's deterministic instruction counting (`-icount shift=0,sleep=off`, single-threaded
  /// TCG): guest time advances 1 ns per executed instruction and skips idle time, so guest-side
  /// durations measure work done in the guest, not the host's speed or load.
  bool icount = false;
};

class QemuGuest {
 public:
  /// Starts qemu-system-aarch64 booting the guest (returns at once; the agent says `hello` on
  /// the socket when up); files (socket, disk, console log) go under `dir`. Throws when QEMU
  /// cannot be started.
  QemuGuest(const GuestSpec& spec, const std::filesystem::path& dir);
  std::filesystem::path socket() const { return dir_ / "agent.sock"; }
  std::filesystem::path console_log() const { return dir_ / "console.log"; }
  Process& process() { return *qemu_; }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<Process> qemu_;
};

}  // namespace rlab::agent::test
