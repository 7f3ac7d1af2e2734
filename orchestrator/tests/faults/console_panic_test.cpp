// vm::console_panic: the reason of a guest kernel panic as rlab puts it into a boot's failure.
// The real panics are in real_guest_faults_test.cpp; these are the console texts around them.
#include "vm/disk.hpp"

#include <gtest/gtest.h>

using rlab::vm::console_panic;

TEST(ConsolePanic, ReadsTheReasonOfTheFirstPanic) {
  const std::string console =
      "rlab-fault-agent: panicking the kernel (sysrq c)\n"
      "[   25.143793] Kernel panic - not syncing: sysrq triggered crash\n"
      "[   25.144421] CPU: 0 UID: 0 PID: 1 Comm: rlab-agent Not tainted 6.12.117 #1\n"
      "[   25.160000] Kernel panic - not syncing: a second one \n";
  EXPECT_EQ(console_panic(console), "sysrq triggered crash");
}

TEST(ConsolePanic, KeepsTheWholeLineOfTheReason) {
  EXPECT_EQ(console_panic("[ 30.2] Kernel panic - not syncing: Attempted to kill init! "
                          "exitcode=0x00008b00  "),
            "Attempted to kill init! exitcode=0x00008b00");
}

TEST(ConsolePanic, NoPanicNoReason) {
  EXPECT_EQ(console_panic(""), "");
  EXPECT_EQ(console_panic("rlab-init: reached /init at 10.28s\nKernel panic? no\n"), "");
  EXPECT_EQ(console_panic("Kernel panic - not syncing: \n"), "(no reason given)");
}
