#pragma once
// The shell1/shell8 load with UnixBench semantics (docs/agent.md): `copies` loopers, each
// running loops back to back in its own directory under workdir; a loop is `/bin/sh loop.sh
// <scripts_per_loop>`, counted only when it exits 0 inside the pass window; passes of
// duration_s separated by sync + pause_s; score from protocol::unixbench_score.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "children.hpp"
#include "rlab/protocol/messages.hpp"
#include "sampler.hpp"

namespace rlab::agent {

/// The default per-loop latency histogram bounds, seconds.
const std::vector<double>& default_latency_bounds();

/// Adds one latency to a histogram whose bounds_s are set and counts sized bounds + 1.
void histogram_add(protocol::Histogram& h, double seconds);

class ShellRun {
 public:
  /// Receives every message of the run (sample, pass, result, error) in order.
  using Emit = std::function<void(protocol::AgentMessage)>;
  /// Called once after the result (or error) was emitted.
  using Done = std::function<void()>;

  ShellRun(boost::asio::io_context& io, Children& children, protocol::Run params, Emit emit, Done done);
  ~ShellRun();

  /// Writes the work directories and starts pass 0. Throws std::runtime_error naming the
  /// path when the work directory cannot be prepared.
  void start();
  /// Kills running loops; no further messages or callbacks.
  void abort();

 private:
  struct Looper;
  using Clock = std::chrono::steady_clock;
  void begin_pass();
  void start_loop(Looper& l);
  void loop_exited(Looper& l, int status);
  void on_sample();
  void end_window();
  void maybe_finish_pass();
  void finish_pass();
  void after_sync();
  /// Writes 3 to /proc/sys/vm/drop_caches; "" on success, else what failed (path, errno text).
  static std::string drop_caches();
  void finish_run();
  double since(Clock::time_point t) const;

  boost::asio::io_context& io_;
  Children& children_;
  protocol::Run p_;
  Emit emit_;
  Done done_;
  std::vector<std::unique_ptr<Looper>> loopers_;
  std::vector<std::string> env_;
  std::unique_ptr<Sampler> sampler_;
  boost::asio::steady_timer window_timer_, sample_timer_, pause_timer_, kill_timer_;
  std::shared_ptr<bool> alive_;

  // state of the current pass
  std::uint32_t pass_ = 0;
  bool in_window_ = false;
  bool finishing_ = false;
  bool caches_dropped_ = false;  ///< dropped since the last pass began (goes into its report)
  Clock::time_point t0_, t_end_;
  std::uint64_t sample_no_ = 0;
  protocol::PassReport report_;
  Snapshot pass_start_, last_sample_, pass_end_, scratch_;
  std::vector<protocol::PassReport> done_passes_;
  std::uint64_t total_failures_ = 0;
  std::uint64_t rss_seen_kib_ = 0;
  double cpu_at_start_ = 0;  ///< thread_cpu_s() when the run started (result.agent_cpu_s)  ///< largest exact RSS seen at a pass end (sysinfo.hpp)
  std::vector<std::string> failure_examples_;
};

}  // namespace rlab::agent
