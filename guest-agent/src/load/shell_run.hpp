#pragma once
// The shell1/shell8 load as UnixBench runs it (docs/agent.md "shell1 as UnixBench runs it"):
// the files go to <workdir>/pgms (scripts) and <workdir>/testdir (the input, and the cwd of
// every looper; with layout "per-copy", testdir/copy<i> per looper). Before every pass the
// agent settles (sync, sleep pause_s/3, sync, sleep 2*pause_s/3), then runs `copies` loopers:
// - runner "rlab": each looper runs `/bin/sh pgms/loop.sh <scripts_per_loop>` back to back; a
//   loop counts when it exits 0 inside the pass window (run.duration_s).
// - runner "unixbench": each looper is UnixBench's own `pgms/looper <duration_s> pgms/multi.sh
//   <scripts_per_loop>` with its stderr on a pipe; the pass's loops are the sum of the
//   loopers' COUNT lines.
// Either way the pass's time is UnixBench's: the copies' mean elapsed time, each copy's until
// its last, uncounted loop has ended (runner "unixbench": EOF on its pipe); window_s is the
// counting window alone.
// Score from protocol::unixbench_score.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "attribution/attribution.hpp"
#include "load/children.hpp"
#include "load/placement.hpp"
#include "rlab/protocol/messages.hpp"
#include "counters/sampler.hpp"

namespace rlab::agent {

/// The default per-loop latency histogram bounds, seconds.
const std::vector<double>& default_latency_bounds();

/// Adds one latency to a histogram whose bounds_s are set and counts sized bounds + 1.
void histogram_add(protocol::Histogram& h, double seconds);

/// The loop count of a UnixBench looper's report line `COUNT|<loops>|<timebase>|<unit>` found
/// in `output` (its stderr); nullopt when there is none.
std::optional<std::uint64_t> parse_looper_count(std::string_view output);

class ShellRun {
 public:
  /// Receives every message of the run (sample, pass, result, error) in order.
  using Emit = std::function<void(protocol::AgentMessage)>;
  /// Called once after the result (or error) was emitted.
  using Done = std::function<void()>;

  ShellRun(boost::asio::io_context& io, Children& children, protocol::Run params, Emit emit, Done done);
  ~ShellRun();

  /// Writes the load's files and starts the first pass's settling. Throws std::runtime_error
  /// naming the path when the files cannot be written (or, runner "unixbench", read).
  void start();
  /// Kills running loops; no further messages or callbacks.
  void abort();

 private:
  struct Looper;
  using Clock = std::chrono::steady_clock;
  void write_files();
  void settle(int step);
  void begin_pass();
  void start_loop(Looper& l);
  void loop_exited(Looper& l, int status);
  void start_looper(Looper& l);
  void read_looper(Looper& l);
  void looper_exited(Looper& l, int status);
  /// Runner "unixbench": the looper was reaped and its pipe is at EOF; counts its COUNT line.
  void looper_reported(Looper& l);
  void note_failure(const Looper& l, const std::string& what);
  /// Sends a `sample` of the pass so far at `t_s` seconds into the window with `counters`.
  void emit_sample(double t_s, protocol::Counters counters);
  /// Arms the next periodic sample (sample_interval_s > 0).
  void on_sample();
  void on_window();
  void end_window();
  void maybe_finish_pass();
  void finish_pass();
  /// Writes 3 to /proc/sys/vm/drop_caches; "" on success, else what failed (path, errno text).
  static std::string drop_caches();
  void finish_run();
  double since(Clock::time_point t) const;
  bool unixbench() const { return p_.runner == protocol::Runner::unixbench; }
  /// Whether a process of some looper's process group still runs (UnixBench's looper exits
  /// at its alarm and leaves the loop it was running to finish on its own).
  bool groups_alive() const;

  boost::asio::io_context& io_;
  Children& children_;
  protocol::Run p_;
  Emit emit_;
  Done done_;
  std::vector<std::unique_ptr<Looper>> loopers_;
  std::vector<std::string> env_;
  std::filesystem::path pgms_, testdir_;
  std::unique_ptr<Sampler> sampler_;
  std::unique_ptr<Attribution> attribution_;  ///< when run.attribution is not "off"
  std::optional<PlacementScan> placement_;  ///< XFS only
  boost::asio::steady_timer window_timer_, sample_timer_, pause_timer_, kill_timer_;
  std::shared_ptr<bool> alive_;

  // state of the current pass
  std::uint32_t pass_ = 0;
  bool in_window_ = false;
  bool finishing_ = false;
  bool caches_dropped_ = false;  ///< dropped while settling for this pass (goes into its report)
  Clock::time_point t0_, t_end_;
  std::uint64_t sample_no_ = 0;
  protocol::PassReport report_;
  Snapshot pass_start_, last_sample_, pass_end_, scratch_;
  std::vector<protocol::PassReport> done_passes_;
  std::uint64_t total_failures_ = 0;
  std::uint64_t rss_seen_kib_ = 0;  ///< largest exact RSS seen at a pass end (sysinfo.hpp)
  double cpu_at_start_ = 0;         ///< thread_cpu_s() when the run started (result.agent_cpu_s)
  std::vector<std::string> failure_examples_;
};

}  // namespace rlab::agent
