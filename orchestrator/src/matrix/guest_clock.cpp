// The guest clock setting (docs/matrix.md "Deterministic mode").
#include "matrix/guest_clock.hpp"

#include <stdexcept>

namespace rlab::matrix {

const char* to_string(GuestClock c) {
  switch (c) {
    case GuestClock::kIcount: return "icount";
    case GuestClock::kAuto: return "auto";
    default: return "realtime";
  }
}

std::optional<unsigned> Guest::icount() const {
  if (clock == GuestClock::kAuto)
    throw std::logic_error("guest.clock 'auto' was not settled against the hosts before a boot");
  return clock == GuestClock::kIcount ? std::optional<unsigned>(icount_shift) : std::nullopt;
}

void settle_clock(Matrix& m, GuestClock clock) {
  if (clock == GuestClock::kAuto) throw std::invalid_argument("settle_clock: a clock, not 'auto'");
  m.guest.clock = clock;
  if (m.repeats_by_clock)
    m.repeats = clock == GuestClock::kIcount ? m.repeats_by_clock->first : m.repeats_by_clock->second;
  // Deterministic mode keeps host I/O out of guest time: its disk is a RAM disk unless the
  // matrix says otherwise.
  if (!m.guest.disk_backing_given)
    m.guest.disk_backing = clock == GuestClock::kIcount ? DiskBacking::kRam : DiskBacking::kVirtio;
}

namespace detail {

void parse_guest_clock(const Checker& ck, const YAML::Node& g, Guest& guest) {
  if (const YAML::Node c = g["clock"]) {
    const std::string s = ck.string(c, "guest.clock");
    if (s == "realtime") guest.clock = GuestClock::kRealtime;
    else if (s == "icount") guest.clock = GuestClock::kIcount;
    else if (s == "auto") guest.clock = GuestClock::kAuto;
    else ck.fail(c, "guest.clock: '" + s + "' is not one of realtime, icount, auto");
  }
  if (const YAML::Node n = g["icount_shift"]) {
    if (guest.clock == GuestClock::kRealtime)
      ck.fail(ck.key_mark(g, "icount_shift"),
              "guest.icount_shift: only meaningful with 'clock: icount' or 'auto' (the clock is realtime)");
    if (n.IsScalar() && n.Scalar() == "auto")
      ck.fail(n, "guest.icount_shift: 'auto' adapts to the host's speed and is not "
                 "deterministic; give an integer in [0, " + std::to_string(kMaxIcountShift) + "]");
    guest.icount_shift =
        static_cast<unsigned>(ck.integer(n, "guest.icount_shift", 0, kMaxIcountShift));
  }
  if (guest.clock != GuestClock::kIcount) return;
  const YAML::Node at = g["clock"];
  if (guest.accel == Accel::kKvm)
    ck.fail(at, "guest.clock: icount needs TCG (QEMU instruction counting), but accel is kvm");
  // `accel: auto` is resolved per host (run/host_fit.hpp): a KVM host refuses the cell there.
}

}  // namespace detail
}  // namespace rlab::matrix
