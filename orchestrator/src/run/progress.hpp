#pragma once
// Progress of a run on stderr: kernel builds, then "boots done/total", the phase of every
// running boot and an ETA. On a terminal one status line is redrawn in place; otherwise
// (logs, CI) a line is printed whenever a boot changes phase.
#include "build/build_progress.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace rlab::run {

/// Thread-safe progress display.
class Progress {
 public:
  /// `out`: where to write (stderr); `tty`: redraw in place.
  Progress(std::FILE* out, bool tty);

  /// Kernel/initramfs build output (image::Progress): shown as "[build <kernel>] <phase>: ...";
  /// a kernel build's detail carries its own percentage and ETA (build/build_progress.hpp).
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
  std::size_t total_ = 0, done_ = 0, failed_ = 0;
  double estimate_s_ = 0;
  std::chrono::steady_clock::time_point t0_;
  std::map<std::string, std::string> running_;  ///< key -> phase
};

/// "1h02m", "4m10s", "35s".
using build::format_duration;

}  // namespace rlab::run
