#include "run/boot_job.hpp"

#include "vm/domain_xml.hpp"

#include <fmt/format.h>

#include <utility>

namespace rlab::run {

std::unique_ptr<host::CpuPool> pin_pool(const matrix::Pinning& pinning, LabHost& host, unsigned vcpu_budget,
                                  unsigned largest_cell_vcpus) {
  if (!pinning.vcpus) return nullptr;
  return std::make_unique<host::CpuPool>(
      host::pinning_cpus(pinning, host::host_topology(*host.conn), host.uri(), vcpu_budget, largest_cell_vcpus));
}

BootJob make_boot_job(const matrix::Cell& cell, unsigned repeat, store::BootId boot, const std::string& run_label,
                      const image::GuestImages& staged, const RunDir& dir, LabHost& host,
                      const matrix::Pinning& pinning, host::CpuPool* pool) {
  BootJob bj;
  bj.cell = &cell;
  bj.repeat = repeat;
  bj.boot = boot;
  bj.domain_name = vm::domain_name(run_label, fmt::format("{}-r{}", cell.id, repeat));
  bj.images = &staged;
  bj.dir = dir.boot_dir(boot);
  bj.agent_link = host.config.agent_link;
  bj.files = host.files.get();
  bj.running = host.running.get();
  if (pool) {
    bj.pinned_cpus = pool->acquire(cell.vcpus);
    bj.pin_emulator = pinning.emulator;
  }
  return bj;
}

BootOutcome run_boot_job(BootJob job, LabHost& host, store::Store& st, host::CpuPool* pool,
                         const std::function<void()>& release, const PhaseFn& phase_fn) {
  bool freed = false;
  const auto free_slot = [&] {
    if (std::exchange(freed, true)) return;
    if (pool) pool->release(job.pinned_cpus);
    if (release) release();
  };
  job.measured = free_slot;
  BootOutcome out = run_boot(job, *host.guest, *host.conn, st, phase_fn);
  if (!std::exchange(freed, true) && pool) pool->release(job.pinned_cpus);  // no result: not `release`
  return out;
}

}  // namespace rlab::run
