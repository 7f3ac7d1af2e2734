// The batch runner's host steps without a libvirt that answers: a silent host is surveyed, not
// thrown; a batch none of whose hosts answers builds and boots nothing, keeps its boots for a
// resume and stores the run as failed. (The steps that boot are tested against real guests:
// RealRun.*, RealNoise.*, RealShortBisect.*, RealKvmHost.*.)
#include "run/batch.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace rlab;

namespace {

const char* const kSilent = "qemu+unix:///system?socket=/nonexistent/rlab-batch-test.sock";

/// Two kernels x 1 filesystem x 1 vCPU count, 2 repeats: 2 cells, 4 boots; one host that does
/// not exist.
matrix::Matrix silent_matrix() {
  matrix::LoadOptions lo;
  lo.check_paths = false;
  return matrix::parse_matrix(std::string("kernels:\n"
                                          "  base: {source: {git: /nonexistent/tree, ref: HEAD}}\n"
                                          "  other: {source: {git: /nonexistent/tree, ref: HEAD~1}}\n"
                                          "axes:\n"
                                          "  kernel: [base, other]\n"
                                          "  vcpus: [1]\n"
                                          "  filesystem: [{fs: xfs}]\n"
                                          "  workload: [{type: shell1, passes: 1, duration_s: 5}]\n"
                                          "  repeats: 2\n"
                                          "guest: {accel: tcg}\n"
                                          "hosts:\n  - {uri: \"") +
                                  kSilent + "\", vcpus: 2}\n",
                              "silent.yaml", lo);
}

/// Counts what the runner told it.
struct CountingSink : run::BatchSink {
  int building_lines = 0, started = 0, boots_finished = 0;
  void building(const std::string&, std::string_view, std::string_view) override { ++building_lines; }
  void starting(std::size_t, double) override { ++started; }
  void finished(const run::Job&, const run::BootOutcome&) override { ++boots_finished; }
};

}  // namespace

TEST(BatchSurvey, AHostThatDoesNotAnswerIsListedWithItsReasonNotThrown) {
  const auto m = silent_matrix();
  const auto cells = matrix::expand_cells(m);
  const run::HostSurvey s = run::survey_hosts(m, cells);
  EXPECT_TRUE(s.answering.empty());
  ASSERT_EQ(s.silence.size(), 1u);
  EXPECT_NE(s.silence[0].find("rlab-batch-test.sock"), std::string::npos) << s.silence[0];
  ASSERT_EQ(s.unreachable.size(), 1u);
  EXPECT_EQ(s.unreachable[0].uri, kSilent);
  EXPECT_EQ(s.unreachable[0].reason, s.silence[0]);
  ASSERT_EQ(s.runs.size(), cells.size()) << "one row per cell";
  EXPECT_TRUE(s.runs[0].empty()) << "no answering host to run it";
  EXPECT_TRUE(s.unrunnable.empty()) << "with no host answering, which cell runs where is not known";
}

TEST(BatchRunner, NoHostAnswersNothingBuiltOrBootedRunFailedBootsKeptForResume) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-batch-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto m = silent_matrix();
  const auto cells = matrix::expand_cells(m);
  auto st = store::Store::open(dir / "rlab.db");
  const auto run_id = st->create_run({"silent.yaml", "", 1, "matrix", ""});
  st->add_cells(run_id, matrix::cell_rows(cells), 2);
  std::vector<run::Job> order;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < cells.size(); ++i) index[cells[i].id] = i;
  for (const auto& b : st->boots(run_id)) order.push_back({b.id, index.at(b.cell_id), b.repeat, 1, 0});
  ASSERT_EQ(order.size(), 4u);

  run::Batch batch{st.get(), run_id, &m, cells, order, run::HostUse::kAll, false, false, "", "resume it so"};
  CountingSink sink;
  try {
    run::run_batch(batch, sink);
    FAIL() << "a batch without hosts ran";
  } catch (const run::HostsDrainedError& e) {
    EXPECT_NE(std::string(e.what()).find("no host answers, nothing booted"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(kSilent), std::string::npos) << e.what();
  }
  EXPECT_EQ(sink.building_lines, 0) << "hosts come before kernels: nothing is built for a lab that cannot boot";
  EXPECT_EQ(sink.started, 0);
  EXPECT_EQ(sink.boots_finished, 0);
  EXPECT_EQ(st->run(run_id)->status, store::RunStatus::failed);
  EXPECT_EQ(st->unfinished_boots(run_id, false).size(), 4u) << "every boot is left for `rlab run --resume`";
  st.reset();
  fs::remove_all(dir);
}
