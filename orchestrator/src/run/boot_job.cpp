#include "run/boot_job.hpp"

#include "vm/domain_xml.hpp"

#include <fmt/format.h>

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
  if (pool) {
    bj.pinned_cpus = pool->acquire(cell.vcpus);
    bj.pin_emulator = pinning.emulator;
  }
  return bj;
}

}  // namespace rlab::run
