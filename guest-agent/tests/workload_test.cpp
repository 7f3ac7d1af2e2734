// The load's own files: the input's proportions, and one real loop with /bin/sh and GNU tools.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <fstream>

#include "common/fileio.hpp"
#include "harness.hpp"
#include "load/shell_run.hpp"
#include "load/placement.hpp"
#include "load/workload_files.hpp"
#include "rlab/protocol/messages.hpp"

#include <openssl/sha.h>

using namespace rlab::agent;

namespace {
std::string sha256_hex(const std::string& data) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), md);
  std::string hex;
  for (unsigned char b : md) {
    static const char* d = "0123456789abcdef";
    hex += d[b >> 4];
    hex += d[b & 15];
  }
  return hex;
}
}  // namespace

TEST(Workload, InputHasUnixBenchsFiguresExactly) {
  const InputStats got = input_stats(sort_input_text());
  const InputStats want = unixbench_input_stats();
  EXPECT_EQ(got.bytes, want.bytes);
  EXPECT_EQ(got.lines, want.lines);
  EXPECT_EQ(got.distinct_lines, want.distinct_lines);
  EXPECT_EQ(got.the_lines, want.the_lines);
  EXPECT_EQ(got.the_bytes, want.the_bytes);
  EXPECT_TRUE(got.printable_ascii);
  EXPECT_EQ(sort_input_text().back(), '\n');
  EXPECT_EQ(sha256_hex(sort_input_text()), rlab::protocol::kGeneratedInputSha256)
      << "the generator changed: update protocol::kGeneratedInputSha256 (stored results name it)";
}

TEST(Workload, InputStatsCountLinesTheMatchesAndDuplicates) {
  const InputStats s = input_stats("the end\nfi\nfi\nother\nno");
  EXPECT_EQ(s.bytes, 22u);
  EXPECT_EQ(s.lines, 5u);
  EXPECT_EQ(s.distinct_lines, 4u);
  EXPECT_EQ(s.the_lines, 2u);
  EXPECT_EQ(s.the_bytes, 8u + 6u);
  EXPECT_FALSE(input_stats("a\tb\n").printable_ascii);
}

TEST(Workload, OneRealLoopLeavesOnlyTheInputBehind) {
  test::TempDir dir;
  ASSERT_TRUE(write_file(dir.path / "sort.src", sort_input_text()));
  ASSERT_TRUE(write_file(dir.path / "copy.sh", copy_script_text()));
  ASSERT_TRUE(write_file(dir.path / "loop.sh", loop_script_text()));
  test::Process sh({"/usr/bin/env", "-C", dir.path.string(), "LANG=C", "RLAB_PGMS=" + dir.path.string(),
                    "/bin/sh", "./loop.sh", "8"});
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

TEST(Workload, LoopExitsZeroEvenWhenItsCopiesFailAsMultiShDoes) {
  test::TempDir dir;
  // No sort.src: every copy's first step fails, and says so on stderr.
  ASSERT_TRUE(write_file(dir.path / "copy.sh", copy_script_text()));
  ASSERT_TRUE(write_file(dir.path / "loop.sh", loop_script_text()));
  int st = 0;
  std::string err;
  test::run_capture({"/usr/bin/env", "-C", dir.path.string(), "RLAB_PGMS=" + dir.path.string(), "/bin/sh",
                     "./loop.sh", "2"},
                    &st, &err);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_NE(err.find("sort.src"), std::string::npos) << err;
}

TEST(Workload, LooperCountLine) {
  EXPECT_EQ(parse_looper_count("COUNT|1234|60|lpm\n"), 1234u);
  EXPECT_EQ(parse_looper_count("noise\nCOUNT|7|60|lpm"), 7u);
  EXPECT_FALSE(parse_looper_count("Bad wait status: 0x100\n").has_value());
  EXPECT_FALSE(parse_looper_count("COUNT||60|lpm").has_value());
  EXPECT_FALSE(parse_looper_count("COUNT|12").has_value());
}

TEST(Placement, SuperblockGeometry) {
  std::string sb(512, '\0');
  sb.replace(0, 4, "XFSB");
  sb[6] = 0x10;         // sb_blocksize = 4096
  sb[86] = 1;           // sb_agblocks = 65536
  sb[91] = 4;           // sb_agcount = 4 (big-endian)
  sb[102] = 2;          // sb_sectsize = 512
  sb[123] = 3;          // sb_inopblog: 8 inodes per block
  sb[124] = 16;         // sb_agblklog
  const auto g = parse_superblock(sb);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->agcount, 4u);
  EXPECT_EQ(g->agino_log, 19u);
  EXPECT_EQ(g->ag_of_inode(133), 0u);
  EXPECT_EQ(g->ag_of_inode(1048704), 2u);  // 1048704 >> 19
  EXPECT_EQ(g->ag_of_inode(3145856), 6u);
  EXPECT_FALSE(parse_superblock(sb.substr(0, 100)).has_value());
  sb[124] = 0, sb[123] = 0;
  EXPECT_FALSE(parse_superblock(sb).has_value()) << "no inode numbering";
  sb[124] = 16;
  sb[0] = 'Y';
  EXPECT_FALSE(parse_superblock(sb).has_value());
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
