// The fidelity benchmark's matrix, and its rows: rlab / UnixBench, rlab / bare guest and
// UnixBench / bare guest per cell, medians over boots and the range of boots paired by repeat.
#include "results/fidelity.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using namespace rlab;

store::BootResult boot(const std::string& workload, const std::string& fs, unsigned vcpus, unsigned repeat,
                       std::optional<double> score) {
  store::BootResult b;
  b.workload = workload;
  b.fs = fs;
  b.vcpus = vcpus;
  b.repeat = repeat;
  b.score = score;
  b.status = score ? store::BootStatus::done : store::BootStatus::failed;
  return b;
}

TEST(Fidelity, MatrixHasTheBareGuestUnlessLeftOut) {
  results::FidelitySpec s;
  s.unixbench = "/opt/UnixBench";
  s.results = "/tmp/f.db";
  const std::string with = results::fidelity_matrix(s);
  EXPECT_NE(with.find("name: bare-shell1"), std::string::npos) << with;
  EXPECT_NE(with.find("runner: bare"), std::string::npos) << with;
  EXPECT_NE(with.find("name: unixbench-shell1"), std::string::npos) << with;
  s.bare = false;
  const std::string without = results::fidelity_matrix(s);
  EXPECT_EQ(without.find("bare-shell1"), std::string::npos) << without;
  EXPECT_EQ(without.find("runner: bare"), std::string::npos) << without;
  EXPECT_NE(without.find("name: rlab-shell1"), std::string::npos) << without;
}

TEST(Fidelity, RatiosToTheBareGuestWithPairedRanges) {
  const std::vector<store::BootResult> boots = {
      boot("rlab-shell1", "xfs", 1, 0, 208), boot("unixbench-shell1", "xfs", 1, 0, 206),
      boot("bare-shell1", "xfs", 1, 0, 220), boot("rlab-shell1", "xfs", 1, 1, 210),
      boot("unixbench-shell1", "xfs", 1, 1, 207), boot("bare-shell1", "xfs", 1, 1, 218),
      boot("shell1", "xfs", 1, 0, 999)};  // another workload: ignored
  const auto rows = results::fidelity_rows(boots);
  ASSERT_EQ(rows.size(), 1u);
  const auto& r = rows[0];
  EXPECT_EQ(r.bare_lpm, (std::vector<double>{220, 218}));
  ASSERT_TRUE(r.ratio);
  EXPECT_NEAR(*r.ratio, 209.0 / 206.5, 1e-12);
  ASSERT_TRUE(r.rlab_bare.ratio);
  EXPECT_NEAR(*r.rlab_bare.ratio, 209.0 / 219.0, 1e-12);
  EXPECT_NEAR(*r.rlab_bare.low, 208.0 / 220.0, 1e-12);
  EXPECT_NEAR(*r.rlab_bare.high, 210.0 / 218.0, 1e-12);
  EXPECT_EQ(r.rlab_bare.pairs, 2u);
  ASSERT_TRUE(r.unixbench_bare.ratio);
  EXPECT_NEAR(*r.unixbench_bare.ratio, 206.5 / 219.0, 1e-12);
  EXPECT_NEAR(*r.unixbench_bare.low, 206.0 / 220.0, 1e-12);
  EXPECT_NEAR(*r.unixbench_bare.high, 207.0 / 218.0, 1e-12);
}

TEST(Fidelity, AFailedBareBootLeavesItsRepeatUnpaired) {
  const std::vector<store::BootResult> boots = {
      boot("rlab-shell1", "ext4", 2, 0, 200), boot("bare-shell1", "ext4", 2, 0, std::nullopt),
      boot("rlab-shell1", "ext4", 2, 1, 202), boot("bare-shell1", "ext4", 2, 1, 210),
      boot("unixbench-shell1", "ext4", 2, 0, 199)};
  const auto rows = results::fidelity_rows(boots);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].rlab_bare.pairs, 1u);
  EXPECT_NEAR(*rows[0].rlab_bare.ratio, 201.0 / 210.0, 1e-12);
  EXPECT_NEAR(*rows[0].rlab_bare.low, 202.0 / 210.0, 1e-12);
  EXPECT_EQ(rows[0].unixbench_bare.pairs, 0u) << "repeat 0's bare boot failed, repeat 1 has no UnixBench boot";
  EXPECT_FALSE(rows[0].unixbench_bare.low);
  EXPECT_TRUE(rows[0].unixbench_bare.ratio) << "the medians still divide";
}

TEST(Fidelity, NoBareBootsNoBareRatios) {
  const auto rows = results::fidelity_rows({boot("rlab-shell1", "xfs", 1, 0, 208), boot("unixbench-shell1", "xfs", 1, 0, 206)});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].rlab_bare.ratio);
  EXPECT_FALSE(rows[0].unixbench_bare.ratio);
  std::ostringstream text;
  results::render_fidelity(rows, 0.98, 1.02, text);
  EXPECT_EQ(text.str().find("bare"), std::string::npos) << text.str();
  const auto j = results::fidelity_json(rows);
  EXPECT_TRUE(j[0]["rlab_bare"]["ratio"].is_null());
  EXPECT_EQ(j[0]["bare_lpm"].size(), 0u);
}

TEST(Fidelity, TextAndJsonCarryTheBareColumns) {
  const auto rows = results::fidelity_rows({boot("rlab-shell1", "xfs", 1, 0, 209), boot("unixbench-shell1", "xfs", 1, 0, 209),
                                            boot("bare-shell1", "xfs", 1, 0, 220)});
  std::ostringstream text;
  results::render_fidelity(rows, 0.98, 1.02, text);
  EXPECT_NE(text.str().find("rlab/bare"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("220.0 (1)"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("0.950"), std::string::npos) << text.str();  // 209 / 220
  const auto j = results::fidelity_json(rows);
  EXPECT_EQ(j[0]["bare_lpm"], nlohmann::json::array({220.0}));
  EXPECT_NEAR(j[0]["rlab_bare"]["ratio"].get<double>(), 209.0 / 220.0, 1e-12);
  EXPECT_EQ(j[0]["unixbench_bare"]["pairs"], 1);
  EXPECT_NEAR(j[0]["ratio"].get<double>(), 1.0, 1e-12);
}

}  // namespace
