#include "run/host_fit.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rlab::run {

GuestFit fit_guest(const matrix::Guest& guest, const vm::HostCaps& caps) {
  const bool icount = guest.clock == matrix::GuestClock::kIcount;
  switch (guest.accel) {
    case matrix::Accel::kKvm:
      if (!caps.kvm) return {std::nullopt, fmt::format("accel kvm: no KVM for aarch64 guests (an {} host)", caps.arch)};
      return {matrix::Accel::kKvm, ""};
    case matrix::Accel::kTcg:
      if (!caps.tcg) return {std::nullopt, "accel tcg: no QEMU for aarch64 guests (qemu-system-aarch64)"};
      return {matrix::Accel::kTcg, ""};
    default:
      if (caps.kvm && icount)
        return {std::nullopt, "clock icount needs TCG, but 'accel: auto' resolves to kvm there; set "
                              "'accel: tcg' to measure in deterministic mode on it"};
      if (caps.kvm) return {matrix::Accel::kKvm, ""};
      if (caps.tcg) return {matrix::Accel::kTcg, ""};
      return {std::nullopt, "no QEMU for aarch64 guests (qemu-system-aarch64), neither KVM nor TCG"};
  }
}

std::string cell_refusal(const matrix::Cell& cell, const GuestSettings& g, const vm::HostCaps& caps) {
  const bool kvm = g.accel == vm::Accel::kKvm;
  const auto& a = caps.of(g.accel);
  if (!a) return fmt::format("no {} for aarch64 guests", kvm ? "KVM" : "TCG");
  const char* accel = kvm ? "KVM" : "TCG";
  if (cell.vcpus > a->max_vcpus)
    return fmt::format("{} vCPUs, but {} on machine {} allows at most {}", cell.vcpus, accel,
                       a->machine.empty() ? "virt" : a->machine, a->max_vcpus);
  if (!a->gic_versions.empty() &&
      std::find(a->gic_versions.begin(), a->gic_versions.end(), 3u) == a->gic_versions.end()) {
    std::string v;
    for (unsigned g3 : a->gic_versions) v += (v.empty() ? "" : ", ") + std::to_string(g3);
    return fmt::format("the guest's GICv3, but {} there offers GIC version {} only", accel, v);
  }
  if (g.host_page_kib && !caps.page_kib.empty() &&
      *std::min_element(caps.page_kib.begin(), caps.page_kib.end()) != g.host_page_kib)
    return fmt::format("host pages of {} KiB, but the matrix asks for {} KiB host pages (guest.host_page_size)",
                       *std::min_element(caps.page_kib.begin(), caps.page_kib.end()), g.host_page_kib);
  if (kvm && cell.page_size == 65536 && caps.granule_64k == vm::Granule64k::kNo)
    return fmt::format("64K pages under KVM, but the host CPU ({} {}) lacks the 64K granule",
                       caps.cpu_vendor, caps.cpu_model);
  if (caps.memory_kib && std::uint64_t(g.memory_mib) * 1024 > caps.memory_kib)
    return fmt::format("{} MiB of guest memory{}, but the host has {} MiB", g.memory_mib,
                       g.disk_backing == matrix::DiskBacking::kRam
                           ? fmt::format(" ({} MiB RAM disk included)", std::uint64_t(g.disk_gib) * 1024)
                           : "",
                       caps.memory_kib / 1024);
  if (kvm) {
    if (g.cpu_model != "host") return fmt::format("CPU model '{}' under KVM (only 'host' is)", g.cpu_model);
    if (!a->host_passthrough) return "CPU model 'host', but the host's QEMU offers no host-passthrough";
  } else if (g.cpu_model == "max") {
    if (!a->maximum) return "CPU model 'max', but the host's QEMU does not offer it";
  } else if (g.cpu_model == "host") {
    return "CPU model 'host' under TCG (it needs KVM; TCG's is 'max', which 'cpu: auto' gives)";
  } else if (!a->cpu_models.empty() &&
             !std::binary_search(a->cpu_models.begin(), a->cpu_models.end(), g.cpu_model)) {
    std::string some;
    for (std::size_t i = 0; i < a->cpu_models.size() && i < 8; ++i) some += (i ? ", " : "") + a->cpu_models[i];
    return fmt::format("CPU model '{}', which the host's QEMU ({}) does not offer (it has max, {}{})", g.cpu_model,
                       a->emulator, some, a->cpu_models.size() > 8 ? ", ..." : "");
  }
  return "";
}

}  // namespace rlab::run
