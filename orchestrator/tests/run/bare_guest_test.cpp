// The bare guest's side of a boot: the kernel command line it gets, its console read back,
// and its passes scored as the agent scores UnixBench's looper.
#include "run/bare_guest.hpp"
#include "run/boot.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace rlab;

matrix::Cell bare_cell(unsigned copies) {
  matrix::Cell c;
  c.id = "6.12/xfs-defaults/2vcpu/bare-shell1";
  c.filesystem.fs = rlab::matrix::Fs::kXfs;
  c.vcpus = copies;
  c.copies = copies;
  c.workload.runner = rlab::matrix::Runner::kBare;
  c.workload.duration_s = 20;
  c.workload.scripts_per_loop = 1;
  return c;
}

// What images/bare/init prints for a 2-copy pass, with the kernel's lines around it.
const std::string kConsole =
    "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x000f0510]\n"
    "RLAB-BARE begin\r\n"
    "RLAB-BARE kernel_release=6.12.57\n"
    "RLAB-BARE page_size=65536\n"
    "RLAB-BARE nproc=2\n"
    "[    3.100000] XFS (ram0): Mounting V5 Filesystem\n"
    "RLAB-BARE pass=0 copy=0 status=0 start_s=5.10 end_s=25.70 output=COUNT|70|1|lps \n"
    "RLAB-BARE pass=0 copy=1 status=0 start_s=5.11 end_s=25.31 output=COUNT|68|1|lps \n"
    "RLAB-BARE end\n"
    "[   26.000000] reboot: Power down\n";

TEST(BareGuest, CmdlineNamesInitDiskAndLoad) {
  const auto cell = bare_cell(2);
  const std::string ram = run::bare_cmdline(cell, {"/dev/ram0", ""});
  EXPECT_EQ(ram, " rdinit=/bare-init rlab.bare.fs=xfs rlab.bare.device=/dev/ram0 rlab.bare.copies=2 "
                 "rlab.bare.passes=1 rlab.bare.seconds=20 rlab.bare.scripts=1 rlab.bare.drop_caches=0");
  auto c = cell;
  c.filesystem.mount_options = "noatime";
  c.workload.warmup_passes = 1;
  c.workload.passes = 3;
  const std::string virtio = run::bare_cmdline(c, {"", "rlab-fs"});
  EXPECT_NE(virtio.find(" rlab.bare.serial=rlab-fs"), std::string::npos) << virtio;
  EXPECT_EQ(virtio.find("rlab.bare.device"), std::string::npos) << virtio;
  EXPECT_NE(virtio.find(" rlab.bare.mount=noatime"), std::string::npos) << virtio;
  EXPECT_NE(virtio.find(" rlab.bare.passes=4"), std::string::npos) << "warm-up passes run too: " << virtio;
}

// Every boot but a bare one starts the agent as the kernel's rdinit (no shell /init before
// it); a bare boot starts the bare init instead, and never the agent.
TEST(BareGuest, DomainSpecStartsTheAgentOrTheBareInitAsPid1) {
  image::GuestImages img;
  img.kernel_image = "/cache/Image";
  img.initramfs = "/cache/initramfs.cpio";
  run::BootJob job;
  job.images = &img;
  job.dir = "/var/tmp/boot";
  job.domain_name = "rlab-test";
  matrix::Guest guest;
  const auto settings = run::guest_settings(guest, matrix::Accel::kTcg);

  auto agent_cell = bare_cell(1);
  agent_cell.workload.runner = rlab::matrix::Runner::kRlab;
  job.cell = &agent_cell;
  const std::string agent = run::domain_spec(job, settings).cmdline;
  EXPECT_NE(agent.find(" rdinit=/usr/bin/rlab-agent"), std::string::npos) << agent;
  EXPECT_EQ(agent.find("/bare-init"), std::string::npos) << agent;

  const auto bare = bare_cell(1);
  job.cell = &bare;
  const std::string b = run::domain_spec(job, settings).cmdline;
  EXPECT_NE(b.find(" rdinit=/bare-init"), std::string::npos) << b;
  EXPECT_EQ(b.find("rlab-agent"), std::string::npos) << b;
}

TEST(BareGuest, CmdlineRefusesWhatTheInitCannotTake) {
  auto mkfs = bare_cell(1);
  mkfs.filesystem.mkfs_options = {"-d", "agcount=4"};
  EXPECT_THROW(run::bare_cmdline(mkfs, {"/dev/ram0", ""}), std::invalid_argument);
  auto blank = bare_cell(1);
  blank.filesystem.mount_options = "noatime logbufs=8";
  EXPECT_THROW(run::bare_cmdline(blank, {"/dev/ram0", ""}), std::invalid_argument);
  auto fraction = bare_cell(1);
  fraction.workload.duration_s = 2.5;
  EXPECT_THROW(run::bare_cmdline(fraction, {"/dev/ram0", ""}), std::invalid_argument);
}

TEST(BareGuest, ParsesTheConsoleAmongKernelLines) {
  const auto r = run::parse_bare_console(kConsole);
  EXPECT_TRUE(r.begun);
  EXPECT_TRUE(r.ended);
  EXPECT_FALSE(r.error);
  EXPECT_EQ(r.kernel_release, "6.12.57");
  EXPECT_EQ(r.page_size, 65536u);
  EXPECT_EQ(r.nproc, 2u);
  ASSERT_EQ(r.copies.size(), 2u);
  EXPECT_EQ(r.copies[1].copy, 1u);
  EXPECT_EQ(r.copies[1].count, 68u);
  EXPECT_DOUBLE_EQ(r.copies[1].start_s, 5.11);
  EXPECT_DOUBLE_EQ(r.copies[1].end_s, 25.31);
  EXPECT_EQ(r.copies[0].output, "COUNT|70|1|lps");

  const auto hello = run::bare_hello(r);
  EXPECT_EQ(hello.page_size, 65536u);
  EXPECT_EQ(hello.nr_cpus, 2u);
  EXPECT_EQ(hello.kernel_release, "6.12.57");
  EXPECT_EQ(hello.agent_version, "none (bare guest)");
}

TEST(BareGuest, ScoresAPassAsRunTimesIt) {
  const auto res = run::bare_result(run::parse_bare_console(kConsole), 2, 1, 0, 20);
  ASSERT_EQ(res.passes.size(), 1u);
  const auto& p = res.passes[0];
  EXPECT_EQ(p.loops, 138u);
  // The copies' mean time from start to EOF: (20.60 + 20.20) / 2.
  EXPECT_NEAR(p.duration_s, 20.40, 1e-9);
  EXPECT_DOUBLE_EQ(p.window_s, 20);
  EXPECT_NEAR(p.lpm, 138 * 60 / 20.40, 1e-9);
  EXPECT_NEAR(res.score, p.lpm, 1e-9);
}

TEST(BareGuest, WarmupPassesAreReportedButNotScored) {
  const std::string console =
      "RLAB-BARE begin\nRLAB-BARE kernel_release=6.12.57\nRLAB-BARE page_size=65536\nRLAB-BARE nproc=1\n"
      "RLAB-BARE pass=0 copy=0 status=0 start_s=1 end_s=21 output=COUNT|100|1|lps\n"
      "RLAB-BARE pass=1 copy=0 status=0 start_s=30 end_s=50 output=COUNT|60|1|lps\n"
      "RLAB-BARE end\n";
  const auto res = run::bare_result(run::parse_bare_console(console), 1, 2, 1, 20);
  ASSERT_EQ(res.passes.size(), 2u);
  EXPECT_NEAR(res.passes[0].lpm, 300, 1e-9);
  EXPECT_NEAR(res.score, 180, 1e-9) << "only pass 1 counts";
}

TEST(BareGuest, APassShorterThanTheAlarmTakesTheAlarm) {
  const std::string console = "RLAB-BARE begin\nRLAB-BARE pass=0 copy=0 status=0 start_s=1 end_s=11 "
                              "output=COUNT|30|1|lps\nRLAB-BARE end\n";
  const auto res = run::bare_result(run::parse_bare_console(console), 1, 1, 0, 20);
  EXPECT_DOUBLE_EQ(res.passes[0].duration_s, 20);
  EXPECT_DOUBLE_EQ(res.passes[0].lpm, 90);
}

/// bare_result's (or bare_hello's) message for `console`, "" when it does not throw.
std::string failure(const std::string& console, unsigned copies = 1, bool hello = false) {
  try {
    const auto r = run::parse_bare_console(console);
    if (hello) run::bare_hello(r);
    else run::bare_result(r, copies, 1, 0, 20);
  } catch (const run::BareOutputError& e) {
    return e.what();
  }
  return "";
}

TEST(BareGuest, BadOutputSaysWhatIsWrong) {
  EXPECT_NE(failure("").find("no \"RLAB-BARE begin\""), std::string::npos) << failure("");
  EXPECT_NE(failure("RLAB-BARE begin\nRLAB-BARE error=mkfs.xfs /dev/ram0: no space\n").find("gave up: mkfs.xfs /dev/ram0"),
            std::string::npos);
  const std::string one = "RLAB-BARE begin\nRLAB-BARE pass=0 copy=0 status=0 start_s=1 end_s=21 output=COUNT|70|1|lps\n";
  EXPECT_NE(failure(one).find("no \"RLAB-BARE end\""), std::string::npos) << failure(one);
  EXPECT_NE(failure(one + "RLAB-BARE end\n", 2).find("pass 0 copy 1: no line"), std::string::npos)
      << failure(one + "RLAB-BARE end\n", 2);
  const std::string failed =
      "RLAB-BARE begin\nRLAB-BARE pass=0 copy=0 status=1 start_s=1 end_s=2 output=multi.sh: not found\nRLAB-BARE end\n";
  EXPECT_NE(failure(failed).find("looper exited 1 without a COUNT line: \"multi.sh: not found\""), std::string::npos)
      << failure(failed);
  const std::string no_count =
      "RLAB-BARE begin\nRLAB-BARE pass=0 copy=0 status=0 start_s=1 end_s=21 output=\nRLAB-BARE end\n";
  EXPECT_NE(failure(no_count).find("without a COUNT line"), std::string::npos) << failure(no_count);
  EXPECT_NE(failure("RLAB-BARE begin\nRLAB-BARE end\n", 1, true).find("page_size"), std::string::npos);
}

TEST(BareGuest, AGarbledCopyLineIsAnErrorQuotingIt) {
  try {
    run::parse_bare_console("RLAB-BARE begin\nRLAB-BARE pass=0 copy=x status=0 start_s=1 end_s=2 output=COUNT|1|1|lps\n");
    FAIL() << "a copy line without a copy number was accepted";
  } catch (const run::BareOutputError& e) {
    EXPECT_NE(std::string(e.what()).find("no number copy="), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("copy=x"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run::parse_bare_console("RLAB-BARE pass=0 copy=0 status=0 start_s=1 end_s=2\n"), run::BareOutputError);
}

}  // namespace
