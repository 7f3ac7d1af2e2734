// Deterministic mode is part of a boot's environment: an icount run is refused against a
// real-time run (and against another shift), naming the field and the two guest clocks.
#include "compare/boots.hpp"
#include "compare/compare.hpp"

#include <gtest/gtest.h>

using namespace rlab::compare;

namespace {

BootData boot(unsigned repeat, const std::string& cpu_options) {
  BootData b;
  b.cell_id = "6.12/xfs-defaults/1vcpu/shell1";
  b.kernel = "6.12";
  b.repeat = repeat;
  b.score = 100;
  b.env.host = b.env.accel = b.env.cpu_model = "x";
  b.env.cpu_options = cpu_options;
  return b;
}

}  // namespace

TEST(GuestClockEnvironment, IcountAgainstRealTimeIsRefusedNamingTheClock) {
  const BootData rt0 = boot(0, "pauth=off"), rt1 = boot(1, "pauth=off");
  const BootData ic0 = boot(0, "pauth=off icount=shift=2,sleep=off");
  const BootData ic1 = boot(1, "pauth=off icount=shift=2,sleep=off");
  const auto m = find_mismatch({&rt0, &rt1}, {&ic0, &ic1}, {});
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->field, "cpu_options");
  EXPECT_EQ(m->where, "base vs new");
  EXPECT_EQ(m->message(),
            "environment field `cpu_options` differs (base vs new): pauth=off vs pauth=off "
            "icount=shift=2,sleep=off (guest clock: real time vs icount shift=2)");
  // Two icount runs of the same shift compare; another shift is another clock.
  EXPECT_FALSE(find_mismatch({&ic0}, {&ic1}, {}).has_value());
  const BootData ic5 = boot(0, "pauth=off icount=shift=5,sleep=off");
  const auto s = find_mismatch({&ic0}, {&ic5}, {});
  ASSERT_TRUE(s.has_value());
  EXPECT_NE(s->message().find("(guest clock: icount shift=2 vs icount shift=5)"),
            std::string::npos) << s->message();
  // A cpu_options difference that is not the clock gets no clock note.
  const BootData other = boot(0, "");
  const auto o = find_mismatch({&rt0}, {&other}, {});
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->message().find("guest clock"), std::string::npos) << o->message();
}
