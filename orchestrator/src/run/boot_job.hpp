#pragma once
// The one way a boot job is made, for run, noise, bisect and fidelity alike (pinning
// included): what run_boot() needs to boot one repeat of one cell on one host.
#include "run/boot.hpp"
#include "run/lab_host.hpp"
#include "host/pinning.hpp"
#include "run/run_dir.hpp"

#include <memory>
#include <string>

namespace rlab::run {

/// The CPU pool of `host` when `pinning` pins vCPUs, else nullptr. `vcpu_budget`: the most
/// vCPUs that run at once there; `largest_cell_vcpus`: the largest guest. Throws UsageError as
/// pinning_cpus() does (oversubscription, an unknown host CPU), vm::LibvirtError when the
/// host's topology cannot be read.
std::unique_ptr<host::CpuPool> pin_pool(const matrix::Pinning& pinning, LabHost& host, unsigned vcpu_budget,
                                  unsigned largest_cell_vcpus);

/// The job of repeat `repeat` of `cell` stored as boot `boot`: its domain name under
/// `run_label` (run_label()), its staged images (which must outlive the job), its directory in
/// `dir`, the host's agent link and files, and, with a `pool`, host CPUs for its vCPUs (and
/// its emulator threads when `pinning.emulator`), which the caller gives back with
/// pool->release(job.pinned_cpus) once the boot is over.
BootJob make_boot_job(const matrix::Cell& cell, unsigned repeat, store::BootId boot, const std::string& run_label,
                      const image::GuestImages& staged, const RunDir& dir, LabHost& host,
                      const matrix::Pinning& pinning, host::CpuPool* pool);

/// run_boot() of `job` (make_boot_job's) on `host`, which must have its guest settings. Once
/// the boot's result is stored its CPUs go back to `pool` (when given) and `release` (the
/// scheduler's Release, when given) is called, once: the next boot starts while this guest
/// powers off, and its guest runs once this one is gone (RunningGuests). A boot that ends
/// without a result gives its CPUs back but not its share of the budget: the scheduler takes
/// that back when the work returns, after the caller has judged whether the host failed under
/// it (a host that died gets no next boot). Returns and throws what run_boot() does.
BootOutcome run_boot_job(BootJob job, LabHost& host, store::Store& st, host::CpuPool* pool,
                         const std::function<void()>& release, const PhaseFn& phase_fn = {});

}  // namespace rlab::run
