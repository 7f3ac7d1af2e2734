#include <gtest/gtest.h>

#include "rlab/protocol/framing.hpp"

namespace rp = rlab::protocol;

namespace {
std::vector<std::string> lines_of(const std::vector<rp::Frame>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) out.push_back(std::holds_alternative<std::string>(f) ? std::get<std::string>(f) : "<oversized>");
  return out;
}
}  // namespace

TEST(Framing, SplitsAndJoinsAcrossFeeds) {
  rp::LineFramer f;
  EXPECT_TRUE(f.feed("{\"a\":").empty());
  EXPECT_EQ(f.pending(), 5u);
  EXPECT_EQ(lines_of(f.feed("1}\n{\"b\":2}\r\n{\"c\"")), (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
  EXPECT_EQ(lines_of(f.feed(":3}\n\n")), (std::vector<std::string>{"{\"c\":3}", ""}));
  EXPECT_EQ(f.pending(), 0u);
}

TEST(Framing, ByteAtATime) {
  rp::LineFramer f;
  std::vector<std::string> got;
  for (char c : std::string("ab\ncd\n")) for (auto& l : lines_of(f.feed(std::string(1, c)))) got.push_back(l);
  EXPECT_EQ(got, (std::vector<std::string>{"ab", "cd"}));
}

TEST(Framing, LimitIsInclusiveOfNewline) {
  rp::LineFramer f(8);
  EXPECT_EQ(lines_of(f.feed("1234567\n")), (std::vector<std::string>{"1234567"}));  // 8 bytes: fits
  EXPECT_EQ(lines_of(f.feed("12345678\nok\n")), (std::vector<std::string>{"<oversized>", "ok"}));
}

TEST(Framing, OversizedReportedOnceThenResumes) {
  rp::LineFramer f(16);
  auto a = lines_of(f.feed(std::string(10, 'x')));
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(lines_of(f.feed(std::string(10, 'x'))), (std::vector<std::string>{"<oversized>"}));
  EXPECT_EQ(f.pending(), 0u) << "discarded bytes are not kept";
  EXPECT_TRUE(f.feed(std::string(100, 'y')).empty());
  EXPECT_EQ(lines_of(f.feed("zz\nnext\n")), (std::vector<std::string>{"next"}));
}

TEST(Framing, RealLimitIsOneMiB) {
  rp::LineFramer f;
  std::string big(rp::kMaxLineBytes - 1, 'a');
  auto ok = f.feed(big + "\n");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(std::get<std::string>(ok[0]).size(), rp::kMaxLineBytes - 1);
  auto over = f.feed(big + "a\n{}\n");
  ASSERT_EQ(over.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<rp::Oversized>(over[0]));
  EXPECT_EQ(std::get<std::string>(over[1]), "{}");
}

TEST(Framing, ResetDropsPartialLine) {
  rp::LineFramer f;
  f.feed("partial");
  f.reset();
  EXPECT_EQ(lines_of(f.feed("x\n")), (std::vector<std::string>{"x"}));
}
