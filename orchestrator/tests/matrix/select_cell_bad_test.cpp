// select_cell_id's refusals with careless selectors: the message stays short and names each
// cell once, however many boots a run's id list repeats it for.
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using rlab::matrix::select_cell_id;

std::string refusal(const std::vector<std::string>& ids, const std::string& selector) {
  try {
    select_cell_id(ids, selector);
  } catch (const rlab::UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(SelectCellBad, CellsOfAStoredRunAreListedOnceEachNotOncePerBoot) {
  // A stored run's ids come one per boot: two repeats of two cells.
  const std::vector<std::string> ids{"6.12/xfs-defaults/2vcpu/warm", "6.12/xfs-defaults/2vcpu/warm",
                                     "6.12/xfs-defaults/2vcpu/naive", "6.12/xfs-defaults/2vcpu/naive"};
  EXPECT_EQ(refusal(ids, "6.12/xfs-defaults/1vcpu/shell1"),
            "no cell matches '6.12/xfs-defaults/1vcpu/shell1'; cells: 6.12/xfs-defaults/2vcpu/warm, "
            "6.12/xfs-defaults/2vcpu/naive");
  EXPECT_EQ(refusal(ids, "defaults"),
            "'defaults' matches 2 cells, name one: 6.12/xfs-defaults/2vcpu/warm, 6.12/xfs-defaults/2vcpu/naive");
}

TEST(SelectCellBad, HugeSelectorIsEchoedCutTo80Bytes) {
  const std::vector<std::string> ids{"k/xfs-defaults/1vcpu/shell1", "k/ext4-defaults/1vcpu/shell1"};
  const std::string huge(100000, 'a');
  EXPECT_EQ(refusal(ids, huge), "no cell matches '" + std::string(80, 'a') +
                                    "...'; cells: k/xfs-defaults/1vcpu/shell1, k/ext4-defaults/1vcpu/shell1");
  const std::string long_part = "defaults/1vcpu/shell1" + std::string(0, 'x');
  EXPECT_NE(refusal(ids, long_part).find("matches 2 cells"), std::string::npos);
}

}  // namespace
