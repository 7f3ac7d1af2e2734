#pragma once
// Progress of a run on stderr: kernel builds, then "cells done/total", the phase of every
// running boot and an ETA. On a terminal one status line is redrawn in place; otherwise
// (logs, CI) a line is printed whenever a boot changes phase.
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace rlab::run {

/// Thread-safe progress display.
class Progress {
 public:
  /// `out`: where to write (stderr); `tty`: redraw in place.
  Progress(std::FILE* out, bool tty);

  /// Steps (lines of make output) a kernel build is expected to take, from an earlier build's
  /// log; 0 = unknown. Used for the build ETA.
  void set_build_steps(std::size_t steps);
  /// Kernel/initramfs build output (image::Progress): shown as "[build <kernel>] <phase>: ...",
  /// with an ETA when the detail carries "[<s>s, <n> steps]" and the expected steps are known.
  void build(std::string_view kernel, std::string_view phase, std::string_view detail);

  /// Starts the cell phase: `total` boots, `estimate_s` the expected wall time of all of them
  /// at the given concurrency (used for the ETA until real durations are known).
  void start(std::size_t total, double estimate_s);
  /// Boot `key` (e.g. "6.12/xfs-defaults/2vcpu/shell1#0") is now in `phase`.
  void phase(const std::string& key, std::string_view phase);
  /// Boot `key` finished (ok or failed) after `wall_s` seconds; `note` is printed with it.
  void finished(const std::string& key, bool ok, double wall_s, std::string_view note);
  /// Clears the status line (before the results table).
  void end();

  std::size_t done() const;
  /// Seconds left, estimated: the initial estimate scaled by how long finished boots took
  /// against their share of it.
  double eta_s() const;

 private:
  void draw(const std::string& event);
  std::FILE* out_;
  bool tty_;
  mutable std::mutex mu_;
  std::size_t total_ = 0, done_ = 0, failed_ = 0, build_steps_ = 0;
  double estimate_s_ = 0;
  std::chrono::steady_clock::time_point t0_;
  std::map<std::string, std::string> running_;  ///< key -> phase
};

/// Seconds left of a build that ran `elapsed_s` for `steps` of `expected` steps; nullopt
/// when it cannot be told (no steps yet, or unknown/exceeded expectation).
std::optional<double> build_eta_s(double elapsed_s, std::size_t steps, std::size_t expected);

/// Lines of the newest kernel build log in the cache (kernels/*/build.log), 0 when none.
std::size_t cached_build_steps();

/// "1h02m", "4m10s", "35s".
std::string format_duration(double seconds);

}  // namespace rlab::run
