// Differential flame graphs (attribution/flame.hpp): the merged tree's inclusive times per
// 1,000 loops, the order of frames per family, totals left out, and the SVG's boxes, titles and
// colours read back with XPath.
#include "attribution/flame.hpp"
#include "vm/xml.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using rlab::attribution::BootProfile;
using rlab::attribution::Family;
using rlab::attribution::FlameNode;

BootProfile flame_profile(std::uint64_t loops, std::map<std::string, double> offcpu) {
  BootProfile p;
  p.loops = loops;
  p.values[Family::offcpu] = std::move(offcpu);
  p.collected.insert(Family::offcpu);
  p.any_pass = true;
  return p;
}

const FlameNode* child(const FlameNode& n, const std::string& frame) {
  for (const auto& c : n.children)
    if (c.frame == frame) return &c;
  return nullptr;
}

TEST(FlameTree, MergesBothSidesOutermostFirstPerThousandLoopsAndLeavesTotalsOut) {
  // Off-CPU keys: state, then frames innermost first. Two base boots (mean), one new boot.
  const std::vector<BootProfile> base{
      flame_profile(1000, {{"[D all]", 9e9}, {"D;xfs_buf_lock;xfs_read_agi;xfs_iunlink", 2e6}, {"S;schedule;do_wait", 1e6}}),
      flame_profile(2000, {{"D;xfs_buf_lock;xfs_read_agi;xfs_iunlink", 8e6}, {"S;schedule;do_wait", 2e6}})};
  const std::vector<BootProfile> next{
      flame_profile(1000, {{"D;xfs_buf_lock;xfs_read_agi;xfs_iunlink", 9e6}, {"D;xfs_buf_lock;xfs_read_agf;xfs_alloc", 1e6},
                  {"[D other stacks]", 5e5}})};
  const FlameNode root = rlab::attribution::flame_tree(base, next, Family::offcpu);
  EXPECT_EQ(root.frame, "all");
  EXPECT_DOUBLE_EQ(root.base, (2e6 + 1e6) / 2 + (4e6 + 1e6) / 2);  // per 1,000 loops, mean of 2 boots
  EXPECT_DOUBLE_EQ(root.next, 9e6 + 1e6 + 5e5);
  const FlameNode* d = child(root, "D");
  ASSERT_NE(d, nullptr);
  const FlameNode* unlink = child(*d, "xfs_iunlink");
  ASSERT_NE(unlink, nullptr) << "the outermost frame comes right after the state";
  ASSERT_EQ(unlink->children.size(), 1u);
  EXPECT_EQ(unlink->children[0].frame, "xfs_read_agi");
  EXPECT_DOUBLE_EQ(unlink->base, 3e6);
  EXPECT_DOUBLE_EQ(unlink->next, 9e6);
  const FlameNode* alloc = child(*d, "xfs_alloc");
  ASSERT_NE(alloc, nullptr);
  EXPECT_DOUBLE_EQ(alloc->base, 0);
  EXPECT_NE(child(root, "[D other stacks]"), nullptr) << "what the guest did not keep is a frame of its own";
  EXPECT_EQ(child(root, "[D all]"), nullptr) << "a total is not a stack";
  ASSERT_NE(child(root, "S"), nullptr);
  EXPECT_DOUBLE_EQ(child(root, "S")->next, 0);
}

TEST(FlameTree, OnlyStackFamiliesHaveATree) {
  BootProfile p;
  p.loops = 100;
  p.values[Family::tracepoint]["xfs:xfs_inodegc_queue"] = 5;
  EXPECT_TRUE(rlab::attribution::flame_tree({p}, {p}, Family::tracepoint).children.empty());
}

TEST(FlameSvg, OneBoxPerVisibleFrameWithTitlesAndChangeColours) {
  const FlameNode root = rlab::attribution::flame_tree(
      {flame_profile(1000, {{"D;xfs_buf_lock;xfs_read_agi", 1e6}, {"S;schedule", 1e6}})},
      {flame_profile(1000, {{"D;xfs_buf_lock;xfs_read_agi", 4e6}, {"S;schedule", 1e6}})}, Family::offcpu);
  rlab::attribution::FlameSvgOptions o;
  o.title = "off-CPU: good -> bad";
  o.base_label = "good";
  o.new_label = "bad";
  const std::string svg = rlab::attribution::flame_svg(root, o);
  const rlab::vm::XmlDoc doc(svg, "flame graph");  // throws unless well-formed
  auto count = [&](const std::string& xpath) { return std::stoi(doc.text("count(" + xpath + ")")); };
  EXPECT_EQ(count("//*[local-name()='g'][@class='frame']"), 6) << "all, D, xfs_read_agi, xfs_buf_lock, S, schedule";
  EXPECT_EQ(count("//*[local-name()='g'][@class='frame']/*[local-name()='title'][starts-with(., 'xfs_read_agi: good 1.000 ms -> bad 4.000 ms per 1,000 loops (+300.0%)')]"), 1)
      << svg;
  EXPECT_EQ(count("//*[local-name()='g'][*[local-name()='title'][starts-with(., 'xfs_read_agi')]]/*[local-name()='rect'][@fill='#ff3737']"), 1) << "x4 is full red";
  EXPECT_EQ(count("//*[local-name()='g'][*[local-name()='title'][starts-with(., 'schedule')]]/*[local-name()='rect'][@fill='#ffffff']"), 1) << "unchanged is white";
  EXPECT_EQ(count("//*[local-name()='text'][.='no stacks']"), 0);
  EXPECT_NE(rlab::attribution::flame_svg(FlameNode{"all", 0, 0, {}}, o).find("no stacks"), std::string::npos);
}

}  // namespace
