#pragma once
// One boot of one cell (a repeat): fresh disk, transient domain, agent hello (page size
// checked), prepare (mkfs + mount the disk under test), the load, results into the store,
// shutdown (a bare guest, `runner: bare`: its console read after it powers off, bare_guest.hpp).
// Any failure destroys the guest and records the phase, the message and the tail of the console.
#include "image/guest_images.hpp"
#include "run/boot_files.hpp"
#include "run/running_guests.hpp"
#include "link/agent_session.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace rlab::run {

/// Timeouts of one boot, in seconds.
struct BootTimeouts {
  double hello_s = matrix::kDefaultHelloTimeoutS;  ///< domain start -> agent hello (`hosts[].hello_timeout_s`)
  double prepare_s = 300;   ///< mkfs + mount
  double quiet_s = 30;      ///< silence during the load before a liveness probe (`hosts[].liveness_timeout_s`)
  double probe_s = 30;      ///< the probe's deadline (the same setting)
  double shutdown_s = 60;   ///< `shutdown` -> guest powered off
  /// Boots of the same job after one that got no hello (`hosts[].hello_retries`), 0..5.
  unsigned hello_retries = 0;
};

/// The guest side of every boot of a run.
struct GuestSettings {
  vm::Accel accel = vm::Accel::kTcg;
  std::string cpu_model;         ///< "max", "host", or another QEMU model
  unsigned memory_mib = 1024;
  unsigned disk_gib = 2;
  /// The kernel's command line. loglevel=6: the console shows notices, warnings, errors and
  /// panics (the banner, every oops and WARN) but not the ~160 info lines of a boot, which
  /// the emulated PL011 takes 0.15-0.2 s to print under TCG; the guest's log keeps them all.
  std::string cmdline = "console=ttyAMA0 panic=-1 loglevel=6";
  /// Deterministic mode: `-icount shift=N,sleep=off` (TCG only, matrix `guest.clock: icount`);
  /// nullopt: real time.
  std::optional<unsigned> icount_shift;
  /// Where the filesystem under test lives: a fresh sparse file behind virtio-blk, or a RAM
  /// disk in the guest (brd, disk_gib large; memory_mib then includes it).
  matrix::DiskBacking disk_backing = matrix::DiskBacking::kVirtio;
  /// The host's base page size the matrix asks for, KiB (`guest.host_page_size`); 0: any.
  unsigned host_page_kib = 0;
  BootTimeouts timeouts;
};

/// The guest side of every boot of a matrix, for `accel` already resolved (kKvm or kTcg): the
/// one place run, bisect and noise get it from. A RAM disk raises memory_mib by disk_gib GiB
/// and sizes brd on the kernel command line (brd.rd_nr=1 brd.rd_size=<KiB>).
GuestSettings guest_settings(const matrix::Guest& g, matrix::Accel accel);

/// What one boot needs. References must outlive run_boot().
struct BootJob {
  const matrix::Cell* cell = nullptr;
  unsigned repeat = 0;
  store::BootId boot = 0;
  std::string domain_name;                 ///< vm::domain_name(run, cell id + repeat)
  const image::GuestImages* images = nullptr;  ///< staged (QEMU-readable) kernel + initramfs
  std::filesystem::path dir;               ///< this boot's directory (RunDir::boot_dir)
  /// Host CPU of each vCPU (`<vcpupin>`), one per vCPU; empty: not pinned (host/pinning.hpp).
  std::vector<unsigned> pinned_cpus;
  bool pin_emulator = false;               ///< `<emulatorpin>` to the pinned CPUs
  /// How the agent is reached: the boot directory's agent.sock, or the channel opened through
  /// the host's libvirt connection (the host's `agent_link`).
  matrix::AgentLink agent_link = matrix::AgentLink::kSocket;
  /// How the boot's files reach the host (run/boot_files.hpp, the host's LabHost::files);
  /// nullptr: rlab's paths.
  BootFiles* files = nullptr;
  /// The host's running guests (LabHost::running): the guest is created paused and resumed
  /// once its vCPUs fit beside the guests still running there. nullptr: created running.
  RunningGuests* running = nullptr;
  /// Called once the result is stored, before the guest powers off: the scheduler's Release,
  /// so that the next boot starts (and waits in `running` for this guest to be gone).
  std::function<void()> measured;
};

/// How a boot ended.
struct BootOutcome {
  bool ok = false;
  /// The failing phase when not ok: boot, hello, hello_timeout, page_size, prepare, run,
  /// timeout or interrupted (not stored: the boot stays running for --resume).
  store::FailurePhase phase = store::FailurePhase::boot;
  std::string message;
  double score = 0;             ///< lpm, when ok
  /// The guest's start -> hello, in seconds; 0 when no hello. The start of a guest created
  /// paused is the return of its resume (a wait for the host's vCPUs, or for another boot's
  /// libvirt call on the same connection, is not the guest's boot).
  double boot_to_hello_s = 0;
  double load_vcpu_s = 0;       ///< vCPUs x measured pass seconds (the guest's clock)
  /// vCPUs x host seconds of the passes' counting windows: between the arrivals of each
  /// pass's first and last sample (the agent samples at the window's start and end).
  double load_host_vcpu_s = 0;
  double wall_s = 0;            ///< whole boot, wall clock
};

/// Called with the boot's current phase ("disk", "boot", "hello", "prepare", "run pass 1/3",
/// "shutdown").
using PhaseFn = std::function<void(std::string_view phase)>;

/// Runs `job` on `conn` and records everything in `st` (start_boot, images, hello, samples,
/// passes, result or failure, and the host's load around the boot from its libvirt:
/// store::BootHost). The
/// cell's warm-up passes run first and are stored but left out of the score. Never throws for guest-side failures (they are returned and
/// stored; when the console shows a guest kernel panic, its reason leads the message, and a
/// panic from the agent's death — it is PID 1 — says so); throws vm::LibvirtError /
/// store::StoreError only for failures of the lab itself that make further boots pointless
/// (the store cannot be written, e.g. its disk is full): the guest is destroyed and the
/// boot's disk and agent socket are removed first, and the boot stays "running" for --resume.
BootOutcome run_boot(const BootJob& job, const GuestSettings& guest, vm::Connection& conn,
                     store::Store& st, const PhaseFn& phase = {});

/// The guest images of kernel `k` for matrix `m`: image::ensure_guest_images, plus UnixBench's
/// programs (image::unixbench_archive) when a workload of `m` has `runner: unixbench` or `bare`. The
/// one place run, bisect and noise get a cell's images from. Throws std::runtime_error as they do.
image::GuestImages guest_images(const matrix::Matrix& m, const build::KernelSpec& k,
                                const std::filesystem::path& agent, const image::Progress& progress);

/// The domain XML of a boot (exposed for tests and `--dry-run` style inspection).
vm::DomainSpec domain_spec(const BootJob& job, const GuestSettings& guest);

/// The store's kernel identity for a set of guest images.
store::KernelIdentity kernel_identity(const matrix::Cell& cell, const image::GuestImages& img);

}  // namespace rlab::run
