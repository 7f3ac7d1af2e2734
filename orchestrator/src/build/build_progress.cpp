#include "build/build_progress.hpp"

#include "util/paths.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <exception>
#include <fstream>
#include <thread>

namespace rlab::build {
namespace fs = std::filesystem;

namespace {

// The complete lines appended to a growing log file since the last poll().
struct LogFollower {
  fs::path file;
  std::streamoff offset = 0;
  std::size_t lines = 0;  ///< complete lines read so far
  std::string last;       ///< the newest non-empty one

  void poll() {
    std::ifstream in(file);
    in.seekg(offset);
    for (std::string line; std::getline(in, line);) {
      if (in.eof()) break;  // partial last line: read it next time
      offset += static_cast<std::streamoff>(line.size() + 1);
      ++lines;
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      if (!line.empty()) last = line;
    }
  }
};

}  // namespace

LoggedRun run_logged(const std::vector<std::string>& argv, const util::ProcessOptions& opts,
                     const StepBasis& basis, const Progress& progress, std::chrono::milliseconds every) {
  std::atomic<bool> done{false};
  LoggedRun out;
  std::exception_ptr error;
  std::thread worker([&] {
    try {
      out.result = util::run(argv, opts);
    } catch (...) {
      error = std::current_exception();
    }
    done = true;
  });
  LogFollower log;
  log.file = opts.log_file;
  const auto start = std::chrono::steady_clock::now();
  auto next = start;
  while (!done) {
    std::this_thread::sleep_for(std::min(every, std::chrono::milliseconds(200)));
    if (!progress || std::chrono::steady_clock::now() < next) continue;
    next = std::chrono::steady_clock::now() + every;
    log.poll();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report(progress, "build", build_status(secs, log.lines, basis) + " " + log.last);
  }
  worker.join();
  if (error) std::rethrow_exception(error);
  log.poll();
  out.lines = log.lines;
  return out;
}


std::string format_duration(double s) {
  long t = std::lround(std::max(0.0, s));
  if (t >= 3600) return fmt::format("{}h{:02}m", t / 3600, (t % 3600) / 60);
  if (t >= 60) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}s", t);
}

std::size_t entry_build_steps(const CacheEntry& e) {
  const auto& m = e.manifest;
  if (e.kind != CacheKind::kernel || !m.is_object()) return 0;
  if (!m.value("build_from_scratch", true)) return 0;
  if (auto it = m.find("build_steps"); it != m.end() && it->is_number_unsigned())
    return it->get<std::size_t>();
  std::ifstream in(e.dir / "build.log");
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

StepBasis choose_step_basis(const std::vector<CacheEntry>& entries, const std::string& source_identity,
                            const std::string& config_sha256) {
  const CacheEntry* same = nullptr;
  const CacheEntry* any = nullptr;
  auto created = [](const CacheEntry* e) { return e->manifest.value("created", 0LL); };
  for (const auto& e : entries) {
    if (entry_build_steps(e) == 0) continue;
    if (!any || created(&e) > created(any)) any = &e;
    const bool match = e.manifest.value("source_identity", "") == source_identity &&
                       e.manifest.value("config_sha256", "") == config_sha256;
    if (match && (!same || created(&e) > created(same))) same = &e;
  }
  auto named = [](const CacheEntry* e) {
    return fmt::format("kernel {} ({})", e->manifest.value("name", "?"), e->key.substr(0, 16));
  };
  if (same) return {entry_build_steps(*same), false, "the last build of this source and config, " + named(same)};
  if (any) return {entry_build_steps(*any), true, "the last build of another kernel, " + named(any)};
  return {kTypicalBuildSteps, true, "rlab's default 6.12 config; no kernel in the cache yet"};
}

BuildTime expected_build_time(const std::vector<CacheEntry>& entries, const std::string& source_identity) {
  const CacheEntry* same = nullptr;
  const CacheEntry* any = nullptr;
  auto secs = [](const CacheEntry* e) { return e->manifest.value("build_seconds", 0.0); };
  for (const auto& e : entries) {
    if (e.kind != CacheKind::kernel || !e.manifest.is_object() || !e.manifest.value("build_from_scratch", true) ||
        secs(&e) <= 0)
      continue;
    if (!any || secs(&e) > secs(any)) any = &e;
    if (e.manifest.value("source_identity", "") == source_identity && (!same || secs(&e) > secs(same)))
      same = &e;
  }
  auto named = [](const CacheEntry* e) { return fmt::format("kernel {}", e->manifest.value("name", "?")); };
  if (same) return {secs(same), "the longest earlier build of this source, " + named(same)};
  if (any) return {secs(any), "the longest earlier build of another source, " + named(any)};
  return {kTypicalBuildSeconds, "no build in the cache yet: about 10 minutes on 2 cores"};
}

std::optional<unsigned> build_percent(std::size_t steps, std::size_t expected) {
  if (expected == 0) return std::nullopt;
  return static_cast<unsigned>(std::min<std::size_t>(99, steps * 100 / expected));
}

std::optional<double> build_eta_s(double elapsed_s, std::size_t steps, std::size_t expected) {
  if (elapsed_s < kMinEtaElapsedS || steps == 0 || expected == 0 || steps >= expected) return std::nullopt;
  return elapsed_s / static_cast<double>(steps) * static_cast<double>(expected - steps);
}

std::string build_status(double elapsed_s, std::size_t steps, const StepBasis& basis) {
  const long secs = std::lround(std::max(0.0, elapsed_s));
  auto pct = build_percent(steps, basis.steps);
  if (!pct) return fmt::format("[{:>4}s, {} steps]", secs, steps);
  const char* approx = basis.estimate ? "~" : "";
  auto eta = build_eta_s(elapsed_s, steps, basis.steps);
  return fmt::format("[{:>4}s, {}/{}{} steps, {}{}%, ETA {}{}{}]", secs, steps, approx, basis.steps,
                     approx, *pct, eta ? approx : "", eta ? format_duration(*eta) : "?",
                     basis.estimate ? ", estimate" : "");
}

}  // namespace rlab::build
