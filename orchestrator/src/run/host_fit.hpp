#pragma once
// Which cells a host can run, decided from the host's own capabilities (vm/host_caps.hpp)
// before anything boots: the accelerator (`accel: auto` resolved per host), the vCPUs the
// machine type allows there, the page size, memory and the CPU model.
#include "matrix/matrix.hpp"
#include "run/boot.hpp"
#include "vm/host_caps.hpp"

#include <optional>
#include <string>

namespace rlab::run {

/// The accelerator a matrix's guest gets on one host, or why it cannot run there at all.
struct GuestFit {
  std::optional<matrix::Accel> accel;  ///< kKvm or kTcg; nullopt: `refusal` says why
  std::string refusal;                 ///< e.g. "accel kvm: no KVM for aarch64 guests (an x86_64 host)"
};

/// `accel: kvm` needs the host's KVM for aarch64 guests, `tcg` its aarch64 emulator; `auto`
/// is KVM when the host offers it, else TCG. Deterministic mode (`clock: icount`) needs TCG:
/// `auto` resolving to KVM is refused as it is on this machine (matrix load), so a matrix
/// means the same on every host.
GuestFit fit_guest(const matrix::Guest& guest, const vm::HostCaps& caps);

/// "" when a boot of `cell` with settings `g` (accel from fit_guest) can run on `caps`, else
/// one clause saying why: more vCPUs than the machine type allows under that accelerator,
/// a host base page size other than `guest.host_page_size`, 64 KiB pages under KVM on a CPU
/// without the 64K granule, more memory than the host has, a
/// CPU model the host's QEMU does not offer.
std::string cell_refusal(const matrix::Cell& cell, const GuestSettings& g, const vm::HostCaps& caps);

}  // namespace rlab::run
