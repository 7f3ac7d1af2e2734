#include "run/scheduler.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <list>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

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

void schedule(const std::vector<Job>& order, const std::vector<Slot>& hosts,
              const std::function<void(const Job&, std::size_t)>& work,
              const std::function<bool()>& stop) {
  if (hosts.empty()) throw std::invalid_argument("schedule: no hosts");
  std::size_t largest = 0;
  for (std::size_t h = 0; h < hosts.size(); ++h)
    if (hosts[h].budget > hosts[largest].budget) largest = h;

  std::mutex mu;
  std::condition_variable cv;
  std::vector<unsigned> used(hosts.size(), 0);
  std::list<Job> pending(order.begin(), order.end());
  std::vector<std::thread> threads;
  std::exception_ptr error;
  std::size_t running = 0;

  std::unique_lock lock(mu);
  for (;;) {
    bool started = false;
    if (!error && !stop()) {
      for (auto it = pending.begin(); it != pending.end(); ++it) {
        std::size_t host = hosts.size();
        for (std::size_t h = 0; h < hosts.size() && host == hosts.size(); ++h)
          if (used[h] + it->vcpus <= hosts[h].budget) host = h;
        if (host == hosts.size() && it->vcpus > hosts[largest].budget && used[largest] == 0)
          host = largest;  // oversized: alone on the biggest host
        if (host == hosts.size()) continue;
        Job job = *it;
        pending.erase(it);
        used[host] += job.vcpus;
        ++running;
        threads.emplace_back([&, job, host] {
          std::exception_ptr e;
          try {
            work(job, host);
          } catch (...) {
            e = std::current_exception();
          }
          std::lock_guard l(mu);
          used[host] -= job.vcpus;
          --running;
          if (e && !error) error = e;
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
    if (running == 0 && (pending.empty() || error || stop())) break;
  }
  lock.unlock();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace rlab::run
