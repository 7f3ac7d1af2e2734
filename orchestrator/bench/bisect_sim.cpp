// rlab_bench_bisect: performance bisection against a simulated noisy oracle (no VMs).
//
// Each bisect gets N commits (64..1,024), a culprit drawn uniformly from 1..N-1, and an
// oracle that returns normal samples: mean 100 before the culprit, 100 (1 - k rsd) from it
// on (a regression of k sigma, lower is worse as for loops per minute), stddev 100 rsd.
// Controls (k = 0) have no culprit. Optionally a fraction of the commits "fail to build".
// Prints accuracy, steps and runs per step per effect size and checks the targets:
//   right culprit >= 99% at >= 3 sigma; false culprit <= 1% without a regression;
//   at most ceil(log2 N) + 1 steps when nothing is skipped.
// Columns: right/wrong = a single commit named, the culprit or another; hidden = a range
// hidden by skips (in range = share of those ranges that contain the culprit); stopped = ended
// at the ends (no regression, inconclusive); steps = tested commits per bisect; runs/step =
// runs per tested commit; refs/step = runs of the two ends measured alongside each step (the
// step's references, interleaved with it); end runs = runs of both ends while checking them
// before the steps; steps-bound = worst steps minus
// ceil(log2 N) + 1 over bisects without skips (<= 0 meets the target).
// The oracle interleaves the commits of a request (round-robin, rotated each round) as rlab's
// lab boots them; --drift D multiplies the level of the n-th run of a bisect by
// 1 +- D n / 100 (sign drawn per bisect), a host whose speed drifts over time.
// --loops L simulates deterministic mode (`clock: icount`) instead: a boot's score is the
// loops of one 20 s pass times 3 lpm, floor(level + U + J z) with U uniform in [0, 1) (where
// the pass window cuts the last loop), z standard normal and J = --jitter in loops (the
// 2-vCPU scheduling's loop or two); the good level is L loops, the bad L - k for effects of
// k loops; --outliers P scores a boot 20% low with probability P (a hiccup). Steps then
// reuse the ends' boots and decide with the pooled t test (docs/statistics.md "Deterministic
// steps"); targets: right culprit >= 99% from 3 loops, false culprits <= 1%.
// Usage: rlab_bench_bisect [--bisects 10000] [--rsd 0.05] [--fail-rate 0] [--drift 0] [--seed 1]
//        [--initial 10] [--cap 80] [--alpha 0.01] [--min-effect 0.02] [--step-alpha 0 = auto]
//        [--loops 0] [--jitter 0] [--outliers 0]
// Exit status 1 when a target is missed.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "bisection/bisect.hpp"
#include "stats/random.hpp"

namespace {

constexpr double kLpmPerLoop = 3;  // deterministic mode: one loop of a 20 s pass

struct Config {
  std::size_t bisects = 10000;
  double rsd = 0.05;
  double fail_rate = 0;
  double drift = 0;  // relative level change per 100 runs
  double loops = 0;     // > 0: deterministic mode, the good end's loops per pass
  double jitter = 0;    // deterministic: normal spread of a boot's loops
  double outliers = 0;  // deterministic: chance of a boot scoring 20% low
  std::uint64_t seed = 1;
  rlab::bisection::Options options;
};

struct Tally {
  std::size_t bisects = 0, right = 0, wrong = 0, hidden = 0, hidden_with_culprit = 0;
  std::size_t stopped = 0;  // ended at the endpoints (no regression / inconclusive / ...)
  std::size_t steps = 0, step_runs = 0, reference_runs = 0, endpoint_runs = 0;
  std::size_t no_skip_bisects = 0, over_bound = 0, max_steps_over_bound = 0;
  long worst_margin = -1000;  // max over no-skip bisects of steps - bound
};

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--bisects") c.bisects = std::strtoull(v, nullptr, 10);
    else if (k == "--rsd") c.rsd = std::atof(v);
    else if (k == "--fail-rate") c.fail_rate = std::atof(v);
    else if (k == "--drift") c.drift = std::atof(v);
    else if (k == "--seed") c.seed = std::strtoull(v, nullptr, 10);
    else if (k == "--initial") c.options.plan.initial = std::strtoull(v, nullptr, 10);
    else if (k == "--cap") c.options.plan.cap = std::strtoull(v, nullptr, 10);
    else if (k == "--alpha") c.options.verdict.alpha = std::atof(v);
    else if (k == "--min-effect") c.options.verdict.min_effect = std::atof(v);
    else if (k == "--step-alpha") c.options.step_alpha = std::atof(v);
    else if (k == "--loops") c.loops = std::atof(v);
    else if (k == "--jitter") c.jitter = std::atof(v);
    else if (k == "--outliers") c.outliers = std::atof(v);
    else {
      std::fprintf(stderr, "rlab_bench_bisect: unknown option %s\n", k.c_str());
      std::exit(2);
    }
  }
  if (argc % 2 == 0) {
    std::fprintf(stderr, "rlab_bench_bisect: option %s needs a value\n", argv[argc - 1]);
    std::exit(2);
  }
  if (c.loops > 0) {
    c.options.deterministic = true;
    c.options.resolution = kLpmPerLoop;
  }
  return c;
}

long bound(std::size_t n) { return static_cast<long>(std::ceil(std::log2(static_cast<double>(n)))) + 1; }

void run_one(const Config& cfg, std::size_t n, double effect, std::uint64_t seed, Tally& t) {
  rlab::stats::Rng rng(seed);
  const std::size_t culprit = effect > 0 ? 1 + rng.index(n - 1) : n;
  std::vector<bool> broken(n, false);
  for (std::size_t i = 1; i + 1 < n; ++i) broken[i] = rng.uniform() < cfg.fail_rate;
  std::vector<std::string> commits(n);
  for (std::size_t i = 0; i < n; ++i) commits[i] = "c" + std::to_string(i);
  const double sd = 100 * cfg.rsd;
  // Host drift: the level of every run is multiplied by 1 + drift * (runs so far) / 100, so
  // runs measured far apart differ by more than the effect unless they are interleaved.
  std::size_t clock = 0;
  const double drift_sign = rng.uniform() < 0.5 ? -1 : 1;
  auto oracle = [&](std::span<const rlab::bisection::Request> requests) {
    std::vector<rlab::bisection::Measurement> out(requests.size());
    std::size_t rounds = 0;
    for (std::size_t k = 0; k < requests.size(); ++k) {
      if (broken[requests[k].index]) out[k].failure = "build failed";
      else rounds = std::max(rounds, requests[k].runs);
    }
    for (std::size_t r = 0; r < rounds; ++r) {
      for (std::size_t j = 0; j < requests.size(); ++j) {
        const std::size_t k = (j + r) % requests.size();  // rotated each round, as rlab boots
        if (!out[k].failure.empty() || out[k].samples.size() >= requests[k].runs) continue;
        const std::size_t i = requests[k].index;
        if (cfg.loops > 0) {  // deterministic: whole loops, no drift
          const double loops = (i >= culprit ? cfg.loops - effect : cfg.loops) + rng.uniform() + cfg.jitter * rng.normal();
          const double hiccup = rng.uniform() < cfg.outliers ? 0.8 : 1.0;
          out[k].samples.push_back(std::floor(loops) * kLpmPerLoop * hiccup);
          continue;
        }
        const double level = (i >= culprit ? 100 * (1 - effect * cfg.rsd) : 100) *
                             (1 + drift_sign * cfg.drift * static_cast<double>(clock++) / 100);
        out[k].samples.push_back(level + sd * rng.normal());
      }
    }
    return out;
  };
  const auto r = rlab::bisection::bisect(commits, oracle, cfg.options);
  ++t.bisects;
  t.endpoint_runs += r.endpoint_runs;
  t.step_runs += r.step_runs;
  t.reference_runs += r.reference_runs;
  t.steps += r.steps.size();
  using rlab::bisection::Status;
  if (r.status == Status::found) {
    (r.first_bad == culprit ? t.right : t.wrong)++;
  } else if (r.status == Status::hidden_by_skips) {
    ++t.hidden;
    if (culprit >= r.range_first && culprit <= r.range_last) ++t.hidden_with_culprit;
  } else {
    ++t.stopped;
  }
  bool skipped = false;
  for (const auto& s : r.steps) skipped |= s.result == rlab::bisection::StepResult::skip;
  if (!skipped && !r.steps.empty()) {
    ++t.no_skip_bisects;
    const long margin = static_cast<long>(r.steps.size()) - bound(n);
    if (margin > 0) ++t.over_bound;
    t.worst_margin = std::max(t.worst_margin, margin);
  }
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

double pct(std::size_t a, std::size_t b) { return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0; }

}  // namespace

int main(int argc, char** argv) {
  const Config cfg = parse(argc, argv);
  const bool det = cfg.loops > 0;
  const std::vector<double> effects = det ? std::vector<double>{0, 1, 2, 3, 4, 6, 10}
                                          : std::vector<double>{0, 1, 2, 3, 4, 5, 7, 10};
  const char* unit = det ? " loops" : "σ";
  const std::vector<std::size_t> sizes{64, 128, 256, 512, 1024};
  const std::size_t per_cell = std::max<std::size_t>(1, cfg.bisects / (effects.size() * sizes.size()));
  std::printf("simulated bisects: %zu (%zu per effect and size), noise rsd %.1f%%, fail rate %.1f%%, "
              "drift %.1f%% per 100 runs, runs per commit %zu doubling to %zu, alpha %g, min effect %g%%\n\n",
              per_cell * effects.size() * sizes.size(), per_cell, 100 * cfg.rsd, 100 * cfg.fail_rate,
              100 * cfg.drift,
              cfg.options.plan.initial, cfg.options.plan.cap, cfg.options.verdict.alpha,
              100 * cfg.options.verdict.min_effect);
  if (det)
    std::printf("deterministic: %.0f loops a pass at the good end (%.0f lpm), jitter %.2f loops, outliers %.1f%%; "
                "noise rsd and drift do not apply\n\n", cfg.loops, cfg.loops * kLpmPerLoop, cfg.jitter,
                100 * cfg.outliers);
  std::printf("%-7s %8s %8s %8s %8s %9s %8s %7s %9s %9s %9s %11s\n", "effect", "bisects", "right%", "wrong%",
              "hidden%", "in range%", "stopped%", "steps", "runs/step", "refs/step", "end runs",
              "steps-bound");
  std::map<double, Tally> by_effect;
  std::uint64_t seed = cfg.seed * 1000003;
  for (double e : effects) {
    Tally& t = by_effect[e];
    for (std::size_t n : sizes) {
      for (std::size_t k = 0; k < per_cell; ++k) run_one(cfg, n, e, ++seed, t);
    }
    const std::string in_range = e > 0 && t.hidden ? fmt(pct(t.hidden_with_culprit, t.hidden)) : "-";
    const std::string margin = t.no_skip_bisects ? std::to_string(t.worst_margin) : "-";
    std::printf("%-7s %8zu %8.2f %8.2f %8.2f %9s %8.2f %7.2f %9.2f %9.2f %9.1f %11s\n",
                (e == 0 ? std::string("none") : std::to_string(static_cast<int>(e)) + unit).c_str(),
                t.bisects, pct(t.right, t.bisects), pct(t.wrong, t.bisects), pct(t.hidden, t.bisects),
                in_range.c_str(), pct(t.stopped, t.bisects), t.steps ? double(t.steps) / t.bisects : 0.0,
                t.steps ? double(t.step_runs) / double(t.steps) : 0.0,
                t.steps ? double(t.reference_runs) / double(t.steps) : 0.0,
                double(t.endpoint_runs) / double(t.bisects), margin.c_str());
    std::fflush(stdout);
  }
  bool ok = true;
  std::printf("\ntargets:\n");
  for (double e : effects) {
    const Tally& t = by_effect[e];
    if (e >= 3) {
      const bool met = pct(t.right, t.bisects) >= 99.0;
      ok &= met || cfg.fail_rate > 0 || cfg.outliers > 0;
      std::printf("  %2.0f%s: right culprit %.2f%% (>= 99%%) %s\n", e, unit, pct(t.right, t.bisects),
                  met ? "met" : (cfg.fail_rate > 0 || cfg.outliers > 0 ? "(target applies without broken commits "
                                                                         "and outliers)" : "MISSED"));
    }
    if (det && e > 0) {
      const bool met = pct(t.wrong, t.bisects) <= 1.0;
      ok &= met;
      std::printf("  %2.0f%s: wrong culprit %.2f%% (<= 1%%) %s\n", e, unit, pct(t.wrong, t.bisects),
                  met ? "met" : "MISSED");
    }
    if (e == 0) {
      const bool met = pct(t.wrong, t.bisects) <= 1.0;
      ok &= met;
      std::printf("  none: false culprit %.2f%% (<= 1%%) %s\n", pct(t.wrong, t.bisects), met ? "met" : "MISSED");
    }
    if (t.over_bound > 0) ok = false;
  }
  std::size_t over = 0, checked = 0;
  for (const auto& [e, t] : by_effect) {
    over += t.over_bound;
    checked += t.no_skip_bisects;
  }
  std::printf("  steps <= ceil(log2 N) + 1 without skips: %zu of %zu bisects over %s\n", over, checked,
              over == 0 ? "met" : "MISSED");
  return ok ? 0 : 1;
}
