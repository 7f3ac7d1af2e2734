#pragma once
// libvirt domain XML for one cell's guest: aarch64 `virt` machine, GICv3, direct kernel boot,
// serial console logged to a file, the agent's virtio-serial channel on a host unix socket
// (rlab's path, or libvirt's for a channel opened through libvirt),
// and the filesystem-under-test disk with a virtio serial number.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::vm {

/// How the guest CPU is provided.
enum class Accel {
  kTcg,  ///< QEMU's software emulation (x86 hosts, CI): `-cpu max`, pointer authentication off
  kKvm,  ///< hardware virtualisation on an aarch64 host with /dev/kvm: `-cpu host`
};

/// "tcg" or "kvm".
std::string_view to_string(Accel a);

/// Most vCPUs of one guest: the arm64 `virt` machine's limit with a GICv3.
inline constexpr unsigned kMaxVcpus = 512;

/// The agent channel's virtio-serial port name (docs/protocol.md).
inline constexpr std::string_view kAgentChannel = "org.rlab.agent.0";

/// Everything that goes into one guest's domain XML. Paths must be absolute and reachable
/// by the QEMU process (user from /etc/libvirt/qemu.conf, typically libvirt-qemu).
struct DomainSpec {
  std::string name;                  ///< libvirt domain name (see domain_name())
  Accel accel = Accel::kTcg;
  unsigned vcpus = 1;                ///< 1..kMaxVcpus
  std::uint64_t memory_mib = 1024;   ///< guest RAM in MiB
  /// Guest CPU model. Empty: "max" under TCG, host-passthrough under KVM. Under KVM only
  /// "host" (or empty) is accepted.
  std::string cpu_model;
  std::filesystem::path kernel;      ///< arm64 `Image`
  std::filesystem::path initramfs;   ///< cpio archive
  std::string cmdline;               ///< kernel command line
  std::filesystem::path console_log; ///< serial console (ttyAMA0) copy, rewritten per boot
  /// When set, the serial console goes to this unix socket, which rlab listens on and QEMU
  /// connects to (`<serial type='unix'>`, mode connect; vm/console_sink.hpp writes
  /// console_log from it); empty: a pty whose output libvirt logs into console_log.
  std::filesystem::path console_socket;
  std::filesystem::path agent_socket;///< unix socket QEMU listens on for kAgentChannel
  /// The agent channel is reached through libvirt (vm/channel.hpp) instead of agent_socket:
  /// the channel has no path, so libvirt binds it under its own channel directory on the
  /// host (/var/lib/libvirt/qemu/channel/target/domain-<id>-<name, cut to 20 bytes>/ with libvirt
  /// 9.0), and
  /// agent_socket must be empty.
  bool agent_via_libvirt = false;
  std::filesystem::path disk;        ///< raw disk image for the filesystem under test; empty: none (a RAM disk in the guest)
  std::string disk_serial = "rlab-fs";  ///< virtio-blk serial: /sys/block/*/serial in the guest
  /// Deterministic mode (TCG only): QEMU instruction counting, `-icount shift=N,sleep=off`.
  /// A guest nanosecond is 2^N executed instructions and idle time is skipped, so guest
  /// time follows the guest's work, not the host's load. N in [0, 10]; nullopt: real time.
  std::optional<unsigned> icount_shift;
  /// `<cputune>` pinning: host cpuset of each vCPU (libvirt syntax: "3", "0-1", "0,2"), one per
  /// vCPU in order, or empty for no vCPU pinning.
  std::vector<std::string> vcpu_pins;
  /// Host cpuset of QEMU's emulator threads (`<emulatorpin>`); "" for none.
  std::string emulator_pin;
};

/// The `-icount` option value for `shift`: "shift=<N>,sleep=off" (align stays off).
std::string icount_option(unsigned shift);

/// The QEMU options beyond the CPU model that a guest of `spec` gets, as stored in a result's
/// environment (`cpu_options`): "pauth=off" for `-cpu max` under TCG, then
/// "icount=shift=<N>,sleep=off" in deterministic mode, space-separated; "" when there are none.
std::string cpu_options(const DomainSpec& spec);

/// The domain XML for `spec`. Under TCG the CPU is `max` with pointer authentication
/// disabled (`-global max-arm-cpu.pauth=off` through the qemu XML namespace, which libvirt
/// 9.0 needs because it has no element for it); under KVM it is host-passthrough. With
/// `icount_shift` set, `-icount shift=N,sleep=off` goes through the same namespace (and
/// icount_shift under KVM or above 10 is an std::invalid_argument naming it).
/// Throws std::invalid_argument naming the field when a field is empty, a path is relative,
/// vcpus is outside 1..512, memory is below 128 MiB, or the socket path exceeds the 107
/// bytes a unix socket address holds (with agent_via_libvirt: agent_socket is not empty), or vcpu_pins is neither empty nor one cpuset per vCPU
/// (a cpuset is digits, ',' and '-' only).
std::string domain_xml(const DomainSpec& spec);

/// A libvirt-safe domain name `rlab-<run>-<cell>`: every byte outside [A-Za-z0-9._+-] becomes
/// '-', runs of '-' collapse, and the result is at most 200 bytes.
std::string domain_name(std::string_view run_id, std::string_view cell_id);

/// Prefix every rlab domain name starts with ("rlab-").
inline constexpr std::string_view kDomainPrefix = "rlab-";

}  // namespace rlab::vm
