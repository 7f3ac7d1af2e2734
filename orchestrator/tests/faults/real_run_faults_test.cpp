// Faults of the lab around the guests, each against the real stack (shared libvirtd, 64K 6.12
// TCG guests, 1 vCPU, shell1 one 8 s pass): rlab SIGKILLed mid-matrix and resumed, the store's
// disk filling up mid-run, kernels that cannot be built (a patch that does not apply, a
// patch that breaks the compile), and SIGTERM while the run's kernel compiles.
#include "fault_lab.hpp"
#include "small_disk.hpp"

#include "util/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace rlab::faults;
using rlab::testing::SmallDisk;

namespace {

const std::vector<std::string> kXfsExt4 = {"xfs", "ext4"};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(RealRunFaults, SigkillMidMatrixThenResumeRunsOnlyTheMissingCell) {
  ensure_libvirtd();
  Lab lab("sigkill", matrix_text(kXfsExt4, 1));  // budget 1: the two cells run one after the other
  const auto agent = plain_agent().string();
  const auto t0 = std::chrono::steady_clock::now();
  {
    Rlab rlab({"run", lab.matrix.string(), "--agent", agent}, lab.dir / "run.log");
    ASSERT_TRUE(wait_for(lab.db, "SELECT count(*) FROM boots WHERE status = 'done'", 900s))
        << rlab.log_tail();
    ASSERT_TRUE(wait_for(lab.db,
                         "SELECT count(*) FROM samples s JOIN boots b ON b.id = s.boot_id "
                         "WHERE b.status = 'running'",
                         300s))
        << rlab.log_tail();
    ASSERT_EQ(::kill(rlab.pid(), SIGKILL), 0);
    EXPECT_EQ(rlab.wait(30s), 128 + SIGKILL);
  }
  // SIGKILL leaves the running guest behind.
  auto left = rlab::util::run({"virsh", "-c", "qemu:///system", "list", "--name"});
  EXPECT_NE(left.output.find(domain_prefix(1, lab.db)), std::string::npos)
      << "the killed run's guest is still there\n" << left.output;
  const auto done_before = query(lab.db, "SELECT boot_id || ' ' || score FROM results");
  ASSERT_FALSE(done_before.empty());
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 1"), "running");

  auto [code, out] = run_rlab({"run", "--resume", "1", lab.matrix.string(), "--agent", agent});
  ASSERT_EQ(code, 0) << rlab::util::tail(out, 60);
  EXPECT_NE(out.find("run 1: 1 boots"), std::string::npos) << "only the missing cell runs\n" << out;
  EXPECT_NE(out.find("destroying leftover domain"), std::string::npos) << out;
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 1"), "done");
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM boots WHERE status = 'done'"), "2");
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM results"), "2");
  EXPECT_NE(query(lab.db, "SELECT group_concat(boot_id || ' ' || score, ',') FROM results")
                .find(done_before),
            std::string::npos)
      << "the result stored before the kill is kept as it was";
  expect_no_leaks(lab.db, 1);
  std::printf("SIGKILL + resume: %.0f s wall\n", seconds_since(t0));
}

// A night killed outright leaves its guest; the next run of the store (a new one, as the next
// night's) destroys it before booting and marks the dead run interrupted, still resumable.
TEST(RealRunFaults, TheNextRunSweepsTheGuestsOfARunKilledOutright) {
  ensure_libvirtd();
  Lab lab("sweep", matrix_text({"xfs"}, 1));
  const auto agent = plain_agent().string();
  {
    Rlab rlab({"run", lab.matrix.string(), "--agent", agent}, lab.dir / "run.log");
    ASSERT_TRUE(wait_for(lab.db,
                         "SELECT count(*) FROM samples s JOIN boots b ON b.id = s.boot_id "
                         "WHERE b.status = 'running'",
                         900s))
        << rlab.log_tail();
    ASSERT_EQ(::kill(rlab.pid(), SIGKILL), 0);
    EXPECT_EQ(rlab.wait(30s), 128 + SIGKILL);
  }
  const std::string dead = domain_prefix(1, lab.db);
  auto list = [] { return rlab::util::run({"virsh", "-c", "qemu:///system", "list", "--name"}).output; };
  ASSERT_NE(list().find(dead), std::string::npos) << "the killed run's guest is still there";

  auto [code, out] = run_rlab({"run", lab.matrix.string(), "--agent", agent});
  ASSERT_EQ(code, 0) << rlab::util::tail(out, 60);
  EXPECT_NE(out.find("run 1 was left running by a process that is gone"), std::string::npos) << out;
  EXPECT_NE(out.find("destroying it"), std::string::npos) << out;
  EXPECT_EQ(list().find(dead), std::string::npos) << "swept";
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 1"), "interrupted");
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 2"), "done");
  expect_no_leaks(lab.db, 2);
}

TEST(RealRunFaults, FullResultsDiskEndsTheRunWithTheStoreIntact) {
  ensure_libvirtd();
  Lab lab("full", matrix_text({"xfs"}, 2));
  SmallDisk disk(lab.dir / "full", 160);  // the store, the staged images (~53 MiB: Image and the uncompressed initramfs), the guest disk
  const fs::path db = disk.dir / "rlab.db";
  const auto agent = plain_agent().string();
  const auto t0 = std::chrono::steady_clock::now();
  const std::string samples = "SELECT count(*) FROM samples";
  std::string stored;
  {
    Rlab rlab({"run", lab.matrix.string(), "--db", db.string(), "--agent", agent},
              lab.dir / "run.log");
    ASSERT_TRUE(wait_for(db, samples, 900s)) << rlab.log_tail();
    disk.fill("filler");
    stored = query(db, samples);
    const int code = rlab.wait(300s);
    const auto log = rlab.log_tail();
    EXPECT_EQ(code, 3) << "exit 3: the lab failed\n" << log;
    // Whichever write meets the full disk first ends the run and is named: the store's (the
    // pass's end sample) or the guest's to its disk image (QEMU pauses the guest on ENOSPC).
    const bool store_full = log.find(db.string() + ": ") != std::string::npos;
    const bool image_full = log.find("fs.raw is full") != std::string::npos &&
                            log.find("no space left") != std::string::npos;
    EXPECT_TRUE(store_full || image_full) << "the error names what is full\n" << log;
    EXPECT_EQ(log.find("the agent stopped answering"), std::string::npos)
        << "a guest paused on the full disk is the lab's fault, not a hung guest\n" << log;
  }
  EXPECT_GE(std::stoi(query(db, samples)), std::stoi(stored)) << "what was stored stays";
  EXPECT_EQ(query(db, "SELECT status FROM boots"), "running") << "the boot is left for --resume";
  expect_no_leaks(db, 1);

  // With space again, the run finishes where it stopped.
  fs::remove(disk.dir / "filler");
  auto [code, out] = run_rlab({"run", "--resume", "1", lab.matrix.string(), "--db", db.string(),
                               "--agent", agent});
  EXPECT_EQ(code, 0) << rlab::util::tail(out, 60);
  EXPECT_EQ(query(db, "SELECT status FROM runs WHERE id = 1"), "done");
  expect_no_leaks(db, 1);
  std::printf("results disk full + resume: %.0f s wall\n", seconds_since(t0));
}

TEST(RealRunFaults, KernelsThatCannotBeBuiltFailOnlyTheirCells) {
  ensure_libvirtd();
  const std::string data = RLAB_TEST_DATA;
  const std::string kernels =
      "  6.12+noapply:\n"
      "    extends: \"6.12\"\n"
      "    patches: [" + data + "/does-not-apply.patch]\n"
      "  6.12+nobuild:\n"
      "    extends: \"6.12\"\n"
      "    patches: [" + data + "/breaks-build.patch]\n";
  Lab lab("build", matrix_text({"xfs"}, 2, R"(["6.12", 6.12+noapply, 6.12+nobuild])",
                               kernels));
  const auto t0 = std::chrono::steady_clock::now();
  auto [code, out] = run_rlab({"run", lab.matrix.string(), "--agent", plain_agent().string()},
                              std::chrono::seconds(3600));
  std::printf("broken kernels run: %.0f s wall\n", seconds_since(t0));
  EXPECT_EQ(code, 1) << "exit 1: some boots failed\n" << rlab::util::tail(out, 60);
  auto sql = [&](const std::string& column, const std::string& kernel) {
    return query(lab.db,
                 "SELECT " + column + " FROM boots b JOIN cells c ON c.id = b.cell_id LEFT JOIN "
                 "failures f ON f.boot_id = b.id WHERE c.kernel = '" + kernel + "'");
  };
  EXPECT_EQ(sql("b.status", "6.12"), "done") << out;
  EXPECT_EQ(sql("b.status", "6.12+noapply"), "failed");
  EXPECT_EQ(sql("f.phase", "6.12+noapply"), "build");
  auto noapply = sql("f.message", "6.12+noapply");
  EXPECT_NE(noapply.find("does-not-apply.patch"), std::string::npos) << noapply;
  EXPECT_EQ(sql("b.status", "6.12+nobuild"), "failed");
  EXPECT_EQ(sql("f.phase", "6.12+nobuild"), "build");
  auto nobuild = sql("f.message", "6.12+nobuild");
  EXPECT_NE(nobuild.find("rlab fault test: this kernel does not build"), std::string::npos)
      << nobuild;
  expect_no_leaks(lab.db, 1);
}

// SIGTERM while the run's kernel compiles: make and its compilers end at once (not when the
// build would have finished, minutes later), the run is interrupted with its boot pending for
// --resume (not failed as a kernel that does not build). The kernel is the default 6.12 with
// a LOCALVERSION of this test's own, so the build starts from nothing; its build directory is
// removed after.
TEST(RealRunFaults, SigtermDuringTheKernelBuildStopsMakeAndLeavesTheBootPending) {
  ensure_libvirtd();
  const std::string tag = "-rlab-intr-" + std::to_string(::getpid()) + "-" +
                          std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  const fs::path fragment = fs::path("/var/tmp") / ("rlab-intr" + tag + ".config");
  std::ofstream(fragment) << "CONFIG_LOCALVERSION=\"" << tag << "\"\n";
  Lab lab("build-intr", matrix_text({"xfs"}, 1, "[intr]",
                                    "  intr:\n    extends: \"6.12\"\n    fragments: [" + fragment.string() + "]\n"));
  const fs::path log = lab.dir / "run.log";
  Rlab rlab({"run", lab.matrix.string(), "--agent", plain_agent().string()}, log);
  const auto text = [&] {
    std::ifstream in(log);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  // make is compiling once a progress line with a step count is printed.
  const auto until = std::chrono::steady_clock::now() + 600s;
  while (text().find("steps, ~") == std::string::npos && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(200ms);
  const std::string out = text();
  const auto at = out.find(" Image in ");
  ASSERT_NE(at, std::string::npos) << "the build never started:\n" << rlab.log_tail(30);
  const fs::path obj = out.substr(at + 10, out.find_first_of(", \n", at + 10) - at - 10);
  const fs::path kbuild = obj.parent_path();
  ASSERT_EQ(obj.filename(), "obj") << out;

  const auto t0 = std::chrono::steady_clock::now();
  ::kill(rlab.pid(), SIGTERM);
  const int code = rlab.wait(120s);
  const double stop_s = seconds_since(t0);
  std::printf("[build interrupted] rlab exited %.1f s after SIGTERM\n", stop_s);
  EXPECT_LT(stop_s, 30) << "rlab waited for the build";
  EXPECT_EQ(code, 130) << rlab.log_tail(30);
  // Nothing still works in the build directory: no process's command line names it.
  std::string survivor;
  for (const auto& p : fs::directory_iterator("/proc")) {
    std::ifstream in(p.path() / "cmdline");
    const std::string cmd(std::istreambuf_iterator<char>(in), {});
    if (cmd.find(kbuild.string()) != std::string::npos) survivor = p.path().filename().string() + ": " + cmd;
  }
  EXPECT_TRUE(survivor.empty()) << "still building: " << survivor;
  EXPECT_EQ(query(lab.db, "SELECT status FROM runs WHERE id = 1"), "interrupted");
  EXPECT_EQ(query(lab.db, "SELECT group_concat(status) FROM boots"), "pending")
      << "the boot waits for --resume, not failed as a kernel that does not build";
  EXPECT_EQ(query(lab.db, "SELECT count(*) FROM failures"), "0");
  fs::remove_all(kbuild);
  fs::remove(fragment);
}
