#include "run/scheduler.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <list>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>

namespace rlab::run {

std::vector<Job> shuffled_order(std::vector<Job> jobs, std::uint64_t seed) {
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const Job& a, const Job& b) { return a.repeat < b.repeat; });
  auto begin = jobs.begin();
  while (begin != jobs.end()) {
    auto end = std::find_if(begin, jobs.end(), [&](const Job& j) { return j.repeat != begin->repeat; });
    std::mt19937_64 rng(seed + begin->repeat);
    // Fisher-Yates with our own index draw: std::shuffle's use of the engine is
    // implementation-defined, this is not.
    for (auto n = end - begin; n > 1; --n) {
      auto k = static_cast<std::ptrdiff_t>(rng() % static_cast<std::uint64_t>(n));
      std::iter_swap(begin + (n - 1), begin + k);
    }
    begin = end;
  }
  return jobs;
}

ScheduleOutcome schedule(const std::vector<Job>& order, const std::vector<Slot>& hosts,
                        const std::function<Attempt(const Job&, std::size_t, const Release&)>& work,
                        const std::function<bool()>& stop, unsigned max_moves,
                        const std::function<bool(const Job&, std::size_t)>& can_run) {
  if (hosts.empty()) throw std::invalid_argument("schedule: no hosts");
  auto eligible = [&](const Job& j, std::size_t h) { return !can_run || can_run(j, h); };

  std::mutex mu;
  std::condition_variable cv;
  std::vector<unsigned> used(hosts.size(), 0);
  std::vector<bool> drained(hosts.size(), false);
  std::list<Job> pending(order.begin(), order.end());
  std::vector<std::thread> threads;
  std::exception_ptr error;
  std::size_t running = 0;
  ScheduleOutcome outcome;

  // The live host with the largest budget that can run `j` (any job when null; hosts.size()
  // when there is none).
  auto largest_live = [&](const Job* j) {
    std::size_t best = hosts.size();
    for (std::size_t h = 0; h < hosts.size(); ++h)
      if (!drained[h] && (!j || eligible(*j, h)) && (best == hosts.size() || hosts[h].budget > hosts[best].budget))
        best = h;
    return best;
  };
  auto all_drained = [&] { return largest_live(nullptr) == hosts.size(); };

  std::unique_lock lock(mu);
  for (;;) {
    bool started = false;
    if (!error && !stop() && !all_drained()) {
      for (auto it = pending.begin(); it != pending.end(); ++it) {
        const std::size_t largest = largest_live(&*it);
        if (largest == hosts.size()) continue;  // no live host can run it: stays unstarted
        std::size_t host = hosts.size();
        for (std::size_t h = 0; h < hosts.size() && host == hosts.size(); ++h)
          if (!drained[h] && eligible(*it, h) && used[h] + it->vcpus <= hosts[h].budget) host = h;
        if (host == hosts.size() && it->vcpus > hosts[largest].budget && used[largest] == 0)
          host = largest;  // oversized: alone on the biggest live host that can run it
        if (host == hosts.size()) continue;
        Job job = *it;
        pending.erase(it);
        used[host] += job.vcpus;
        ++running;
        threads.emplace_back([&, job, host] {
          bool released = false;  // guarded by mu
          const Release release = [&] {
            std::lock_guard l(mu);
            if (std::exchange(released, true)) return;
            used[host] -= job.vcpus;
            cv.notify_all();
          };
          std::exception_ptr e;
          Attempt a;
          try {
            a = work(job, host, release);
          } catch (...) {
            e = std::current_exception();
          }
          std::lock_guard l(mu);
          if (!std::exchange(released, true)) used[host] -= job.vcpus;
          --running;
          if (e && !error) error = e;
          if (!e && a.host_failed) {
            if (!drained[host]) {
              drained[host] = true;
              outcome.drained.push_back({host, a.reason});
            }
            Job again = job;
            ++again.moves;
            if (again.moves > max_moves || largest_live(&again) == hosts.size())
              outcome.abandoned.push_back(job);
            else
              pending.push_front(again);  // ahead of the rest: it was due before them
          }
          cv.notify_all();
        });
        started = true;
        break;
      }
    }
    if (started) continue;
    if (running == 0) break;
    // Wake on completions, and now and then to notice stop().
    cv.wait_for(lock, std::chrono::milliseconds(200));
  }
  outcome.unstarted.assign(pending.begin(), pending.end());
  outcome.all_drained = all_drained();
  lock.unlock();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  return outcome;
}

}  // namespace rlab::run
