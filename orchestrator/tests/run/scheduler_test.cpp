// Scheduling: seeded per-repeat shuffle, vCPU budgets never exceeded, stop and errors.
#include "run/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace rlab::run;
using namespace std::chrono_literals;

namespace {
std::vector<Job> jobs(unsigned cells, unsigned repeats, unsigned vcpus = 1) {
  std::vector<Job> out;
  std::int64_t id = 1;
  for (unsigned r = 0; r < repeats; ++r)
    for (unsigned c = 0; c < cells; ++c) out.push_back({id++, c, r, vcpus});
  return out;
}
std::vector<std::int64_t> ids(const std::vector<Job>& js) {
  std::vector<std::int64_t> out;
  for (auto& j : js) out.push_back(j.boot);
  return out;
}
}  // namespace

TEST(ShuffledOrder, SeededDeterministicPerRepeatPermutation) {
  auto a = shuffled_order(jobs(8, 3), 42);
  auto b = shuffled_order(jobs(8, 3), 42);
  auto c = shuffled_order(jobs(8, 3), 43);
  EXPECT_EQ(ids(a), ids(b));
  EXPECT_NE(ids(a), ids(c));
  ASSERT_EQ(a.size(), 24u);
  for (unsigned r = 0; r < 3; ++r) {
    std::set<std::size_t> cells;
    for (unsigned i = 0; i < 8; ++i) {
      EXPECT_EQ(a[r * 8 + i].repeat, r);
      cells.insert(a[r * 8 + i].cell);
    }
    EXPECT_EQ(cells.size(), 8u);  // every cell once per repeat
  }
  // Repeats are shuffled independently: their cell orders differ.
  std::vector<std::size_t> r0, r1;
  for (unsigned i = 0; i < 8; ++i) {
    r0.push_back(a[i].cell);
    r1.push_back(a[8 + i].cell);
  }
  EXPECT_NE(r0, r1);
}

TEST(Schedule, RunsEveryJobOnceWithinBudgetAndConcurrently) {
  auto order = jobs(4, 1, 1);
  auto two = jobs(3, 1, 2);
  for (auto& j : two) j.boot += 100;
  order.insert(order.end(), two.begin(), two.end());
  std::mutex mu;
  std::map<std::size_t, unsigned> used;
  unsigned peak = 0;
  std::multiset<std::int64_t> ran;
  std::vector<Slot> hosts{{"a", 2}, {"b", 3}};
  schedule(
      order, hosts,
      [&](const Job& j, std::size_t h) {
        {
          std::lock_guard l(mu);
          used[h] += j.vcpus;
          EXPECT_LE(used[h], hosts[h].budget);
          peak = std::max(peak, used[0] + used[1]);
          ran.insert(j.boot);
        }
        std::this_thread::sleep_for(40ms);
        std::lock_guard l(mu);
        used[h] -= j.vcpus;
      },
      [] { return false; });
  EXPECT_EQ(ran.size(), order.size());
  for (auto& j : order) EXPECT_EQ(ran.count(j.boot), 1u);
  EXPECT_GE(peak, 4u);  // both hosts busy at once
}

TEST(Schedule, OversizedJobRunsAloneOnLargestHost) {
  std::vector<Job> order{{1, 0, 0, 1}, {2, 1, 0, 8}, {3, 2, 0, 1}};
  std::atomic<int> running{0};
  std::atomic<bool> big_alone{true};
  schedule(
      order, {{"a", 2}},
      [&](const Job& j, std::size_t) {
        int now = ++running;
        if (j.vcpus == 8 && now != 1) big_alone = false;
        std::this_thread::sleep_for(30ms);
        if (j.vcpus == 8 && running.load() != 1) big_alone = false;
        --running;
      },
      [] { return false; });
  EXPECT_TRUE(big_alone);
}

TEST(Schedule, StopEndsStartingNewJobs) {
  std::atomic<int> started{0};
  std::atomic<bool> stop{false};
  schedule(
      jobs(10, 1), {{"a", 1}},
      [&](const Job&, std::size_t) {
        if (++started == 2) stop = true;
        std::this_thread::sleep_for(20ms);
      },
      [&] { return stop.load(); });
  EXPECT_EQ(started.load(), 2);
}

TEST(Schedule, FirstErrorIsRethrownAfterRunningJobsEnd) {
  std::atomic<int> started{0};
  EXPECT_THROW(schedule(
                   jobs(6, 1), {{"a", 1}},
                   [&](const Job& j, std::size_t) {
                     ++started;
                     if (j.boot == 2) throw std::runtime_error("store is gone");
                   },
                   [] { return false; }),
               std::runtime_error);
  EXPECT_LT(started.load(), 6);
}
