#pragma once
// Which boot runs when and where: the order is shuffled per repeat (seeded, so a run can be
// replayed and resumed in the same order), and boots run concurrently while the vCPUs of the
// running boots fit each host's vCPU budget. A host that fails (as opposed to a cell) is
// drained for the rest of the schedule and its boot moves to another host.
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
  unsigned moves = 0;      ///< times this boot was moved off a failed host so far
};

/// A host's capacity.
struct Slot {
  std::string uri;
  unsigned budget = 1;     ///< vCPUs that may run at once, >= 1
};

/// How one attempt of a job ended, as far as scheduling cares.
struct Attempt {
  /// The host failed, not the cell (it stopped answering, or it could not create the domain):
  /// the host is drained and the job goes back to the front of the queue for another host.
  bool host_failed = false;
  std::string reason;      ///< why the host failed (stored with the drained host), when host_failed
};

/// A host taken out of a schedule.
struct DrainedHost {
  std::size_t host = 0;    ///< index into the hosts given to schedule()
  std::string reason;      ///< the first failure that drained it
};

/// What a schedule did besides running jobs.
struct ScheduleOutcome {
  std::vector<DrainedHost> drained;  ///< in the order they were drained
  /// Jobs whose last attempt failed for the host and that were not moved again (their
  /// `moves` reached the limit, or no host was left); their failure is the work's to record.
  std::vector<Job> abandoned;
  /// Jobs never started because every host that could run them was drained (or stop() was
  /// true); still pending.
  std::vector<Job> unstarted;
  /// Whether every host ended drained.
  bool all_drained = false;
};

/// Frees the calling job's vCPUs in its host's budget before its work returns, so that the
/// next job can start (the first call; later ones, and the scheduler's own at the work's end,
/// do nothing): e.g. a boot whose result is stored and whose guest only powers off.
using Release = std::function<void()>;

/// The run order: all boots of repeat 0 first, then repeat 1, ...; within a repeat the order is
/// a Fisher-Yates shuffle with std::mt19937_64 seeded by `seed` + repeat (the same seed gives
/// the same order on every machine).
std::vector<Job> shuffled_order(std::vector<Job> jobs, std::uint64_t seed);

/// The interleaved order, the one rule for boots measured side by side (`rlab noise`'s cells,
/// a bisection batch's commits): repeat by repeat (round r: every job of repeat r); the cells
/// form groups of `group_size` consecutive indexes (a gap bisection's two cells of one commit;
/// 1 otherwise), round r starts from group r mod n and within each group from member
/// r mod group_size, so two groups go A B, B A, A B, ... and three G X B, X B G, B G X, and a
/// linear drift of the host weighs on every cell alike. Jobs whose cell has no repeat r simply
/// are not there. `group_size` >= 1; O(J log J).
std::vector<Job> interleaved_order(std::vector<Job> jobs, std::size_t group_size = 1);

/// Runs `work(job, host index, release)` for every job, each in its own thread; the job holds
/// its vCPUs of the host's budget until it calls `release` or returns. The next job started is
/// the first one in `order` whose vCPUs fit the free budget of some host that is not drained
/// (hosts tried in order); a job larger than every budget runs alone on the live host with the
/// largest budget.
///
/// When `work` answers Attempt{host_failed}, that host gets no further jobs (it is drained;
/// jobs already running on it finish or fail on their own) and the job is queued again ahead
/// of the others with `moves` + 1, unless it has already been moved `max_moves` times, which
/// makes it abandoned. Once every host is drained nothing more starts; the schedule returns
/// after the running jobs end, with the rest in `unstarted`.
///
/// `can_run(job, host)` (when given) says which hosts a job may run on (a host that cannot
/// run the cell: run/host_fit.hpp); a job is only started, moved and sized against those. A
/// job none of whose hosts is live any more is not started (it ends in `unstarted`).
///
/// Stops starting jobs once `stop()` returns true and returns after the running ones finish.
/// Exceptions thrown by `work` are rethrown here (the first one) after all running jobs end;
/// no further jobs start after one. Throws std::invalid_argument for an empty host list.
ScheduleOutcome schedule(const std::vector<Job>& order, const std::vector<Slot>& hosts,
                        const std::function<Attempt(const Job&, std::size_t host, const Release& release)>& work,
                        const std::function<bool()>& stop, unsigned max_moves = 2,
                        const std::function<bool(const Job&, std::size_t host)>& can_run = {});

}  // namespace rlab::run
