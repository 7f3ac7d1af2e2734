// More boots for cells of a stored run (a night re-measuring): numbered after each cell's last
// repeat, ordered after the run's boots, interleaved, pending; a cell the run lacks is refused.
#include "matrix/matrix.hpp"
#include "store/store.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

matrix::Cell cell(const std::string& id) {
  matrix::Cell c;
  c.kernel.name = "6.12";
  c.filesystem = {matrix::Fs::kXfs, {}, "", "defaults"};
  c.vcpus = c.copies = 1;
  c.page_size = 65536;
  c.workload = {"shell1", "shell1", 1, std::nullopt, 1, 10.0};
  c.id = id;
  return c;
}

}  // namespace

TEST(StoreAddRepeats, NewBootsFollowEachCellsLastRepeatInterleavedAndPending) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-add-repeats-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto st = store::Store::open(dir / "rlab.db");
  const auto run = st->create_run({"m.yaml", "kernels: {}", 1, "nightly", ""});
  st->add_cells(run, matrix::cell_rows({cell("a"), cell("b"), cell("k")}), 2);
  int order = 0;
  for (const auto& b : st->boots(run)) st->set_boot_order(b.id, order++);

  EXPECT_EQ(st->add_repeats(run, {{"a", 3}, {"k", 1}}), 4u);
  std::vector<std::string> added;
  for (const auto& b : st->unfinished_boots(run))
    if (b.repeat >= 2) {
      added.push_back(b.cell_id + "#" + std::to_string(b.repeat));
      EXPECT_EQ(b.status, store::BootStatus::pending);
      EXPECT_GE(b.order_index, 6) << "after the run's own boots";
    }
  EXPECT_EQ(added, (std::vector<std::string>{"a#2", "k#2", "a#3", "a#4"}));
  EXPECT_THROW(st->add_repeats(run, {{"nosuch", 1}}), store::StoreError);
  EXPECT_EQ(st->boots(run).size(), 10u) << "a refused request adds nothing";
  fs::remove_all(dir);
}
