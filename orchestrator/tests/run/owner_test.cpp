// Run ownership: a run whose owning process is alive is left alone, one whose owner died
// (however: here SIGKILL) is swept, and a second owner of a live run is refused.
#include "run/owner.hpp"
#include "util/usage_error.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;
using namespace rlab;

namespace {

struct TempStore {
  fs::path dir = fs::temp_directory_path() / ("rlab-owner-" + std::to_string(::getpid()));
  std::unique_ptr<store::Store> st;
  TempStore() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    st = store::Store::open(dir / "rlab.db");
  }
  ~TempStore() { fs::remove_all(dir); }
  store::RunId add_run() { return st->create_run({"m.yaml", "kernels: {}", 1, "matrix", ""}); }
  store::RunStatus status(store::RunId r) const { return st->run(r)->status; }
};

}  // namespace

TEST(RunOwner, OnlyRunsWhoseOwnerIsGoneAreSwept) {
  TempStore t;
  const auto dead = t.add_run();       // no process holds it: a run killed before this change
  const auto live = t.add_run();
  const auto finished = t.add_run();
  t.st->finish_run(finished, store::RunStatus::done);
  const auto lock = run::own_run(t.st->path(), live);

  const auto swept = run::sweep_dead_runs(*t.st, {});
  EXPECT_EQ(swept.runs, std::vector<store::RunId>{dead});
  EXPECT_EQ(swept.domains, 0u);
  EXPECT_EQ(t.status(dead), store::RunStatus::interrupted);
  EXPECT_EQ(t.status(live), store::RunStatus::running);
  EXPECT_EQ(t.status(finished), store::RunStatus::done);
  EXPECT_TRUE(run::sweep_dead_runs(*t.st, {}).runs.empty()) << "a swept run is not swept again";
}

TEST(RunOwner, ASecondOwnerOfALiveRunIsRefusedNamingTheRun) {
  TempStore t;
  const auto r = t.add_run();
  const auto lock = run::own_run(t.st->path(), r);
  try {
    run::own_run(t.st->path(), r);
    FAIL() << "a second owner was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("run " + std::to_string(r)), std::string::npos) << e.what();
  }
}

TEST(RunOwner, AKilledOwnersRunIsSweptAfterItDies) {
  TempStore t;
  const auto r = t.add_run();
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const auto lock = run::own_run(t.dir / "rlab.db", r);
    (void)!::write(ready[1], "x", 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  EXPECT_TRUE(run::sweep_dead_runs(*t.st, {}).runs.empty()) << "its owner is alive";
  EXPECT_EQ(t.status(r), store::RunStatus::running);
  ASSERT_EQ(::kill(child, SIGKILL), 0);
  int wstatus = 0;
  ASSERT_EQ(::waitpid(child, &wstatus, 0), child);
  EXPECT_EQ(run::sweep_dead_runs(*t.st, {}).runs, std::vector<store::RunId>{r});
  EXPECT_EQ(t.status(r), store::RunStatus::interrupted);
  ::close(ready[0]);
  ::close(ready[1]);
}
