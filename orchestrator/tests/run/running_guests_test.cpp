#include "run/running_guests.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace std::chrono_literals;
using rlab::run::RunningGuests;

TEST(RunningGuests, AGuestWaitsUntilItFitsBesideTheRunningOnes) {
  RunningGuests g(2);
  ASSERT_TRUE(g.enter(1, {}));
  ASSERT_TRUE(g.enter(1, {}));
  std::atomic<bool> entered{false};
  std::thread t([&] { entered = g.enter(1, {}); });
  std::this_thread::sleep_for(150ms);
  EXPECT_FALSE(entered) << "the budget of 2 vCPUs is full";
  g.leave(1);  // one guest is gone
  t.join();
  EXPECT_TRUE(entered);
  EXPECT_EQ(g.running(), 2u);
}

TEST(RunningGuests, AGuestLargerThanTheBudgetRunsAloneAndStopEndsTheWait) {
  RunningGuests g(2);
  ASSERT_TRUE(g.enter(1, {}));
  std::atomic<bool> stop{false};
  std::atomic<int> result{-1};
  std::thread t([&] { result = g.enter(4, [&] { return stop.load(); }) ? 1 : 0; });
  std::this_thread::sleep_for(150ms);
  EXPECT_EQ(result.load(), -1) << "4 vCPUs wait for the host to be empty";
  stop = true;
  t.join();
  EXPECT_EQ(result.load(), 0);
  EXPECT_EQ(g.running(), 1u) << "a stopped wait counts nothing";
  g.leave(1);
  EXPECT_TRUE(g.enter(4, {})) << "alone on an empty host";
  EXPECT_EQ(g.running(), 4u);
}
