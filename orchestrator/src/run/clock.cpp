#include "run/clock.hpp"

#include "run/host_fit.hpp"
#include "util/usage_error.hpp"
#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace rlab::run {

std::optional<matrix::GuestClock> clock_on(const matrix::Guest& guest, const vm::HostCaps& caps) {
  const GuestFit fit = fit_guest(guest, caps);
  if (!fit.accel) return std::nullopt;
  return *fit.accel == matrix::Accel::kKvm ? matrix::GuestClock::kRealtime : matrix::GuestClock::kIcount;
}

matrix::GuestClock agree_on_clock(const std::vector<HostClock>& hosts) {
  std::optional<matrix::GuestClock> agreed;
  bool differ = false;
  std::string each;
  for (const auto& h : hosts) {
    each += fmt::format("\n  {}: {}", h.uri,
                        h.clock ? fmt::format("{} ({})", matrix::to_string(*h.clock), h.why) : h.why);
    if (!h.clock) continue;
    if (agreed && *agreed != *h.clock) differ = true;
    if (!agreed) agreed = h.clock;
  }
  if (differ)
    throw UsageError("guest.clock 'auto' resolves to different clocks on the matrix's hosts, and a cell's "
                     "boots must share one: set guest.clock (or guest.accel) to one of them:" + each);
  if (!agreed) throw UsageError("guest.clock 'auto': no host of the matrix can run its guests:" + each);
  return *agreed;
}

std::vector<HostClock> probe_clocks(const matrix::Matrix& m) {
  if (m.guest.clock != matrix::GuestClock::kAuto) return {};
  std::vector<HostClock> found;
  for (const auto& h : m.hosts) {
    HostClock hc{h.uri, std::nullopt, ""};
    try {
      vm::Connection conn(h.uri);
      const auto caps = vm::read_host_caps(conn);
      hc.clock = clock_on(m.guest, caps);
      hc.why = hc.clock ? (*hc.clock == matrix::GuestClock::kRealtime ? "KVM" : "TCG") : fit_guest(m.guest, caps).refusal;
    } catch (const vm::LibvirtError& e) {
      hc.why = std::string("did not answer: ") + e.what();
    }
    found.push_back(std::move(hc));
  }
  return found;
}

std::vector<HostClock> settle_auto_clock(matrix::Matrix& m) {
  auto found = probe_clocks(m);
  if (found.empty()) return found;
  const auto clock = agree_on_clock(found);
  matrix::settle_clock(m, clock);
  spdlog::info("guest.clock auto: {} on every host that answered ({} boots a cell)", matrix::to_string(clock), m.repeats);
  return found;
}

}  // namespace rlab::run
