// Parsing the /init self-test report from console output.
#include "vm/selftest.hpp"

#include <gtest/gtest.h>

namespace rlab::vm {
namespace {

TEST(SelftestParse, ReadsEveryKeyAmongKernelNoise) {
  auto r = parse_selftest(
      "[    0.000000] Booting Linux on physical CPU 0x0\r\n"
      "rlab-init: reached /init at 1.52s\r\n"
      "RLAB-SELFTEST begin\r\n"
      "RLAB-SELFTEST init_uptime_s=1.52\r\n"
      "RLAB-SELFTEST kernel_release=6.12.57\r\n"
      "RLAB-SELFTEST page_size=65536\r\n"
      "RLAB-SELFTEST nproc=2\r\n"
      "[    1.9] random: crng init done\r\n"
      "RLAB-SELFTEST filesystem=xfs\r\nRLAB-SELFTEST filesystem=ext4\r\n"
      "RLAB-SELFTEST tracepoint=xfs:xfs_inodegc_queue\r\n"
      "RLAB-SELFTEST hist_triggers=1\r\n"
      "RLAB-SELFTEST virtio_port=org.rlab.agent.0\r\n"
      "RLAB-SELFTEST tool=sort\r\n"
      "RLAB-SELFTEST end\r\n");
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.page_size, 65536u);
  EXPECT_EQ(r.nproc, 2u);
  ASSERT_TRUE(r.init_uptime_s);
  EXPECT_DOUBLE_EQ(*r.init_uptime_s, 1.52);
  EXPECT_EQ(r.kernel_release, "6.12.57");
  EXPECT_EQ(r.filesystems, (std::set<std::string>{"xfs", "ext4"}));
  EXPECT_TRUE(r.tracepoints.count("xfs:xfs_inodegc_queue"));
  EXPECT_TRUE(r.hist_triggers);
  EXPECT_TRUE(r.virtio_ports.count("org.rlab.agent.0"));
  EXPECT_TRUE(r.tools.count("sort"));
}

TEST(SelftestParse, TruncatedOrGarbledReportIsIncomplete) {
  auto r = parse_selftest("RLAB-SELFTEST begin\nRLAB-SELFTEST page_size=6553x6\nRLAB-SELFTEST nproc=\n");
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.nproc);
  EXPECT_FALSE(r.page_size);
  EXPECT_FALSE(parse_selftest("RLAB-SELFTEST end\n").complete);  // end without begin
}

}  // namespace
}  // namespace rlab::vm
