#pragma once
// Which boot runs when and where: the order is shuffled per repeat (seeded, so a run can be
// replayed and resumed in the same order), and boots run concurrently while the vCPUs of the
// running boots fit each host's vCPU budget.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rlab::run {

/// One schedulable unit: a boot (cell x repeat) needing `vcpus` host vCPUs.
struct Job {
  std::int64_t boot = 0;   ///< store::BootId
  std::size_t cell = 0;    ///< index into the run's cells
  unsigned repeat = 0;
  unsigned vcpus = 1;
};

/// A host's capacity.
struct Slot {
  std::string uri;
  unsigned budget = 1;     ///< vCPUs that may run at once, >= 1
};

/// The run order: all boots of repeat 0 first, then repeat 1, ...; within a repeat the order is
/// a Fisher-Yates shuffle with std::mt19937_64 seeded by `seed` + repeat (the same seed gives
/// the same order on every machine).
std::vector<Job> shuffled_order(std::vector<Job> jobs, std::uint64_t seed);

/// Runs `work(job, host index)` for every job, each in its own thread. The next job started is
/// the first one in `order` whose vCPUs fit the free budget of some host (hosts tried in
/// order); a job larger than every budget runs alone on the host with the largest budget.
/// Stops starting jobs once `stop()` returns true and returns after the running ones finish.
/// Exceptions thrown by `work` are rethrown here (the first one) after all running jobs end;
/// no further jobs start after one.
void schedule(const std::vector<Job>& order, const std::vector<Slot>& hosts,
              const std::function<void(const Job&, std::size_t host)>& work,
              const std::function<bool()>& stop);

}  // namespace rlab::run
