// Progress lines: counts, phases, failures and the ETA.
#include "run/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace rlab::run;

TEST(Progress, LinesCarryCountsPhaseAndEta) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  {
    Progress p(f, false);
    p.build("6.12", "build", "CC fs/xfs/xfs_icache.o");
    p.start(4, 600);
    p.phase("6.12/xfs-defaults/2vcpu/shell1#0", "hello");
    p.finished("6.12/xfs-defaults/2vcpu/shell1#0", true, 40, "270.0 lpm");
    p.finished("6.12/ext4-defaults/2vcpu/shell1#0", false, 10, "hello-timeout: no hello");
    EXPECT_EQ(p.done(), 2u);
    EXPECT_GT(p.eta_s(), -0.001);
  }
  std::fclose(f);
  std::string out(buf, len);
  free(buf);
  EXPECT_NE(out.find("[build 6.12] build: CC fs/xfs/xfs_icache.o"), std::string::npos);
  EXPECT_NE(out.find("[0/4 boots] ETA 10m00s 6.12/xfs-defaults/2vcpu/shell1#0: hello"),
            std::string::npos);
  EXPECT_NE(out.find("[1/4 boots] ETA"), std::string::npos);
  EXPECT_NE(out.find("[2/4 boots, 1 failed]"), std::string::npos);
  EXPECT_NE(out.find("FAILED in 10s hello-timeout"), std::string::npos);
}

TEST(Progress, FormatDuration) {
  EXPECT_EQ(format_duration(35), "35s");
  EXPECT_EQ(format_duration(250), "4m10s");
  EXPECT_EQ(format_duration(3720), "1h02m");
}

// The kernel build's own status (percentage, ETA: build/build_progress.hpp) is shown as given.
TEST(Progress, BuildLinesCarryTheBuildsOwnPercentageAndEta) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  {
    Progress p(f, false);
    p.build("6.12", "build", "[ 120s, 400/1000 steps, 40%, ETA 3m00s] CC fs/xfs/xfs_icache.o");
  }
  std::fclose(f);
  std::string out(buf, len);
  free(buf);
  EXPECT_EQ(out, "[build 6.12] build: [ 120s, 400/1000 steps, 40%, ETA 3m00s] CC fs/xfs/xfs_icache.o\n");
}
