// Percentage and ETA of a running kernel build: the arithmetic, the reference build chosen
// from (fake) cache entries, the status line, and run_logged() against a fake `make`.
#include "build/build_progress.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rlab::build {
namespace {

namespace fs = std::filesystem;

/// A fake kernel cache entry (no files unless the test writes them).
CacheEntry kernel_entry(const std::string& key, nlohmann::json manifest, fs::path dir = {}) {
  CacheEntry e;
  e.kind = rlab::build::CacheKind::kernel;
  e.key = key;
  e.dir = std::move(dir);
  e.manifest = std::move(manifest);
  return e;
}

nlohmann::json manifest(const std::string& name, const std::string& source, const std::string& config,
                        long long created, std::size_t steps, double seconds = 0) {
  return {{"name", name}, {"source_identity", source}, {"config_sha256", config},
          {"created", created}, {"build_steps", steps}, {"build_seconds", seconds}};
}

const std::string k612 = "debian:linux-source-6.12@trixie";

TEST(BuildProgress, PercentIsRoundedDownAndStaysBelowHundredWhileMakeRuns) {
  EXPECT_EQ(build_percent(0, 1000), 0u);
  EXPECT_EQ(build_percent(400, 1000), 40u);
  EXPECT_EQ(build_percent(1, 3), 33u);
  EXPECT_EQ(build_percent(999, 1000), 99u);
  EXPECT_EQ(build_percent(1000, 1000), 99u) << "done only when make exits";
  EXPECT_EQ(build_percent(5000, 1000), 99u);
  EXPECT_FALSE(build_percent(10, 0).has_value()) << "no reference, no percentage";
}

TEST(BuildProgress, EtaIsTheRemainingStepsAtTheRateSoFar) {
  // 250 steps in 100 s: 0.4 s a step, 750 steps left.
  ASSERT_TRUE(build_eta_s(100, 250, 1000).has_value());
  EXPECT_NEAR(*build_eta_s(100, 250, 1000), 300, 1e-9);
  // The rate changes the answer, not just the count: twice as slow, twice as long.
  EXPECT_NEAR(*build_eta_s(200, 250, 1000), 600, 1e-9);
  EXPECT_NEAR(*build_eta_s(90, 900, 1000), 10, 1e-9);
  EXPECT_FALSE(build_eta_s(100, 0, 1000).has_value()) << "no rate before the first step";
  EXPECT_FALSE(build_eta_s(kMinEtaElapsedS - 1, 5, 1000).has_value()) << "too early for a rate";
  EXPECT_TRUE(build_eta_s(kMinEtaElapsedS, 5, 1000).has_value());
  EXPECT_FALSE(build_eta_s(100, 50, 0).has_value()) << "no reference";
  EXPECT_FALSE(build_eta_s(100, 1000, 1000).has_value()) << "at the reference's count";
  EXPECT_FALSE(build_eta_s(100, 1200, 1000).has_value()) << "past it";
}

TEST(BuildProgress, StatusLineSaysWhenItIsAnEstimate) {
  StepBasis same{1000, false, "the last build of this source and config"};
  StepBasis other{1000, true, "another kernel"};
  EXPECT_EQ(build_status(120, 400, same), "[ 120s, 400/1000 steps, 40%, ETA 3m00s]");
  EXPECT_EQ(build_status(120, 400, other), "[ 120s, 400/~1000 steps, ~40%, ETA ~3m00s, estimate]");
  EXPECT_EQ(build_status(300, 1200, same), "[ 300s, 1200/1000 steps, 99%, ETA ?]");
  EXPECT_EQ(build_status(0.4, 0, same), "[   0s, 0/1000 steps, 0%, ETA ?]");
  EXPECT_EQ(build_status(3, 40, other), "[   3s, 40/~1000 steps, ~4%, ETA ?, estimate]") << "too early";
  EXPECT_EQ(build_status(42, 17, StepBasis{}), "[  42s, 17 steps]") << "no basis: steps only";
}

TEST(BuildProgress, BasisPrefersTheNewestBuildOfTheSameSourceAndConfig) {
  std::vector<CacheEntry> cache{
      kernel_entry("aaaa", manifest("6.12", k612, "cfg1", 100, 2000)),
      kernel_entry("bbbb", manifest("6.12+patch", k612, "cfg1", 300, 2100)),
      kernel_entry("cccc", manifest("6.6", "debian:linux-source-6.6@bookworm", "cfg2", 500, 1800)),
      kernel_entry("dddd", manifest("6.12-big", k612, "cfg3", 900, 9000))};
  auto b = choose_step_basis(cache, k612, "cfg1");
  EXPECT_EQ(b.steps, 2100u);
  EXPECT_FALSE(b.estimate);
  EXPECT_NE(b.from.find("6.12+patch"), std::string::npos) << b.from;

  // Another config of the same source is only an estimate: the newest kernel of any kind.
  b = choose_step_basis(cache, k612, "cfg-new");
  EXPECT_EQ(b.steps, 9000u);
  EXPECT_TRUE(b.estimate);
  EXPECT_NE(b.from.find("6.12-big"), std::string::npos) << b.from;
}

TEST(BuildProgress, BasisSkipsIncrementalBuildsAndImagesAndFallsBackToTheTypicalCount) {
  auto partial = manifest("6.12", k612, "cfg1", 900, 40);
  partial["build_from_scratch"] = false;  // resumed an interrupted build: 40 lines say nothing
  CacheEntry image;
  image.kind = rlab::build::CacheKind::image;
  image.manifest = manifest("initramfs", k612, "cfg1", 999, 12);
  std::vector<CacheEntry> cache{kernel_entry("aaaa", manifest("6.12", k612, "cfg1", 100, 2000)),
                                kernel_entry("bbbb", partial), image};
  auto b = choose_step_basis(cache, k612, "cfg1");
  EXPECT_EQ(b.steps, 2000u);
  EXPECT_FALSE(b.estimate);

  b = choose_step_basis({}, k612, "cfg1");
  EXPECT_EQ(b.steps, kTypicalBuildSteps);
  EXPECT_TRUE(b.estimate);
  EXPECT_NE(b.from.find("no kernel in the cache"), std::string::npos) << b.from;
}

TEST(BuildProgress, EntriesWithoutAStepCountAreCountedFromTheirBuildLog) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-steps-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "build.log") << "  CC      init/main.o\n  CC      fs/xfs/xfs_icache.o\n  LD      vmlinux\n";
  auto m = manifest("6.12", k612, "cfg1", 100, 0);
  m.erase("build_steps");  // built before build_steps was recorded
  EXPECT_EQ(entry_build_steps(kernel_entry("aaaa", m, dir)), 3u);
  EXPECT_EQ(entry_build_steps(kernel_entry("aaaa", m, dir / "missing")), 0u);
  fs::remove_all(dir);
}

TEST(BuildProgress, ExpectedBuildTimeIsTheLongestColdBuildOfTheSource) {
  auto warm = manifest("6.12+patch", k612, "cfg1", 300, 2100, 4000);
  warm["build_from_scratch"] = false;
  std::vector<CacheEntry> cache{
      kernel_entry("aaaa", manifest("6.12", k612, "cfg1", 100, 2000, 700)),
      kernel_entry("bbbb", manifest("6.12+patch", k612, "cfg1", 200, 2000, 90)),  // ccache-warm
      kernel_entry("cccc", warm),
      kernel_entry("dddd", manifest("6.6", "debian:linux-source-6.6@bookworm", "c", 400, 1800, 1500))};
  auto t = expected_build_time(cache, k612);
  EXPECT_DOUBLE_EQ(t.seconds, 700);
  EXPECT_NE(t.from.find("this source"), std::string::npos) << t.from;
  t = expected_build_time(cache, "git:/src/linux");
  EXPECT_DOUBLE_EQ(t.seconds, 1500);
  EXPECT_NE(t.from.find("another source"), std::string::npos) << t.from;
  EXPECT_DOUBLE_EQ(expected_build_time({}, k612).seconds, kTypicalBuildSeconds);
}

// A fake `make`: prints 20 lines over about 2 s. The reports carry the percentage against
// the basis, and the final count is every line.
TEST(BuildProgress, RunLoggedReportsPercentageWhileAFakeMakeRuns) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-fake-make-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  util::ProcessOptions o;
  o.log_file = dir / "build.log";
  o.timeout = std::chrono::seconds(60);
  std::vector<std::string> reports;
  Progress progress = [&](std::string_view phase, std::string_view detail) {
    EXPECT_EQ(phase, "build");
    reports.emplace_back(detail);
  };
  auto r = run_logged({"sh", "-c", "for i in $(seq 1 20); do echo \"  CC      f$i.o\"; sleep 0.1; done"}, o,
                      StepBasis{40, false, "fake"}, progress, std::chrono::milliseconds(300));
  EXPECT_TRUE(r.result.ok()) << r.result.exit_code;
  EXPECT_EQ(r.lines, 20u);
  ASSERT_GE(reports.size(), 3u);
  bool midway = false;
  for (const auto& line : reports) {
    EXPECT_NE(line.find("/40 steps, "), std::string::npos) << line;
    // Under kMinEtaElapsedS the ETA is "?"; its arithmetic is checked above.
    if (line.find(" 0%") == std::string::npos && line.find("%, ETA ?] ") != std::string::npos &&
        line.find("  CC      f") != std::string::npos)
      midway = true;
  }
  EXPECT_TRUE(midway) << "some report shows a percentage above 0 and the newest line";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rlab::build
