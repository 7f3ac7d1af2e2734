// UnixBench score arithmetic against hand-computed values.
#include <gtest/gtest.h>

#include "rlab/protocol/score.hpp"

using rlab::protocol::unixbench_score;

TEST(Score, ThreePassesDropOneWorst) {
  // drop 100; sqrt(200 * 450) = sqrt(90000) = 300
  EXPECT_DOUBLE_EQ(unixbench_score({200, 100, 450}), 300.0);
}

TEST(Score, TwoPassesDropNone) {
  // int(2/3) = 0: sqrt(100 * 400) = 200
  EXPECT_DOUBLE_EQ(unixbench_score({100, 400}), 200.0);
}

TEST(Score, SixPassesDropTwo) {
  // drop 1 and 2; (8 * 8 * 27 * 27)^(1/4) = sqrt(8 * 27) = sqrt(216) = 14.6969...
  EXPECT_NEAR(unixbench_score({8, 1, 27, 2, 8, 27}), 14.696938456699067, 1e-12);
}

TEST(Score, SinglePass) { EXPECT_DOUBLE_EQ(unixbench_score({42.4}), 42.4); }

TEST(Score, ZeroKeptPassGivesZeroAndNoPassesGiveZero) {
  EXPECT_EQ(unixbench_score({0, 0, 5}), 0.0);  // drops one 0, keeps a 0
  EXPECT_NEAR(unixbench_score({0, 5, 5}), 5.0, 1e-12);  // the 0 is the dropped worst
  EXPECT_EQ(unixbench_score({}), 0.0);
}
