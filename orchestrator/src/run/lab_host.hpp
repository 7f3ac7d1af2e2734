#pragma once
// One libvirt host as rlab boots on it — the one place the batch runner (run/batch.hpp) and the
// dry run get a host from:
// its connection (shared by its boots), what it can run read from its own libvirt
// (vm/host_caps.hpp), the guest settings resolved for it (`accel: auto` per host), and how
// boot files reach it (run/boot_files.hpp).
#include "matrix/matrix.hpp"
#include "run/boot.hpp"
#include "run/boot_files.hpp"
#include "run/running_guests.hpp"
#include "vm/host_caps.hpp"
#include "vm/libvirt.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rlab::run {

/// A connected host. Passive: fields are set by open_lab_host().
struct LabHost {
  matrix::Host config;                   ///< the matrix's `hosts[]` entry
  std::unique_ptr<vm::Connection> conn;
  vm::HostCaps caps;
  /// The guest side of boots here; nullopt when the matrix's guest cannot run here at all.
  std::optional<GuestSettings> guest;
  std::string refusal;                   ///< why not, when !guest (run/host_fit.hpp)
  std::unique_ptr<BootFiles> files;     ///< nullptr when `files_error`
  /// The guests running here, within config.vcpu_budget (every boot's guest waits here,
  /// created paused, until it fits).
  std::unique_ptr<RunningGuests> running;
  /// Why the host's files cannot be placed (its pool missing, inactive, not directory-backed,
  /// its directory gone): the matrix's configuration, not the host's health.
  std::string files_error;

  const std::string& uri() const { return config.uri; }
  /// "" when `cell` can boot here, else why not (host_fit.hpp's clause).
  std::string cell_refusal(const matrix::Cell& cell) const;
};

/// Connects to `h`, reads its capabilities, resolves `guest` for it and opens its files
/// (the storage pool for `files: volumes`; a pool that cannot be used sets files_error).
/// Throws vm::LibvirtError naming the host when it does not answer.
LabHost open_lab_host(const matrix::Host& h, const matrix::Guest& guest);

/// A host that did not answer (open_lab_host threw).
struct UnreachableHost {
  std::string uri;
  std::string reason;
};

/// Throws UsageError naming every host of `hosts` with a files_error, and then when a cell of
/// `cells` can run on none of `hosts`, naming every such
/// cell (at most 20, then a count) and for each host why not (`unreachable` ones as
/// unreachable, with their reason).
void refuse_unrunnable(const std::vector<matrix::Cell>& cells, const std::vector<const LabHost*>& hosts,
                       const std::vector<UnreachableHost>& unreachable);

/// The pairs of `hosts` that are one machine (the same non-empty host UUID in their libvirt
/// capabilities), as (earlier URI, later URI) in `hosts`' order: a run warns that such a
/// machine's CPUs are budgeted twice, the dry run says so.
std::vector<std::pair<std::string, std::string>> same_machines(const std::vector<const LabHost*>& hosts);

/// The index into `hosts` of the first that can take boot files and run every cell of `cells`
/// (where a boot-one-at-a-time run — a bisection, `rlab noise` — boots); nullopt when none can.
std::optional<std::size_t> first_fitting_host(const std::vector<const LabHost*>& hosts,
                                              const std::vector<matrix::Cell>& cells);

}  // namespace rlab::run
