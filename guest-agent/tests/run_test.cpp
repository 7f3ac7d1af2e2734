// The host-native agent runs the shell1 load for real in a temporary directory.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "common/fileio.hpp"
#include "harness.hpp"

namespace rp = rlab::protocol;
using namespace rlab::agent::test;
using namespace std::chrono_literals;

namespace {

struct RunOutcome {
  std::vector<rp::Sample> samples;
  std::vector<rp::PassReport> passes;
  std::optional<rp::Result> result;
  std::vector<rp::Error> errors;
};

RunOutcome collect(Client& c, std::chrono::seconds timeout, const std::function<void(const rp::Sample&)>& on_sample = {}) {
  RunOutcome out;
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (!out.result && std::chrono::steady_clock::now() < end) {
    auto m = c.next(60s);
    if (!m) break;
    if (auto* s = std::get_if<rp::Sample>(&*m)) {
      out.samples.push_back(*s);
      if (on_sample) on_sample(*s);
    } else if (auto* p = std::get_if<rp::PassReport>(&*m)) {
      out.passes.push_back(*p);
    } else if (auto* r = std::get_if<rp::Result>(&*m)) {
      out.result = *r;
    } else if (auto* e = std::get_if<rp::Error>(&*m)) {
      out.errors.push_back(*e);
    }
  }
  return out;
}

}  // namespace

TEST(Run, Shell1TwoCopiesThreePasses) {
  TempDir dir;
  Process agent({agent_binary(), "--listen", "unix:" + (dir.path / "agent.sock").string()});
  Client c = Client::connect_unix(dir.path / "agent.sock", 10s);
  ASSERT_TRUE(c.next_of<rp::Hello>().has_value());
  rp::Run r;
  r.id = 77;
  r.workload = "shell1";
  r.copies = 2;
  r.passes = 3;
  r.duration_s = 3;
  r.scripts_per_loop = 1;
  r.workdir = (dir.path / "work").string();
  r.sample_interval_s = 1;
  r.pause_s = 0.5;
  c.send(r);
  bool busy_checked = false;
  auto out = collect(c, 120s, [&](const rp::Sample&) {
    if (busy_checked) return;
    busy_checked = true;
    rp::Run again = r;
    again.id = 78;
    c.send(again);  // answered busy; the error arrives among the samples
  });
  ASSERT_TRUE(out.result.has_value());
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].code, rp::ErrorCode::busy);
  EXPECT_EQ(out.errors[0].id, 78u);

  const auto& res = *out.result;
  EXPECT_EQ(res.id, 77u);
  EXPECT_EQ(res.workload, "shell1");
  ASSERT_EQ(res.passes.size(), 3u);
  ASSERT_EQ(out.passes.size(), 3u);
  EXPECT_EQ(res.failures, 0u) << (res.failure_examples.empty() ? "" : res.failure_examples[0]);
  std::vector<double> lpm;
  for (std::uint32_t i = 0; i < 3; ++i) {
    const auto& p = res.passes[i];
    EXPECT_EQ(p.pass, i);
    EXPECT_EQ(p.id, 77u);
    EXPECT_GT(p.loops, 0u);
    EXPECT_NEAR(p.window_s, 3.0, 0.25);
    // UnixBench's pass time: each copy's loop in flight when the window closed ends after it.
    EXPECT_GT(p.duration_s, p.window_s);
    EXPECT_LT(p.duration_s, p.window_s + 2.0);
    EXPECT_NEAR(p.lpm, double(p.loops) * 60.0 / p.duration_s, 1e-6);
    std::uint64_t hist_total = 0;
    for (auto n : p.latency.counts) hist_total += n;
    EXPECT_EQ(hist_total, p.loops) << "every counted loop is in the histogram";
    EXPECT_GT(p.latency.sum_s, 0);
    // Two loopers, back to back: their loops cannot take more than 2 x the window.
    EXPECT_LE(p.latency.sum_s, 2 * p.duration_s + 0.1);
    EXPECT_EQ(p.loops, out.passes[i].loops);
    EXPECT_EQ(p.counters.cpu.size(), 8u);
    EXPECT_GT(p.counters.forks, p.loops * 4) << "each loop forks sh + sort/od/sort/grep/tee/wc/rm";
    EXPECT_GT(p.counters.ctxt, 0u);
    EXPECT_FALSE(p.counters.vmstat.empty());
    EXPECT_FALSE(p.caches_dropped) << "the request did not ask for it";
    lpm.push_back(p.lpm);
  }
  // Score: drop the worst int(3/3) = 1 pass, geometric mean of the other two.
  std::sort(lpm.begin(), lpm.end());
  EXPECT_NEAR(res.score, std::sqrt(lpm[1] * lpm[2]), 1e-6 * res.score);
  EXPECT_GT(res.agent_max_rss_kib, 0u);
  EXPECT_GT(res.agent_cpu_s, 0.0);  // it spawned and reaped every loop
  EXPECT_LT(res.agent_cpu_s, 9.0);  // less than the whole run's wall time
  // The target is 16 MiB; AddressSanitizer's shadow memory and quarantine inflate RSS.
#ifdef RLAB_SANITIZED
  constexpr std::uint64_t kRssLimitKib = 64u * 1024;
#else
  constexpr std::uint64_t kRssLimitKib = 16u * 1024;
#endif
  EXPECT_LE(res.agent_max_rss_kib, kRssLimitKib) << "agent peak RSS";

  // Per 3 s pass: the window's start, about one a second, its end; counting up within each pass.
  EXPECT_GE(out.samples.size(), 3u * 4);
  EXPECT_LE(out.samples.size(), 3u * 5);
  for (std::size_t i = 0; i < out.samples.size(); ++i)
    if (i == 0 || out.samples[i].pass != out.samples[i - 1].pass) {
      EXPECT_EQ(out.samples[i].t_s, 0.0) << "the start's sample";
    }
  for (std::size_t i = 1; i < out.samples.size(); ++i)
    if (out.samples[i].pass == out.samples[i - 1].pass) {
      EXPECT_GE(out.samples[i].loops, out.samples[i - 1].loops);
      EXPECT_GT(out.samples[i].t_s, out.samples[i - 1].t_s);
    }
  // UnixBench's layout: scripts in pgms/, every looper in the one test directory, which the
  // loops leave holding only the input.
  EXPECT_TRUE(std::filesystem::exists(dir.path / "work" / "pgms" / "loop.sh"));
  EXPECT_TRUE(std::filesystem::exists(dir.path / "work" / "pgms" / "copy.sh"));
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.path / "work" / "testdir"))
    left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"sort.src"});
  for (const auto& p : res.passes) EXPECT_FALSE(p.placement.has_value()) << "not on XFS";
}

TEST(Run, PerCopyLayoutGivesEachLooperItsDirectory) {
  TempDir dir;
  Process agent({agent_binary(), "--listen", "unix:" + (dir.path / "agent.sock").string()});
  Client c = Client::connect_unix(dir.path / "agent.sock", 10s);
  ASSERT_TRUE(c.next_of<rp::Hello>().has_value());
  rp::Run r;
  r.id = 9;
  r.copies = 3;
  r.passes = 1;
  r.duration_s = 2;
  r.workdir = (dir.path / "work").string();
  r.pause_s = 0;
  r.layout = rlab::protocol::Layout::per_copy;
  r.input = std::string("zeta the\nalpha\n");
  c.send(r);
  auto out = collect(c, 60s);
  ASSERT_TRUE(out.result.has_value());
  EXPECT_GT(out.result->passes.at(0).loops, 0u);
  EXPECT_EQ(out.result->failures, 0u);
  for (int i = 0; i < 3; ++i) {
    const auto d = dir.path / "work" / "testdir" / ("copy" + std::to_string(i));
    EXPECT_EQ(rlab::agent::read_file(d / "sort.src").value_or(""), "zeta the\nalpha\n") << "the shipped input";
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path / "work" / "testdir" / "sort.src"));
}

TEST(Run, PipelineErrorsAreFailuresWhileLoopsCountAsUnixBenchCountsThem) {
  TempDir dir;
  Process agent({agent_binary(), "--listen", "unix:" + (dir.path / "agent.sock").string()});
  Client c = Client::connect_unix(dir.path / "agent.sock", 10s);
  ASSERT_TRUE(c.next_of<rp::Hello>().has_value());
  rp::Run r;
  r.id = 5;
  r.copies = 1;
  r.passes = 1;
  r.duration_s = 3;
  r.workdir = (dir.path / "work").string();
  r.sample_interval_s = 0.5;
  r.pause_s = 0;
  c.send(r);
  std::uint64_t loops_before_break = 0;
  bool broken = false;
  auto out = collect(c, 60s, [&](const rp::Sample& s) {
    if (broken) return;
    broken = true;
    loops_before_break = s.loops;
    std::filesystem::remove(dir.path / "work" / "testdir" / "sort.src");  // every later sort fails
  });
  ASSERT_TRUE(out.result.has_value());
  const auto& res = *out.result;
  ASSERT_EQ(res.passes.size(), 1u);
  EXPECT_GT(res.failures, 0u);
  EXPECT_EQ(res.passes[0].failures, res.failures);
  // multi.sh's plain `wait` exits 0 whatever its copies did, and looper counts it: so do we.
  EXPECT_GT(res.passes[0].loops, loops_before_break);
  ASSERT_FALSE(res.failure_examples.empty());
  EXPECT_LE(res.failure_examples.size(), 3u);
  EXPECT_NE(res.failure_examples[0].find("sort.src"), std::string::npos) << res.failure_examples[0];
  EXPECT_NE(res.failure_examples[0].find("exit 0"), std::string::npos) << res.failure_examples[0];
}

TEST(Run, NoSamplingStillTotalsPasses) {
  TempDir dir;
  Process agent({agent_binary(), "--listen", "unix:" + (dir.path / "agent.sock").string()});
  Client c = Client::connect_unix(dir.path / "agent.sock", 10s);
  ASSERT_TRUE(c.next_of<rp::Hello>().has_value());
  rp::Run r;
  r.id = 6;
  r.workload = "shell8";
  r.scripts_per_loop = 8;
  r.copies = 1;
  r.passes = 2;
  r.duration_s = 2;
  r.workdir = (dir.path / "work").string();
  r.sample_interval_s = 0;
  r.pause_s = 0;
  c.send(r);
  auto out = collect(c, 60s);
  ASSERT_TRUE(out.result.has_value());
  // No periodic samples: only the window's two edges of each pass, the start's empty.
  ASSERT_EQ(out.samples.size(), 4u);
  ASSERT_EQ(out.result->passes.size(), 2u);
  for (std::size_t i = 0; i < out.samples.size(); ++i) {
    const auto& s = out.samples[i];
    const auto& p = out.result->passes[i / 2];
    EXPECT_EQ(s.pass, i / 2);
    if (i % 2 == 0) {
      EXPECT_EQ(s.t_s, 0.0);
      EXPECT_EQ(s.loops, 0u);
      EXPECT_EQ(s.counters.forks, 0u);
    } else {
      EXPECT_NEAR(s.t_s, p.window_s, 1e-9);
      EXPECT_LE(s.loops, p.loops);
      EXPECT_EQ(s.counters.forks, p.counters.forks) << "the end's sample holds the whole window";
    }
  }
  for (const auto& p : out.result->passes) {
    EXPECT_GT(p.loops, 0u);
    EXPECT_GT(p.counters.forks, p.loops * 8 * 4) << "8 copies per loop";
  }
  // Two passes: nothing dropped, geometric mean of both.
  EXPECT_NEAR(out.result->score, std::sqrt(out.result->passes[0].lpm * out.result->passes[1].lpm),
              1e-6 * out.result->score);
}

namespace {
/// UnixBench's directory (src/, pgms/, testdir/): $RLAB_UNIXBENCH, else the reference copy
/// beside the checkout; "" when neither exists.
std::filesystem::path unixbench_dir() {
  namespace fs = std::filesystem;
  for (const char* c : {static_cast<const char*>(std::getenv("RLAB_UNIXBENCH")), static_cast<const char*>(RLAB_REFERENCE_UNIXBENCH)})
    if (c && *c && fs::exists(fs::path(c) / "src" / "looper.c")) return c;
  return {};
}
/// `packed`/pgms/{looper (built host-native), multi.sh, tst.sh} and testdir/sort.src from `ub`.
void pack_unixbench(const std::filesystem::path& ub, const std::filesystem::path& packed) {
  std::filesystem::create_directories(packed / "pgms");
  std::filesystem::create_directories(packed / "testdir");
  std::filesystem::copy_file(ub / "pgms" / "multi.sh", packed / "pgms" / "multi.sh");
  std::filesystem::copy_file(ub / "pgms" / "tst.sh", packed / "pgms" / "tst.sh");
  std::filesystem::copy_file(ub / "testdir" / "sort.src", packed / "testdir" / "sort.src");
  int st = 0;
  std::string err;
  run_capture({"cc", "-O2", "-w", "-o", (packed / "pgms" / "looper").string(), (ub / "src" / "looper.c").string()}, &st, &err);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << err;
}
/// A run of UnixBench's runner from `packed` (pack_unixbench) in a fresh host-native agent:
/// `copies` loopers, `passes` passes of 2 s, no pause; what the agent sent back.
RunOutcome run_unixbench(const TempDir& dir, const std::filesystem::path& packed, std::uint32_t copies, std::uint32_t passes) {
  Process agent({agent_binary(), "--listen", "unix:" + (dir.path / "agent.sock").string()});
  Client c = Client::connect_unix(dir.path / "agent.sock", 10s);
  EXPECT_TRUE(c.next_of<rp::Hello>().has_value());
  rp::Run r;
  r.id = 11;
  r.copies = copies;
  r.passes = passes;
  r.duration_s = 2;
  r.workdir = (dir.path / "work").string();
  r.pause_s = 0;
  r.runner = rlab::protocol::Runner::unixbench;
  r.unixbench_dir = packed.string();
  c.send(r);
  return collect(c, 90s);
}
}  // namespace

// UnixBench's own looper, multi.sh and tst.sh run by the agent (runner "unixbench"); looper is
// built host-native here, for aarch64 by rlab for guests.
TEST(Run, UnixBenchRunnerCountsLikeUnixBenchsRun) {
  const auto ub = unixbench_dir();
  if (ub.empty()) GTEST_SKIP() << "no UnixBench: set RLAB_UNIXBENCH to a UnixBench directory (src/, pgms/, testdir/)";
  TempDir dir;
  const auto packed = dir.path / "ub";
  ASSERT_NO_FATAL_FAILURE(pack_unixbench(ub, packed));

  const auto out = run_unixbench(dir, packed, 2, 2);
  ASSERT_TRUE(out.result.has_value());
  ASSERT_EQ(out.result->passes.size(), 2u);
  EXPECT_EQ(out.result->failures, 0u) << (out.result->failure_examples.empty() ? "" : out.result->failure_examples[0]);
  for (const auto& p : out.result->passes) {
    EXPECT_GT(p.loops, 0u) << "the loopers' COUNT lines, summed";
    // Run's pass time is the copies' mean elapsed time: the 2 s alarm plus start, exit and the
    // orphaned last multi.sh.
    EXPECT_EQ(p.window_s, 2.0);
    EXPECT_GE(p.duration_s, 2.0);
    EXPECT_LT(p.duration_s, 4.0);
    EXPECT_NEAR(p.lpm, double(p.loops) * 60 / p.duration_s, 1e-9);
    EXPECT_GT(p.counters.forks, p.loops * 4) << "multi.sh, tst.sh and its pipeline per loop";
  }
  EXPECT_TRUE(std::filesystem::exists(dir.path / "work" / "pgms" / "looper"));
  EXPECT_TRUE(std::filesystem::exists(dir.path / "work" / "testdir" / "sort.src"));
  std::size_t left = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path / "work" / "testdir")) left += e.path().filename() != "sort.src";
  EXPECT_EQ(left, 0u) << "every tst.sh removed its files before the pass ended";
}

// Run times a copy until EOF on its output pipe, which the multi.sh in flight at the looper's
// alarm holds open: with a multi.sh of 1.5 s and a 2 s alarm the second loop is orphaned at 2 s
// and ends at about 3 s, so the pass's time is about 3 s for 1 counted loop.
TEST(Run, UnixBenchRunnerTimesACopyUntilItsOrphanedLoopEnds) {
  const auto ub = unixbench_dir();
  if (ub.empty()) GTEST_SKIP() << "no UnixBench: set RLAB_UNIXBENCH to a UnixBench directory (src/, pgms/, testdir/)";
  TempDir dir;
  const auto packed = dir.path / "ub";
  ASSERT_NO_FATAL_FAILURE(pack_unixbench(ub, packed));
  std::filesystem::remove(packed / "pgms" / "multi.sh");
  ASSERT_TRUE(rlab::agent::write_file(packed / "pgms" / "multi.sh", "#!/bin/sh\nsleep 1.5\n"));
  std::filesystem::permissions(packed / "pgms" / "multi.sh", std::filesystem::perms(0755));

  const auto out = run_unixbench(dir, packed, 1, 1);
  ASSERT_TRUE(out.result.has_value());
  ASSERT_EQ(out.result->passes.size(), 1u);
  const auto& p = out.result->passes[0];
  EXPECT_EQ(p.loops, 1u);
  EXPECT_EQ(p.window_s, 2.0);
  EXPECT_GT(p.duration_s, 2.8) << "the orphaned second multi.sh keeps the copy's pipe open until about 3 s";
  EXPECT_LT(p.duration_s, 4.0);
  EXPECT_NEAR(p.lpm, 60.0 / p.duration_s, 1e-9);
}
