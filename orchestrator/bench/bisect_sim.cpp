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
// ceil(log2 N) + 1 over bisects without skips (<= 0 meets the target); boots = boots per
// bisect, all runs (a run is a pair of boots in gap mode); shared% (gap mode) = named the
// commit of the shared change. A block of 95% Wilson intervals for the rates follows.
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
// --load S multiplies the level of every run by its own 1 + S z (z standard normal): host
// load and steal that differ from boot to boot.
// --cells 2 simulates a gap bisection (`rlab bisect --cell A --against B`): every run of a
// commit is a pair of boots, one in cell A and one in cell B, and the sample the bisection
// sees is score_A / score_B (--score a: cell A's score alone, the single-cell bisection of the
// same commits, for comparison). Each cell has its own noise, score = level x shared x
// (1 + rsd z), rsd = --rsd for A and --rsd-b for B, z drawn per cell; shared = (1 +- D n / 100)
// (1 + S z_pair), each factor at least 0.05, is one draw for both boots of a pair (the drift
// and load of that moment) and cancels in the ratio. Effects are gaps: from the culprit on,
// cell A alone scores g% lower (g = 0, 2, 3, 5, 7, 10; 0: controls without a culprit);
// --shared-change C (a fraction) lowers both cells by C at an earlier commit (uniform before
// the culprit; anywhere in a control), which a gap bisection must not name. With --loops L
// (cell A's loops, --loops-b for B, default L) each cell is quantised as above, and the steps'
// pooled t floor is half the ratio's resolution r res sqrt(1/a^2 + 1/b^2) (res = 3 lpm, a and b the
// cells' median lpm, r = a / b; the coarser of the two ends). Targets in gap mode: wrong culprit <= 1% at every gap, the shared change named in
// <= 1%, no culprit named in the controls, right culprit >= 99% at gaps of 3 ratio noise
// widths (sqrt(rsd^2 + rsd_b^2)) or 3 ratio resolutions (deterministic) and more, and at
// least twice the minimum effect.
// Usage: rlab_bench_bisect [--bisects 10000] [--rsd 0.05] [--fail-rate 0] [--drift 0] [--seed 1]
//        [--initial 10] [--cap 80] [--alpha 0.01] [--min-effect 0.02] [--step-alpha 0 = auto]
//        [--loops 0] [--jitter 0] [--outliers 0] [--load 0]
//        [--cells 1] [--score ratio] [--rsd-b = rsd] [--loops-b = loops] [--shared-change 0]
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
  double load = 0;      // real time: relative sd of a run's (a pair's) host factor
  std::size_t cells = 1;    // 2: gap bisection, each run a pair of boots (cell A, cell B)
  bool ratio = true;        // gap mode: the core sees score_A / score_B (false: score_A)
  double rsd_b = -1;        // gap mode, real time: cell B's own relative sd (< 0: rsd)
  double loops_b = 0;       // gap mode, deterministic: cell B's loops per pass (0: loops)
  double shared_change = 0; // gap mode: both cells' relative drop at an earlier commit
  std::uint64_t seed = 1;
  rlab::bisection::Options options;
};

struct Tally {
  std::size_t bisects = 0, right = 0, wrong = 0, hidden = 0, hidden_with_culprit = 0;
  std::size_t stopped = 0;  // ended at the endpoints (no regression / inconclusive / ...)
  std::size_t steps = 0, step_runs = 0, reference_runs = 0, endpoint_runs = 0;
  std::size_t no_skip_bisects = 0, over_bound = 0, max_steps_over_bound = 0;
  std::size_t shared_named = 0;  // gap mode: found, and it is the commit of the shared change
  std::size_t boots = 0;         // runs x boots per run (2 in gap mode with the ratio)
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
    else if (k == "--load") c.load = std::atof(v);
    else if (k == "--cells") c.cells = std::strtoull(v, nullptr, 10);
    else if (k == "--rsd-b") c.rsd_b = std::atof(v);
    else if (k == "--loops-b") c.loops_b = std::atof(v);
    else if (k == "--shared-change") c.shared_change = std::atof(v);
    else if (k == "--score") {
      if (std::strcmp(v, "ratio") != 0 && std::strcmp(v, "a") != 0) {
        std::fprintf(stderr, "rlab_bench_bisect: --score is ratio or a, not %s\n", v);
        std::exit(2);
      }
      c.ratio = std::strcmp(v, "ratio") == 0;
    } else {
      std::fprintf(stderr, "rlab_bench_bisect: unknown option %s\n", k.c_str());
      std::exit(2);
    }
  }
  if (argc % 2 == 0) {
    std::fprintf(stderr, "rlab_bench_bisect: option %s needs a value\n", argv[argc - 1]);
    std::exit(2);
  }
  if (c.cells != 1 && c.cells != 2) {
    std::fprintf(stderr, "rlab_bench_bisect: --cells is 1 or 2\n");
    std::exit(2);
  }
  if (c.rsd_b < 0) c.rsd_b = c.rsd;
  if (c.loops_b <= 0) c.loops_b = c.loops;
  if (c.loops > 0) {
    c.options.deterministic = true;
    c.options.resolution = kLpmPerLoop;  // gap mode with the ratio: set per bisect (ratio_resolution)
  }
  return c;
}

/// Median lpm of a deterministic cell scoring floor(loops + U + J z) loops a pass (U uniform in
/// [0, 1), z normal): floor is monotone and loops + U + J z is symmetric about loops + 1/2, so
/// the median is floor(loops + 1/2) loops, times kLpmPerLoop.
double median_lpm(double loops) { return std::floor(loops + 0.5) * kLpmPerLoop; }

/// The ratio's resolution r res sqrt(1/a^2 + 1/b^2) for cells of median a and b lpm (r = a / b,
/// res = kLpmPerLoop), as `rlab bisect --against` takes it: the two cells are quantised
/// independently, so their bounds add in quadrature.
double ratio_resolution(double a, double b) { return a / b * kLpmPerLoop * std::sqrt(1 / (a * a) + 1 / (b * b)); }

long bound(std::size_t n) { return static_cast<long>(std::ceil(std::log2(static_cast<double>(n)))) + 1; }

void run_one(const Config& cfg, std::size_t n, double effect, std::uint64_t seed, Tally& t) {
  rlab::stats::Rng rng(seed);
  const bool gap = cfg.cells == 2;
  // Gap mode with a shared change: it lands strictly before the culprit (culprit >= 2), or
  // anywhere inside a control's range.
  const bool with_shared = gap && cfg.shared_change != 0;
  const std::size_t culprit = effect > 0 ? (with_shared ? 2 + rng.index(n - 2) : 1 + rng.index(n - 1)) : n;
  const std::size_t shared = with_shared ? 1 + rng.index(culprit - 1) : n;
  const double g = gap ? effect / 100 : 0;  // gap mode: effects are gaps in percent
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
        if (gap) {
          const double a_change = (i >= culprit ? 1 - g : 1) * (i >= shared ? 1 - cfg.shared_change : 1);
          const double b_change = i >= shared ? 1 - cfg.shared_change : 1;
          double a = 0, b = 0;
          if (cfg.loops > 0) {  // deterministic: whole loops per cell, no drift, no load
            const auto cell = [&](double loops) {
              const double l = loops + rng.uniform() + cfg.jitter * rng.normal();
              const double hiccup = rng.uniform() < cfg.outliers ? 0.8 : 1.0;
              return std::floor(l) * kLpmPerLoop * hiccup;
            };
            a = cell(cfg.loops * a_change);
            b = cell(cfg.loops_b * b_change);
          } else {  // real time: one drift and load factor for the pair, own noise per cell
            // At least 0.05: a long bisection under a falling drift would otherwise reach a
            // host speed of 0 (both scores 0, the ratio undefined) and below.
            const double common =
                std::max(0.05, 1 + drift_sign * cfg.drift * static_cast<double>(clock++) / 100) *
                std::max(0.05, 1 + cfg.load * rng.normal());
            a = 100 * a_change * common * std::max(0.05, 1 + cfg.rsd * rng.normal());
            b = 100 * b_change * common * std::max(0.05, 1 + cfg.rsd_b * rng.normal());
          }
          out[k].samples.push_back(cfg.ratio ? a / b : a);
          continue;
        }
        if (cfg.loops > 0) {  // deterministic: whole loops, no drift
          const double loops = (i >= culprit ? cfg.loops - effect : cfg.loops) + rng.uniform() + cfg.jitter * rng.normal();
          const double hiccup = rng.uniform() < cfg.outliers ? 0.8 : 1.0;
          out[k].samples.push_back(std::floor(loops) * kLpmPerLoop * hiccup);
          continue;
        }
        double level = (i >= culprit ? 100 * (1 - effect * cfg.rsd) : 100) *
                       (1 + drift_sign * cfg.drift * static_cast<double>(clock++) / 100);
        if (cfg.load > 0) level *= std::max(0.05, 1 + cfg.load * rng.normal());
        out[k].samples.push_back(level + sd * rng.normal());
      }
    }
    return out;
  };
  rlab::bisection::Options opt = cfg.options;
  if (gap && cfg.ratio && opt.deterministic) {
    // The ratio's resolution from the cells' median scores at either end, the coarser one.
    const double good_a = median_lpm(cfg.loops), good_b = median_lpm(cfg.loops_b);
    const double s = with_shared ? 1 - cfg.shared_change : 1;  // the bad end is past the shared change
    const double bad_a = median_lpm(cfg.loops * (1 - g) * s), bad_b = median_lpm(cfg.loops_b * s);
    opt.resolution = std::max(ratio_resolution(good_a, good_b), ratio_resolution(bad_a, bad_b));
  }
  const auto r = rlab::bisection::bisect(commits, oracle, opt);
  ++t.bisects;
  t.boots += (r.endpoint_runs + r.step_runs + r.reference_runs) * (gap && cfg.ratio ? 2 : 1);
  t.endpoint_runs += r.endpoint_runs;
  t.step_runs += r.step_runs;
  t.reference_runs += r.reference_runs;
  t.steps += r.steps.size();
  using rlab::bisection::Status;
  if (r.status == Status::found) {
    (r.first_bad == culprit ? t.right : t.wrong)++;
    if (r.first_bad == shared) ++t.shared_named;
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

/// Wilson score interval at 95% for `k` of `n` trials, as "lo-hi" in percent (2 decimals).
std::string wilson(std::size_t k, std::size_t n) {
  if (n == 0) return "-";
  const double z = 1.959963984540054, nn = static_cast<double>(n), p = static_cast<double>(k) / nn;
  const double centre = (p + z * z / (2 * nn)) / (1 + z * z / nn);
  const double half = z / (1 + z * z / nn) * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn));
  return fmt(100 * std::max(0.0, centre - half)) + "-" + fmt(100 * std::min(1.0, centre + half));
}

}  // namespace

int main(int argc, char** argv) {
  const Config cfg = parse(argc, argv);
  const bool det = cfg.loops > 0;
  const bool gap = cfg.cells == 2;
  const std::vector<double> effects = gap ? std::vector<double>{0, 2, 3, 5, 7, 10}
                                      : det ? std::vector<double>{0, 1, 2, 3, 4, 6, 10}
                                            : std::vector<double>{0, 1, 2, 3, 4, 5, 7, 10};
  const char* unit = gap ? "%" : det ? " loops" : "σ";
  const std::vector<std::size_t> sizes{64, 128, 256, 512, 1024};
  const std::size_t per_cell = std::max<std::size_t>(1, cfg.bisects / (effects.size() * sizes.size()));
  std::printf("simulated bisects: %zu (%zu per effect and size), noise rsd %.1f%%, fail rate %.1f%%, "
              "drift %.1f%% per 100 runs, runs per commit %zu doubling to %zu, alpha %g, min effect %g%%\n\n",
              per_cell * effects.size() * sizes.size(), per_cell, 100 * cfg.rsd, 100 * cfg.fail_rate,
              100 * cfg.drift,
              cfg.options.plan.initial, cfg.options.plan.cap, cfg.options.verdict.alpha,
              100 * cfg.options.verdict.min_effect);
  if (det && !gap)
    std::printf("deterministic: %.0f loops a pass at the good end (%.0f lpm), jitter %.2f loops, outliers %.1f%%; "
                "noise rsd and drift do not apply\n\n", cfg.loops, cfg.loops * kLpmPerLoop, cfg.jitter,
                100 * cfg.outliers);
  if (cfg.load > 0 && !det)
    std::printf("host load: every run's level times 1 + %.1f%% z%s\n\n", 100 * cfg.load,
                gap ? ", one draw for both boots of a pair" : "");
  // Gap mode: the width of the ratio's noise (real time) or resolution (deterministic) at the
  // good end, in percent; the right-culprit target applies from three widths.
  double width = 0;
  if (gap) {
    std::printf("gap bisection: two cells per commit, the core sees %s; the gap lowers cell A alone from the "
                "culprit on; shared change %.1f%% of both cells at an earlier commit\n",
                cfg.ratio ? "score_A / score_B" : "score_A alone (single-cell bisection of the same commits)",
                100 * cfg.shared_change);
    if (det) {
      const double a = median_lpm(cfg.loops), b = median_lpm(cfg.loops_b);
      width = cfg.ratio ? 100 * ratio_resolution(a, b) / (a / b) : 100 * kLpmPerLoop / a;
      std::printf("deterministic: cell A %.1f loops a pass (median %.0f lpm), cell B %.1f (median %.0f lpm), "
                  "jitter %.2f loops, outliers %.1f%%; %s resolution %.2f%% (%.4g)\n\n",
                  cfg.loops, a, cfg.loops_b, b, cfg.jitter, 100 * cfg.outliers, cfg.ratio ? "the ratio's" : "cell A's",
                  width, cfg.ratio ? ratio_resolution(a, b) : kLpmPerLoop);
    } else {
      width = 100 * (cfg.ratio ? std::sqrt(cfg.rsd * cfg.rsd + cfg.rsd_b * cfg.rsd_b)
                               : std::sqrt(cfg.rsd * cfg.rsd + cfg.load * cfg.load));
      std::printf("real time: own noise rsd A %.1f%%, B %.1f%%; %s noise about %.1f%%\n\n", 100 * cfg.rsd,
                  100 * cfg.rsd_b, cfg.ratio ? "the ratio's" : "cell A's with the load", width);
    }
  }
  std::printf("%-7s %8s %8s %8s %8s %9s %8s %7s %9s %9s %9s %11s %8s%s\n", "effect", "bisects", "right%", "wrong%",
              "hidden%", "in range%", "stopped%", "steps", "runs/step", "refs/step", "end runs",
              "steps-bound", "boots", gap ? "  shared%" : "");
  std::map<double, Tally> by_effect;
  std::uint64_t seed = cfg.seed * 1000003;
  const auto label = [&](double e) {
    return e == 0 ? std::string("none") : std::to_string(static_cast<int>(e)) + unit;
  };
  for (double e : effects) {
    Tally& t = by_effect[e];
    for (std::size_t n : sizes) {
      for (std::size_t k = 0; k < per_cell; ++k) run_one(cfg, n, e, ++seed, t);
    }
    const std::string in_range = e > 0 && t.hidden ? fmt(pct(t.hidden_with_culprit, t.hidden)) : "-";
    const std::string margin = t.no_skip_bisects ? std::to_string(t.worst_margin) : "-";
    std::printf("%-7s %8zu %8.2f %8.2f %8.2f %9s %8.2f %7.2f %9.2f %9.2f %9.1f %11s %8.1f",
                label(e).c_str(),
                t.bisects, pct(t.right, t.bisects), pct(t.wrong, t.bisects), pct(t.hidden, t.bisects),
                in_range.c_str(), pct(t.stopped, t.bisects), t.steps ? double(t.steps) / t.bisects : 0.0,
                t.steps ? double(t.step_runs) / double(t.steps) : 0.0,
                t.steps ? double(t.reference_runs) / double(t.steps) : 0.0,
                double(t.endpoint_runs) / double(t.bisects), margin.c_str(),
                double(t.boots) / double(t.bisects));
    if (gap) std::printf(" %8.2f", pct(t.shared_named, t.bisects));
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("\n95%% intervals (Wilson): right culprit, wrong culprit%s\n", gap ? ", shared change named" : "");
  for (double e : effects) {
    const Tally& t = by_effect[e];
    std::printf("  %-8s right %-12s wrong %-12s", label(e).c_str(),
                e > 0 ? wilson(t.right, t.bisects).c_str() : "-", wilson(t.wrong, t.bisects).c_str());
    if (gap) std::printf(" shared %s", wilson(t.shared_named, t.bisects).c_str());
    std::printf("\n");
  }
  bool ok = true;
  const bool right_waived = cfg.fail_rate > 0 || cfg.outliers > 0;
  std::printf("\ntargets:\n");
  for (double e : effects) {
    const Tally& t = by_effect[e];
    // Gap mode: from three widths of the ratio's noise or resolution, and from twice the
    // minimum effect (a gap at the minimum effect passes it or not by the ends' rounding).
    if (gap ? e > 0 && e >= 3 * width && e >= 200 * cfg.options.verdict.min_effect : e >= 3) {
      const bool met = pct(t.right, t.bisects) >= 99.0;
      ok &= met || right_waived;
      std::printf("  %s: right culprit %.2f%% (>= 99%%) %s\n", label(e).c_str(), pct(t.right, t.bisects),
                  met ? "met" : (right_waived ? "(target applies without broken commits "
                                                "and outliers)" : "MISSED"));
    }
    if ((det || gap) && e > 0) {
      const bool met = pct(t.wrong, t.bisects) <= 1.0;
      ok &= met;
      std::printf("  %s: wrong culprit %.2f%% (<= 1%%) %s\n", label(e).c_str(), pct(t.wrong, t.bisects),
                  met ? "met" : "MISSED");
    }
    if (e == 0) {
      const bool met = pct(t.wrong, t.bisects) <= 1.0;
      ok &= met;
      std::printf("  none: false culprit %.2f%% (<= 1%%) %s\n", pct(t.wrong, t.bisects), met ? "met" : "MISSED");
    }
    if (gap && cfg.shared_change != 0) {
      const bool met = pct(t.shared_named, t.bisects) <= 1.0;
      ok &= met;
      std::printf("  %s: shared change named %.2f%% (<= 1%%) %s\n", label(e).c_str(), pct(t.shared_named, t.bisects),
                  met ? "met" : "MISSED");
    }
    if (t.over_bound > 0) ok = false;
  }
  if (gap && width > 0)
    std::printf("  (right culprit from gaps of 3 x %.2f%%, the %s, and 2 x the minimum effect)\n", width,
                det ? "resolution" : "noise");
  std::size_t over = 0, checked = 0;
  for (const auto& [e, t] : by_effect) {
    over += t.over_bound;
    checked += t.no_skip_bisects;
  }
  std::printf("  steps <= ceil(log2 N) + 1 without skips: %zu of %zu bisects over %s\n", over, checked,
              over == 0 ? "met" : "MISSED");
  return ok ? 0 : 1;
}
