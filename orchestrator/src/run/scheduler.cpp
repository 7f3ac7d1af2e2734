#include "run/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <list>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>

namespace rlab::run {

std::vector<Job> interleaved_order(std::vector<Job> jobs, std::size_t group_size) {
  if (group_size == 0) throw std::invalid_argument("interleaved_order: group size 0");
  std::size_t groups = 0;
  for (const auto& j : jobs) groups = std::max(groups, j.cell / group_size + 1);
  // A job's place in its round: its group's distance from the round's first group, then its
  // member's from the round's first member.
  const auto place = [&](const Job& j) {
    const std::size_t g = j.cell / group_size, m = j.cell % group_size;
    return std::pair{(g + groups - j.repeat % groups) % groups, (m + group_size - j.repeat % group_size) % group_size};
  };
  std::stable_sort(jobs.begin(), jobs.end(), [&](const Job& a, const Job& b) {
    return a.repeat != b.repeat ? a.repeat < b.repeat : place(a) < place(b);
  });
  return jobs;
}

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

namespace {

using Work = std::function<Attempt(const Job&, std::size_t, const Release&)>;

/// The state of one schedule() call, shared by its threads under `mu`: the hosts' budgets in
/// use, drained hosts, jobs not yet started, and how the schedule went.
class Schedule {
 public:
  Schedule(const std::vector<Job>& order, const std::vector<Slot>& hosts, unsigned max_moves,
           const std::function<bool(const Job&, std::size_t)>& can_run)
      : hosts_(hosts), max_moves_(max_moves), can_run_(can_run), used_(hosts.size(), 0),
        drained_(hosts.size(), false), pending_(order.begin(), order.end()) {}

  /// Starts jobs while they fit and nothing stops it, waits for completions, until no job runs
  /// and none can start. Rethrows the first exception of a work.
  ScheduleOutcome run(const Work& work, const std::function<bool()>& stop) {
    std::unique_lock lock(mu_);
    for (;;) {
      if (!error_ && !stop() && !all_drained() && start_next(work)) continue;
      if (running_ == 0) break;
      cv_.wait_for(lock, std::chrono::milliseconds(200));  // completions, and now and then stop()
    }
    outcome_.unstarted.assign(pending_.begin(), pending_.end());
    outcome_.all_drained = all_drained();
    lock.unlock();
    for (auto& t : threads_) t.join();
    if (error_) std::rethrow_exception(error_);
    return outcome_;
  }

 private:
  bool eligible(const Job& j, std::size_t h) const { return !drained_[h] && (!can_run_ || can_run_(j, h)); }

  /// The live host with the largest budget that can run `j` (any job when null); hosts_.size()
  /// when there is none.
  std::size_t largest_live(const Job* j) const {
    std::size_t best = hosts_.size();
    for (std::size_t h = 0; h < hosts_.size(); ++h)
      if (!drained_[h] && (!j || eligible(*j, h)) && (best == hosts_.size() || hosts_[h].budget > hosts_[best].budget))
        best = h;
    return best;
  }
  bool all_drained() const { return largest_live(nullptr) == hosts_.size(); }

  /// The host `j` starts on now: the first live one whose free budget fits it, else (oversized)
  /// the largest live one when it is idle; hosts_.size() when it cannot start now.
  std::size_t place(const Job& j) const {
    const std::size_t largest = largest_live(&j);
    if (largest == hosts_.size()) return hosts_.size();  // no live host can run it: stays unstarted
    for (std::size_t h = 0; h < hosts_.size(); ++h)
      if (eligible(j, h) && used_[h] + j.vcpus <= hosts_[h].budget) return h;
    return j.vcpus > hosts_[largest].budget && used_[largest] == 0 ? largest : hosts_.size();
  }

  /// Starts the first pending job that can start now in its own thread; false when none can.
  bool start_next(const Work& work) {
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      const std::size_t host = place(*it);
      if (host == hosts_.size()) continue;
      Job job = *it;
      pending_.erase(it);
      used_[host] += job.vcpus;
      ++running_;
      threads_.emplace_back([this, &work, job, host] { run_job(work, job, host); });
      return true;
    }
    return false;
  }

  /// One job's thread: its work, then its budget back, and a host failure handled.
  void run_job(const Work& work, const Job& job, std::size_t host) {
    bool released = false;  // guarded by mu_
    const Release release = [&] {
      std::lock_guard l(mu_);
      if (std::exchange(released, true)) return;
      used_[host] -= job.vcpus;
      cv_.notify_all();
    };
    std::exception_ptr e;
    Attempt a;
    try {
      a = work(job, host, release);
    } catch (...) {
      e = std::current_exception();
    }
    std::lock_guard l(mu_);
    if (!std::exchange(released, true)) used_[host] -= job.vcpus;
    --running_;
    if (e && !error_) error_ = e;
    if (!e && a.host_failed) host_failed(job, host, a.reason);
    cv_.notify_all();
  }

  /// Drains `host` (the first failure's reason kept) and queues `job` again ahead of the rest,
  /// or abandons it when it moved too often or no live host can take it. Holds mu_.
  void host_failed(const Job& job, std::size_t host, const std::string& reason) {
    if (!drained_[host]) {
      drained_[host] = true;
      outcome_.drained.push_back({host, reason});
    }
    Job again = job;
    ++again.moves;
    if (again.moves > max_moves_ || largest_live(&again) == hosts_.size())
      outcome_.abandoned.push_back(job);
    else
      pending_.push_front(again);  // ahead of the rest: it was due before them
  }

  const std::vector<Slot>& hosts_;
  const unsigned max_moves_;
  const std::function<bool(const Job&, std::size_t)>& can_run_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<unsigned> used_;
  std::vector<bool> drained_;
  std::list<Job> pending_;
  std::vector<std::thread> threads_;
  std::exception_ptr error_;
  std::size_t running_ = 0;
  ScheduleOutcome outcome_;
};

}  // namespace

ScheduleOutcome schedule(const std::vector<Job>& order, const std::vector<Slot>& hosts, const Work& work,
                        const std::function<bool()>& stop, unsigned max_moves,
                        const std::function<bool(const Job&, std::size_t)>& can_run) {
  if (hosts.empty()) throw std::invalid_argument("schedule: no hosts");
  return Schedule(order, hosts, max_moves, can_run).run(work, stop);
}

}  // namespace rlab::run
