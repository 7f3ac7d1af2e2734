// util::run's children and the stop signal: signal_running_children() ends the whole process
// group of every command run() is waiting for (a kernel build's make and its compilers), at
// once, and forgets each command as soon as it has ended.
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

/// Waits up to `limit` for `pred`; returns whether it held.
template <typename Pred>
bool eventually(Pred pred, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

}  // namespace

TEST(RunningChildren, AStopSignalEndsTheCommandAndWhatItStartedAtOnce) {
  const fs::path pid_file = fs::temp_directory_path() / ("rlab-children-" + std::to_string(::getpid()));
  fs::remove(pid_file);
  // A command that starts a child of its own and waits for it, as make does its compilers.
  auto running = std::async(std::launch::async, [&] {
    return rlab::util::run({"sh", "-c", "sleep 60 & echo $! > \"$1\"; wait", "sh", pid_file.string()});
  });
  ASSERT_TRUE(eventually([&] { return fs::exists(pid_file) && fs::file_size(pid_file) > 0; }, 10s));
  ASSERT_EQ(rlab::util::signal_running_children(0), 1u) << "signal 0: the one group is there";
  pid_t grandchild = 0;
  std::ifstream(pid_file) >> grandchild;
  ASSERT_GT(grandchild, 0);

  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(rlab::util::signal_running_children(SIGTERM), 1u);
  ASSERT_EQ(running.wait_for(10s), std::future_status::ready) << "the command is still running";
  const auto r = running.get();
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_TRUE(eventually([&] { return ::kill(grandchild, 0) != 0; }, 5s)) << "the command's own child lives on";
  EXPECT_EQ(rlab::util::signal_running_children(0), 0u) << "an ended command is forgotten";
  fs::remove(pid_file);
}

TEST(RunningChildren, CommandsStartedAfterTheSignalRunNormally) {
  EXPECT_EQ(rlab::util::signal_running_children(SIGTERM), 0u) << "nothing is running";
  const auto r = rlab::util::run({"sh", "-c", "sleep 0.2; echo done"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "done\n");
}
