#include "run/progress.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rlab::run {

Progress::Progress(std::FILE* out, bool tty) : out_(out), tty_(tty) {}

void Progress::build(std::string_view kernel, std::string_view phase, std::string_view detail) {
  std::lock_guard lock(mu_);
  std::string line = fmt::format("[build {}] {}: {}", kernel, phase, detail);
  if (tty_) {
    if (line.size() > 150) line.resize(150);
    fmt::print(out_, "\r\033[K{}", line);
  } else {
    fmt::print(out_, "{}\n", line);
  }
  std::fflush(out_);
}

void Progress::start(std::size_t total, double estimate_s) {
  std::lock_guard lock(mu_);
  total_ = total;
  estimate_s_ = estimate_s;
  t0_ = std::chrono::steady_clock::now();
  if (tty_) fmt::print(out_, "\r\033[K");
  draw(fmt::format("{} boots to run, about {}", total, format_duration(estimate_s)));
}

void Progress::phase(const std::string& key, std::string_view phase) {
  std::lock_guard lock(mu_);
  running_[key] = std::string(phase);
  draw(fmt::format("{}: {}", key, phase));
}

void Progress::finished(const std::string& key, bool ok, double wall_s, std::string_view note) {
  std::lock_guard lock(mu_);
  running_.erase(key);
  ++done_;
  if (!ok) ++failed_;
  std::string event = fmt::format("{}: {} in {} {}", key, ok ? "done" : "FAILED",
                                  format_duration(wall_s), note);
  if (tty_) fmt::print(out_, "\r\033[K{}\n", event);  // finished boots stay on screen
  draw(tty_ ? "" : event);
}

void Progress::end() {
  std::lock_guard lock(mu_);
  if (tty_) fmt::print(out_, "\r\033[K");
  std::fflush(out_);
}

std::size_t Progress::done() const {
  std::lock_guard lock(mu_);
  return done_;
}

double Progress::eta_s() const {
  std::lock_guard lock(mu_);
  if (total_ == 0) return 0;
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  if (done_ == 0) return std::max(0.0, estimate_s_ - elapsed);
  // Pace so far: elapsed per finished boot, applied to those left.
  return elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
}

void Progress::draw(const std::string& event) {
  // Called with mu_ held; eta_s() locks, so compute it inline.
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  double eta = done_ == 0 ? std::max(0.0, estimate_s_ - elapsed)
                          : elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
  std::string phases;
  for (const auto& [k, p] : running_) phases += fmt::format(" | {}: {}", k, p);
  std::string status = fmt::format("[{}/{} boots{}] ETA {}", done_, total_,
                                   failed_ ? fmt::format(", {} failed", failed_) : "",
                                   format_duration(eta));
  if (tty_) {
    std::string line = status + phases;
    if (line.size() > 200) line.resize(200);
    fmt::print(out_, "\r\033[K{}", line);
  } else if (!event.empty()) {
    fmt::print(out_, "{} {}\n", status, event);
  }
  std::fflush(out_);
}

}  // namespace rlab::run
