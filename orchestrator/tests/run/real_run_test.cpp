// `rlab run` end to end on the real stack: libvirtd, a 64K-page 6.12 arm64 guest under TCG
// (or KVM on arm64), the static agent, the SQLite store. Then the same matrix interrupted with
// SIGTERM (guests destroyed, exit 130) and finished with --resume.
#include "image/guest_images.hpp"
#include "run/run.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

extern char** environ;

namespace {

using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

// One cell: 64K 6.12 kernel, xfs, 2 vCPUs, shell1 10 s, the local libvirtd with 2 vCPUs.
const std::string kMatrix = rlab::testing::small_matrix(
    {.vcpus = 2, .duration_s = 10, .seed = 7, .hosts = {{"qemu:///system", 2, ""}}});

struct RunFixture : rlab::testing::RunDir {
  explicit RunFixture(const char* name) : RunDir(name) { write(kMatrix); }
};

void start_libvirtd() {
  auto r = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(r.ok()) << r.output;
}

std::vector<std::string> run_domains(rlab::vm::Connection& c, rlab::store::RunId run,
                                     const fs::path& db) {
  return c.active_domains(rlab::vm::domain_name(rlab::run::run_label(run, db), "") + "-");
}

}  // namespace

TEST(RealRun, OneCellThroughLibvirtStoresA64KResult) {
  start_libvirtd();
  RunFixture f("e2e");
  auto agent = agent_binary();
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(3600);  // includes a first kernel build when not cached
  o.echo = true;
  auto r = rlab::util::run(rlab_argv({"run", f.matrix.string(), "--agent", agent.string()}), o);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);
  EXPECT_NE(r.output.find("[1/1 boots]"), std::string::npos) << "progress shows boots done/total";
  EXPECT_NE(r.output.find("xfs"), std::string::npos) << "the table is printed";

  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  auto run = st->latest_run();
  ASSERT_TRUE(run);
  EXPECT_EQ(st->run(*run)->status, rlab::store::RunStatus::done);
  EXPECT_EQ(st->run(*run)->seed, 7u);
  auto boots = st->boot_results(*run);
  ASSERT_EQ(boots.size(), 1u);
  EXPECT_EQ(boots[0].status, rlab::store::BootStatus::done) << boots[0].failure;
  EXPECT_EQ(boots[0].guest_page_size, 65536u);
  EXPECT_GT(boots[0].loops, 0u);
  ASSERT_TRUE(boots[0].score.has_value());
  EXPECT_GT(*boots[0].score, 0);
  EXPECT_EQ(boots[0].vcpus, 2u);
  EXPECT_EQ(boots[0].fs, "xfs");

  rlab::vm::Connection conn("qemu:///system");
  EXPECT_TRUE(run_domains(conn, *run, f.dir / "rlab.db").empty()) << "no rlab domain of the run is left";
}

TEST(RealRun, SigtermDestroysGuestsAndResumeFinishesTheRun) {
  start_libvirtd();
  RunFixture f("resume");
  auto agent = agent_binary();
  auto argv = rlab_argv({"run", f.matrix.string(), "--agent", agent.string()});
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, cargv[0], nullptr, nullptr, cargv.data(), environ), 0);

  // Wait for the run's guest to appear (the kernel comes from the cache the test above filled).
  rlab::vm::Connection conn("qemu:///system");
  std::string seen;
  auto until = std::chrono::steady_clock::now() + 1800s;
  while (seen.empty() && std::chrono::steady_clock::now() < until) {
    for (const auto& n : conn.active_domains("rlab-"))
      if (n.find("6.12-xfs") != std::string::npos && n.find("-2vcpu-") != std::string::npos &&
          n.rfind("rlab-", 0) == 0) {
        // Only a domain whose store lives in this fixture: check the store's run list.
        auto st = rlab::store::Store::open(f.dir / "rlab.db");
        auto run = st->latest_run();
        if (run && n.rfind("rlab-" + rlab::run::run_label(*run, f.dir / "rlab.db") + "-", 0) == 0)
          seen = n;
      }
    std::this_thread::sleep_for(200ms);
  }
  ASSERT_FALSE(seen.empty()) << "the run never started its guest";
  std::this_thread::sleep_for(3s);  // mid-boot
  kill(pid, SIGTERM);
  int status = 0;
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 60s);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  auto listed = conn.active_domains(seen);
  EXPECT_TRUE(listed.empty()) << seen << " survived SIGTERM";

  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  auto run = *st->latest_run();
  EXPECT_EQ(st->run(run)->status, rlab::store::RunStatus::interrupted);
  EXPECT_EQ(st->unfinished_boots(run).size(), 1u);

  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(900);
  auto r = rlab::util::run(
      rlab_argv({"run", "--resume", std::to_string(run), f.matrix.string(), "--agent", agent.string()}),
      o);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);
  EXPECT_EQ(st->run(run)->status, rlab::store::RunStatus::done);
  EXPECT_TRUE(st->unfinished_boots(run).empty());
  auto boots = st->boot_results(run);
  ASSERT_EQ(boots.size(), 1u);
  EXPECT_EQ(boots[0].guest_page_size, 65536u);
  EXPECT_GT(boots[0].loops, 0u);
  EXPECT_TRUE(run_domains(conn, run, f.dir / "rlab.db").empty());
  EXPECT_FALSE(st->latest_run() != run) << "resume continues the run, it makes no new one";
}

