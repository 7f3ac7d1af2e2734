// `guest.clock: auto` against a run's hosts (run/clock.hpp): instruction counting where the
// guests run under TCG, real time under KVM; hosts that disagree refuse the matrix, naming
// each host and its clock.
#include "run/clock.hpp"
#include "util/usage_error.hpp"

#include <gtest/gtest.h>

using namespace rlab;
using matrix::GuestClock;

namespace {

vm::AccelCaps accel_caps(bool kvm) {
  vm::AccelCaps a;
  a.emulator = "/usr/bin/qemu-system-aarch64";
  a.machine = "virt-7.2";
  a.max_vcpus = 512;
  a.maximum = true;
  a.host_passthrough = kvm;
  return a;
}

/// An x86_64 host (TCG only) or an arm64 host with KVM and TCG.
vm::HostCaps host_caps(bool arm_kvm) {
  vm::HostCaps c;
  c.arch = arm_kvm ? "aarch64" : "x86_64";
  c.tcg = accel_caps(false);
  if (arm_kvm) c.kvm = accel_caps(true);
  return c;
}

matrix::Guest auto_guest(matrix::Accel a = matrix::Accel::kAuto) {
  matrix::Guest g;
  g.accel = a;
  g.clock = GuestClock::kAuto;
  return g;
}

}  // namespace

TEST(AutoClock, IcountUnderTcgRealTimeUnderKvm) {
  EXPECT_EQ(run::clock_on(auto_guest(), host_caps(false)), GuestClock::kIcount);
  EXPECT_EQ(run::clock_on(auto_guest(), host_caps(true)), GuestClock::kRealtime);
  // accel: tcg on the KVM host is TCG there: instruction counting.
  EXPECT_EQ(run::clock_on(auto_guest(matrix::Accel::kTcg), host_caps(true)), GuestClock::kIcount);
  // accel: kvm on a TCG-only host cannot run at all.
  EXPECT_EQ(run::clock_on(auto_guest(matrix::Accel::kKvm), host_caps(false)), std::nullopt);
}

TEST(AutoClock, HostsThatAgreeSettleItAndSilentOnesDoNotCount) {
  EXPECT_EQ(run::agree_on_clock({{"qemu:///system", GuestClock::kIcount, "TCG"},
                                 {"qemu+tcp://b/system", std::nullopt, "did not answer: refused"},
                                 {"qemu+tcp://c/system", GuestClock::kIcount, "TCG"}}),
            GuestClock::kIcount);
  EXPECT_EQ(run::agree_on_clock({{"qemu+ssh://arm-01/system", GuestClock::kRealtime, "KVM"}}), GuestClock::kRealtime);
}

TEST(AutoClock, HostsThatDisagreeOrNoHostAtAllAreAUsageErrorNamingEach) {
  try {
    run::agree_on_clock({{"qemu:///system", GuestClock::kIcount, "TCG"}, {"qemu+ssh://arm-01/system", GuestClock::kRealtime, "KVM"}});
    FAIL() << "mixed clocks accepted";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("qemu:///system: icount (TCG)"), std::string::npos) << what;
    EXPECT_NE(what.find("qemu+ssh://arm-01/system: realtime (KVM)"), std::string::npos) << what;
    EXPECT_NE(what.find("set guest.clock"), std::string::npos) << what;
  }
  try {
    run::agree_on_clock({{"qemu:///system", std::nullopt, "did not answer: no daemon"}});
    FAIL() << "no host accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("qemu:///system: did not answer: no daemon"), std::string::npos) << e.what();
  }
}

TEST(AutoClock, AMatrixWithAFixedClockAsksNoHost) {
  matrix::Matrix m;
  m.guest.clock = GuestClock::kIcount;
  m.hosts = {{"qemu+tcp://127.0.0.1:1/system", 1}};  // nothing listens there
  EXPECT_TRUE(run::probe_clocks(m).empty());
  EXPECT_TRUE(run::settle_auto_clock(m).empty());
  EXPECT_EQ(m.guest.clock, GuestClock::kIcount);
}
