#pragma once
// `guest.clock: auto` settled against a run's hosts (docs/matrix.md "Deterministic mode"):
// instruction counting (icount) where the guests run under TCG, real time where they run under
// KVM, so one matrix gives a deterministic answer on a TCG machine and a real-time one on an
// arm64 server with KVM, each with its own boots per cell (`axes.repeats: {icount, realtime}`).
#include "matrix/matrix.hpp"
#include "vm/host_caps.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rlab::run {

/// The clock a guest with `clock: auto` gets on a host with `caps`: kIcount where its
/// accelerator resolves to TCG there, kRealtime where it resolves to KVM; nullopt when the guest
/// cannot run there at all (host_fit.hpp says why).
std::optional<matrix::GuestClock> clock_on(const matrix::Guest& guest, const vm::HostCaps& caps);

/// What settle_auto_clock() found on one host.
struct HostClock {
  std::string uri;
  std::optional<matrix::GuestClock> clock;  ///< nullopt: the host did not answer or cannot run the guest
  std::string why;                          ///< "TCG" / "KVM", or why not
};

/// Decides `clock: auto` from what each host answered: the one clock every host that can run
/// the guest resolves to. Throws UsageError when they disagree (a cell's boots are compared
/// with each other, so they share one clock: the message names every host and its clock) or
/// when none can run the guest (naming each host's reason).
matrix::GuestClock agree_on_clock(const std::vector<HostClock>& hosts);

/// What each of the matrix's hosts answers for `clock: auto` (connects to each and reads its
/// capabilities; a host that does not answer says so in `why`); empty when the matrix's clock
/// is not `auto`.
std::vector<HostClock> probe_clocks(const matrix::Matrix& m);

/// Settles `m.guest.clock: auto` (nothing to do for any other clock) against the matrix's
/// hosts: probe_clocks(), then agree_on_clock()'s answer applied with matrix::settle_clock
/// (the clock, the boots per cell, the disk). Returns what each host answered (empty when there
/// was nothing to settle), for the log. Throws UsageError as agree_on_clock does.
std::vector<HostClock> settle_auto_clock(matrix::Matrix& m);

}  // namespace rlab::run
