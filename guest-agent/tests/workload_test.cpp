// The load's own files: the input's proportions, and one real loop with /bin/sh and GNU tools.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <fstream>

#include "fileio.hpp"
#include "harness.hpp"
#include "shell_run.hpp"
#include "workload_files.hpp"

using namespace rlab::agent;

TEST(Workload, InputTextProportions) {
  const std::string& t = sort_input_text();
  EXPECT_GE(t.size(), 8000u);
  EXPECT_LE(t.size(), 9000u);
  std::size_t lines = 0, with_the = 0, start = 0;
  while (start < t.size()) {
    auto nl = t.find('\n', start);
    ASSERT_NE(nl, std::string::npos) << "ends with a newline";
    if (t.substr(start, nl - start).find("the") != std::string::npos) ++with_the;
    ++lines;
    start = nl + 1;
  }
  EXPECT_GE(lines, 340u);
  EXPECT_LE(lines, 380u);
  EXPECT_GT(with_the, 10u);
  EXPECT_LT(with_the, lines);
  for (unsigned char c : t) EXPECT_TRUE(c == '\n' || (c >= 32 && c < 127)) << int(c);
}

TEST(Workload, OneRealLoopLeavesNothingBehind) {
  test::TempDir dir;
  ASSERT_TRUE(write_file(dir.path / "sort.src", sort_input_text()));
  ASSERT_TRUE(write_file(dir.path / "copy.sh", copy_script_text()));
  ASSERT_TRUE(write_file(dir.path / "loop.sh", loop_script_text()));
  test::Process sh({"/bin/sh", "-c", "cd '" + dir.path.string() + "' && LANG=C /bin/sh ./loop.sh 8"});
  auto st = sh.wait(std::chrono::seconds(30));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 0);
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 3u) << "every copy removed its sort/od/grep/wc files";
}

TEST(Workload, LoopFailsWhenOneCopyFails) {
  test::TempDir dir;
  // No sort.src: every copy's first step fails.
  ASSERT_TRUE(write_file(dir.path / "copy.sh", copy_script_text()));
  ASSERT_TRUE(write_file(dir.path / "loop.sh", loop_script_text()));
  test::Process sh({"/bin/sh", "-c", "cd '" + dir.path.string() + "' && /bin/sh ./loop.sh 2 2>/dev/null"});
  auto st = sh.wait(std::chrono::seconds(30));
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 1);
}

TEST(Workload, LatencyHistogramBuckets) {
  rlab::protocol::Histogram h;
  h.bounds_s = {0.1, 1};
  h.counts.assign(3, 0);
  for (double s : {0.05, 0.1, 0.5, 1.0, 3.0, 4.0}) histogram_add(h, s);
  EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{2, 2, 2}));
  EXPECT_DOUBLE_EQ(h.sum_s, 8.65);
  EXPECT_DOUBLE_EQ(h.max_s, 4.0);
}
