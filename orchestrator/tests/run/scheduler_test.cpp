// Scheduling: seeded per-repeat shuffle, vCPU budgets never exceeded, stop and errors, and
// draining failed hosts (a fake `work` plays the hosts).
#include "run/scheduler.hpp"

#include <gtest/gtest.h>

#include <map>

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

// The cells of `order`, round by round: "01 10 01".
std::string rounds_of(const std::vector<Job>& order) {
  std::string out;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && order[i].repeat != order[i - 1].repeat) out += ' ';
    out += std::to_string(order[i].cell);
  }
  return out;
}

TEST(InterleavedOrder, TwoCellsAlternateAndThreeRotate) {
  EXPECT_EQ(rounds_of(interleaved_order(jobs(2, 4))), "01 10 01 10");
  EXPECT_EQ(rounds_of(interleaved_order(jobs(3, 4))), "012 120 201 012");
  // The input's order does not matter.
  auto shuffled = shuffled_order(jobs(3, 3), 5);
  EXPECT_EQ(rounds_of(interleaved_order(shuffled)), "012 120 201");
}

TEST(InterleavedOrder, GroupsStayTogetherAndTheirMembersAlternate) {
  // Three commits x two cells (a gap bisection's batch): cells 2k and 2k+1 are commit k.
  EXPECT_EQ(rounds_of(interleaved_order(jobs(6, 3), 2)), "012345 325410 450123");
  // A commit with fewer repeats leaves its later rounds.
  auto few = jobs(4, 3);
  few.erase(std::remove_if(few.begin(), few.end(), [](const Job& j) { return j.cell >= 2 && j.repeat == 2; }), few.end());
  EXPECT_EQ(rounds_of(interleaved_order(few, 2)), "0123 3210 01");
  EXPECT_THROW(interleaved_order(jobs(2, 1), 0), std::invalid_argument);
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
      [&](const Job& j, std::size_t h, const Release&) {
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
        return Attempt{};
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
      [&](const Job& j, std::size_t, const Release&) {
        int now = ++running;
        if (j.vcpus == 8 && now != 1) big_alone = false;
        std::this_thread::sleep_for(30ms);
        if (j.vcpus == 8 && running.load() != 1) big_alone = false;
        --running;
        return Attempt{};
      },
      [] { return false; });
  EXPECT_TRUE(big_alone);
}

TEST(Schedule, StopEndsStartingNewJobs) {
  std::atomic<int> started{0};
  std::atomic<bool> stop{false};
  schedule(
      jobs(10, 1), {{"a", 1}},
      [&](const Job&, std::size_t, const Release&) {
        if (++started == 2) stop = true;
        std::this_thread::sleep_for(20ms);
        return Attempt{};
      },
      [&] { return stop.load(); });
  EXPECT_EQ(started.load(), 2);
}

TEST(Schedule, FirstErrorIsRethrownAfterRunningJobsEnd) {
  std::atomic<int> started{0};
  EXPECT_THROW(schedule(
                   jobs(6, 1), {{"a", 1}},
                   [&](const Job& j, std::size_t, const Release&) {
                     ++started;
                     if (j.boot == 2) throw std::runtime_error("store is gone");
                     return Attempt{};
                   },
                   [] { return false; }),
               std::runtime_error);
  EXPECT_LT(started.load(), 6);
}

namespace {
/// What a fake `work` saw: every attempt as (boot, host, moves), in start order.
struct Attempts {
  std::mutex mu;
  std::vector<std::tuple<std::int64_t, std::size_t, unsigned>> seen;
  void add(const Job& j, std::size_t h) {
    std::lock_guard l(mu);
    seen.emplace_back(j.boot, h, j.moves);
  }
  std::size_t on_host(std::size_t h) {
    std::lock_guard l(mu);
    return std::count_if(seen.begin(), seen.end(), [&](auto& t) { return std::get<1>(t) == h; });
  }
};
}  // namespace

TEST(Schedule, FailedHostIsDrainedAndItsJobMovesToAnotherHost) {
  Attempts at;
  std::mutex mu;
  std::multiset<std::int64_t> done;
  std::atomic<bool> a_failed{false};
  auto report = schedule(
      jobs(6, 1), {{"qemu+tcp://a/system", 1}, {"qemu:///system", 1}},
      [&](const Job& j, std::size_t h, const Release&) {
        at.add(j, h);
        std::this_thread::sleep_for(20ms);
        // Host b holds its jobs until a has started its second (at most 10 s), so that a
        // starved thread of host a on a loaded machine cannot leave it a single job.
        for (int i = 0; h == 1 && i < 1000 && at.on_host(0) < 2; ++i) std::this_thread::sleep_for(10ms);
        if (h == 0) {  // host a answers once, then its daemon is gone
          if (a_failed.exchange(true)) return Attempt{true, "libvirtd on a stopped answering"};
        }
        std::lock_guard l(mu);
        done.insert(j.boot);
        return Attempt{};
      },
      [] { return false; });
  // Every job done exactly once, host a drained after its second job, with the reason.
  EXPECT_EQ(done.size(), 6u);
  for (std::int64_t b = 1; b <= 6; ++b) EXPECT_EQ(done.count(b), 1u) << "boot " << b;
  ASSERT_EQ(report.drained.size(), 1u);
  EXPECT_EQ(report.drained[0].host, 0u);
  EXPECT_EQ(report.drained[0].reason, "libvirtd on a stopped answering");
  EXPECT_EQ(at.on_host(0), 2u) << "no job starts on a drained host";
  EXPECT_FALSE(report.all_drained);
  EXPECT_TRUE(report.abandoned.empty());
  EXPECT_TRUE(report.unstarted.empty());
  // The moved job (a's second, failed one: a runs one job at a time) ran again on host b,
  // marked as moved once.
  std::vector<std::int64_t> on_a;
  for (auto& [b, h, m] : at.seen)
    if (h == 0) on_a.push_back(b);
  ASSERT_EQ(on_a.size(), 2u);
  auto again = std::find_if(at.seen.begin(), at.seen.end(),
                            [&](auto& t) { return std::get<0>(t) == on_a[1] && std::get<1>(t) == 1; });
  ASSERT_NE(again, at.seen.end());
  EXPECT_EQ(std::get<2>(*again), 1u);
}

TEST(Schedule, MovedJobGoesAheadOfTheQueue) {
  Attempts at;
  schedule(
      jobs(5, 1), {{"a", 1}, {"b", 1}},
      [&](const Job& j, std::size_t h, const Release&) {
        at.add(j, h);
        if (h == 0) {
          std::this_thread::sleep_for(10ms);
          return Attempt{true, "gone"};
        }
        std::this_thread::sleep_for(50ms);  // b is still busy when a's failure comes back
        return Attempt{};
      },
      [] { return false; });
  // Job 1 failed on a while job 2 ran on b; job 1 is the next one b runs, before 3, 4, 5.
  // (Each host runs one job at a time, so its attempts are recorded in its own run order.)
  std::vector<std::int64_t> on_a, on_b;
  for (auto& [b, h, m] : at.seen) (h == 0 ? on_a : on_b).push_back(b);
  EXPECT_EQ(on_a, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(on_b, (std::vector<std::int64_t>{2, 1, 3, 4, 5}));
}

TEST(Schedule, EveryHostDrainedStopsStartingAndKeepsTheRestUnstarted) {
  Attempts at;
  auto order = jobs(7, 1);
  auto report = schedule(
      order, {{"a", 1}, {"b", 2}},
      [&](const Job& j, std::size_t h, const Release&) {
        at.add(j, h);
        std::this_thread::sleep_for(10ms);
        return Attempt{true, h == 0 ? "cannot create domains" : "connection reset"};
      },
      [] { return false; });
  EXPECT_TRUE(report.all_drained);
  ASSERT_EQ(report.drained.size(), 2u);
  // No job started after both hosts were drained: at most the three slots' worth of attempts
  // that were running, and every job is accounted for once as abandoned, moved-but-unstarted,
  // or never started.
  EXPECT_LE(at.seen.size(), 3u);
  std::multiset<std::int64_t> left;
  for (auto& j : report.abandoned) left.insert(j.boot);
  for (auto& j : report.unstarted) left.insert(j.boot);
  EXPECT_EQ(left.size(), order.size());
  for (auto& j : order) EXPECT_EQ(left.count(j.boot), 1u) << "boot " << j.boot;
}

TEST(Schedule, MovesAreBoundedThenTheJobIsAbandoned) {
  Attempts at;
  std::vector<Slot> hosts{{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"e", 1}};
  auto report = schedule(
      {{1, 0, 0, 1}}, hosts,
      [&](const Job& j, std::size_t h, const Release&) {
        at.add(j, h);
        return Attempt{true, "refused"};
      },
      [] { return false; }, /*max_moves=*/2);
  // First attempt plus two moves; then abandoned although hosts d and e are still live.
  ASSERT_EQ(at.seen.size(), 3u);
  std::set<std::size_t> tried;
  for (auto& t : at.seen) tried.insert(std::get<1>(t));
  EXPECT_EQ(tried.size(), 3u) << "each attempt on another host";
  ASSERT_EQ(report.abandoned.size(), 1u);
  EXPECT_EQ(report.abandoned[0].moves, 2u);
  EXPECT_EQ(report.drained.size(), 3u);
  EXPECT_FALSE(report.all_drained);
}

TEST(Schedule, OversizedJobMovesToTheLargestLiveHost) {
  Attempts at;
  auto report = schedule(
      {{1, 0, 0, 8}}, {{"small", 2}, {"big", 4}},
      [&](const Job& j, std::size_t h, const Release&) {
        at.add(j, h);
        return h == 1 ? Attempt{true, "big is gone"} : Attempt{};
      },
      [] { return false; });
  ASSERT_EQ(at.seen.size(), 2u);
  EXPECT_EQ(std::get<1>(at.seen[0]), 1u) << "first on the largest host";
  EXPECT_EQ(std::get<1>(at.seen[1]), 0u) << "then alone on the largest one left";
  EXPECT_TRUE(report.abandoned.empty());
}

TEST(Schedule, JobsRunOnlyOnHostsThatCanRunThem) {
  // Cell 0 only on host 1, cell 1 anywhere; host 0 has the larger budget.
  const std::vector<Slot> hosts{{"a", 4}, {"b", 1}};
  std::mutex mu;
  std::map<std::size_t, std::set<std::size_t>> where;  // cell -> hosts used
  auto out = schedule(jobs(2, 3), hosts,
                      [&](const Job& j, std::size_t h, const Release&) {
                        std::lock_guard l(mu);
                        where[j.cell].insert(h);
                        return Attempt{};
                      },
                      [] { return false; }, 2,
                      [](const Job& j, std::size_t h) { return j.cell != 0 || h == 1; });
  EXPECT_EQ(where[0], (std::set<std::size_t>{1}));
  EXPECT_TRUE(out.unstarted.empty());
}

TEST(Schedule, AJobWhoseOnlyHostIsDrainedStaysUnstarted) {
  const std::vector<Slot> hosts{{"a", 1}, {"b", 1}};
  // Host 1 fails its first boot; cell 0 may only run there, cell 1 anywhere.
  auto out = schedule(jobs(2, 2), hosts,
                      [&](const Job&, std::size_t h, const Release&) {
                        if (h == 1) return Attempt{true, "gone"};
                        return Attempt{};
                      },
                      [] { return false; }, 2,
                      [](const Job& j, std::size_t h) { return j.cell != 0 || h == 1; });
  ASSERT_EQ(out.drained.size(), 1u);
  EXPECT_EQ(out.drained[0].host, 1u);
  EXPECT_FALSE(out.all_drained);
  std::size_t cell0 = 0;
  for (const auto& j : out.unstarted) cell0 += j.cell == 0;
  for (const auto& j : out.abandoned) cell0 += j.cell == 0;
  EXPECT_EQ(cell0, 2u) << "both boots of cell 0 stay out: abandoned after its host failed, or never started";
  for (const auto& j : out.unstarted) EXPECT_EQ(j.cell, 0u) << "cell 1 ran on host 0";
}

// A job that releases its vCPUs early lets the next job start while it still runs; a second
// release, and the scheduler's own at the work's end, change nothing.
TEST(Schedule, ReleaseStartsTheNextJobBeforeTheWorkEnds) {
  std::atomic<int> running{0}, peak{0};
  std::atomic<bool> budget_exceeded{false};
  std::atomic<int> measuring{0};
  schedule(
      jobs(4, 1), {{"a", 1}},
      [&](const Job&, std::size_t, const Release& release) {
        if (++measuring > 1) budget_exceeded = true;  // before release, the budget holds
        int now = ++running;
        int p = peak.load();
        while (now > p && !peak.compare_exchange_weak(p, now)) {
        }
        std::this_thread::sleep_for(20ms);
        --measuring;
        release();
        release();
        std::this_thread::sleep_for(60ms);  // "powering off": the next job runs meanwhile
        --running;
        return Attempt{};
      },
      [] { return false; });
  EXPECT_FALSE(budget_exceeded);
  EXPECT_GE(peak.load(), 2) << "jobs in their tails beside the one measuring";
}
