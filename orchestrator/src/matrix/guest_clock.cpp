// The guest clock setting (docs/matrix.md "Deterministic mode").
#include "matrix/guest_clock.hpp"

namespace rlab::matrix {

const char* to_string(GuestClock c) { return c == GuestClock::kIcount ? "icount" : "realtime"; }

namespace detail {

void parse_guest_clock(const Checker& ck, const YAML::Node& g, Guest& guest) {
  if (const YAML::Node c = g["clock"]) {
    const std::string s = ck.string(c, "guest.clock");
    if (s == "realtime") guest.clock = GuestClock::kRealtime;
    else if (s == "icount") guest.clock = GuestClock::kIcount;
    else ck.fail(c, "guest.clock: '" + s + "' is not one of realtime, icount");
  }
  if (const YAML::Node n = g["icount_shift"]) {
    if (guest.clock != GuestClock::kIcount)
      ck.fail(ck.key_mark(g, "icount_shift"),
              "guest.icount_shift: only meaningful with 'clock: icount' (the clock is realtime)");
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
