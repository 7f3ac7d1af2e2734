// Session tables on a real store file: sessions, batches as store runs, samples read back from
// the boots, steps replaced per commit, and a second connection seeing the same state.
#include "kernel_bisect/lab.hpp"
#include "kernel_bisect/session.hpp"
#include "kernel_bisect/vm_lab.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <map>

namespace rlab::kernel_bisect {
namespace {
namespace fs = std::filesystem;

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("rlab-bisect-session-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    db = std::make_unique<SessionDb>(dir / "rlab.db");
    spec.tree = "/srv/linux";
    spec.good_ref = "v6.12";
    spec.bad_ref = "v6.13";
    spec.good_commit = std::string(40, 'a');
    spec.bad_commit = std::string(40, 'b');
    spec.cell_id = "6.12/xfs-defaults/1vcpu/shell1";
    spec.matrix_path = "/m.yaml";
    spec.matrix_text = "kernels: {}\n";
    spec.direction = bisection::Direction::improvement;
    spec.commit_count = 17;
  }
  void TearDown() override {
    db.reset();
    fs::remove_all(dir);
  }
  /// A store run of `scores.size()` boots of the session's cell at `commit`; NaN = failed boot.
  store::RunId batch(SessionId id, const std::string& commit, const std::vector<double>& scores,
                     const std::string& purpose = kEndsPurpose) {
    auto& st = db->store();
    auto run = st.create_run({"/m.yaml", "kernels: {}\n", 1, "bisect", "test"});
    auto m = matrix::load_matrix(fs::path(RLAB_TEST_DATA) / "matrix.yaml");
    auto cell = cell_at(matrix::expand_cells(m).front(), "/srv/linux", commit);
    st.add_cells(run, matrix::cell_rows({cell}), static_cast<unsigned>(scores.size()));
    auto boots = st.boots(run);
    for (std::size_t i = 0; i < scores.size(); ++i) {
      if (std::isnan(scores[i])) {
        st.record_failure(boots[i].id, rlab::store::FailurePhase::hello, "no hello within 180 s", "");
      } else {
        store::Result r;
        r.score = scores[i];
        st.record_result(boots[i].id, r, store::Environment{});
      }
    }
    db->add_batch(id, commit, run, purpose);
    return run;
  }
  fs::path dir;
  std::unique_ptr<SessionDb> db;
  SessionSpec spec;
};

TEST_F(SessionTest, RoundTripsTheSpecAndStatus) {
  auto id = db->create(spec);
  auto s = db->get(id);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, rlab::kernel_bisect::SessionState::ends);
  EXPECT_EQ(s->spec.good_commit, spec.good_commit);
  EXPECT_EQ(s->spec.direction, bisection::Direction::improvement);
  EXPECT_EQ(s->spec.commit_count, 17u);
  EXPECT_EQ(s->spec.initial, 3u);
  db->set_status(id, SessionState::hidden_by_skips, "two candidates", "", {"c1", "c2"});
  s = db->get(id);
  EXPECT_EQ(s->status, rlab::kernel_bisect::SessionState::hidden_by_skips);
  EXPECT_EQ(s->candidates, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_FALSE(db->get(id + 1));
  EXPECT_THROW(db->set_status(id + 1, SessionState::found, ""), store::StoreError);
  // Every state round-trips through its stored name; a name rlab does not write is an error.
  for (const auto st : {SessionState::ends, SessionState::bisecting, SessionState::found,
                        SessionState::hidden_by_skips, SessionState::no_regression,
                        SessionState::inconclusive_endpoints, SessionState::wrong_direction,
                        SessionState::endpoint_failed}) {
    db->set_status(id, st, "");
    EXPECT_EQ(db->get(id)->status, st);
    EXPECT_EQ(parse_state(state_name(st)), st);
  }
  EXPECT_EQ(state_name(SessionState::hidden_by_skips), "hidden by skips");
  EXPECT_THROW(parse_state("done"), store::StoreError);
  EXPECT_THROW(parse_direction("sideways"), rlab::UsageError);
}

TEST_F(SessionTest, SamplesComeFromTheBatchRunsBoots) {
  auto id = db->create(spec);
  const std::string c(40, 'c');
  EXPECT_TRUE(db->samples(id, c).empty());
  batch(id, c, {101.5, std::nan(""), 99.0});
  batch(id, c, {100.25}, c);  // a step's batch
  batch(id, spec.good_commit, {80});
  EXPECT_EQ(db->samples(id, c), (std::vector<double>{101.5, 99.0, 100.25}));
  EXPECT_EQ(db->samples(id, c, kEndsPurpose), (std::vector<double>{101.5, 99.0}));
  EXPECT_EQ(db->samples(id, c, c), (std::vector<double>{100.25}));
  EXPECT_EQ(db->batches(id, c).size(), 2u);
  EXPECT_EQ(db->last_failure(id, c), "hello: no hello within 180 s");
  EXPECT_EQ(db->last_failure(id, spec.good_commit), "");
  // Another connection to the same file (a `rlab bisect-step` process) sees the same.
  SessionDb other(dir / "rlab.db");
  EXPECT_EQ(other.samples(id, c).size(), 3u);
}

// A gap session's statistic: the first cell's score over the second's, round (repeat) by
// round within a batch; a round with a failed boot gives no sample.
TEST_F(SessionTest, AGapsStatisticPairsTheTwoCellsRoundByRound) {
  spec.against_cell_id = "6.12/ext4-defaults/1vcpu/shell1";
  auto id = db->create(spec);
  auto s = db->get(id);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->spec.against_cell_id, spec.against_cell_id);
  const std::string c(40, 'c');
  auto& st = db->store();
  auto run = st.create_run({"/m.yaml", "kernels: {}\n", 1, "bisect", "test"});
  auto m = matrix::load_matrix(fs::path(RLAB_TEST_DATA) / "gap.yaml");
  const auto cells = matrix::expand_cells(m);
  ASSERT_EQ(cells.size(), 2u);
  st.add_cells(run, matrix::cell_rows({cell_at(cells[0], "/srv/linux", c), cell_at(cells[1], "/srv/linux", c)}), 3);
  // xfs 100, 90, (failed); ext4 200, 100, 50
  const std::map<std::string, std::vector<double>> scores{{cells[0].id.substr(cells[0].id.find('/')), {100, 90, NAN}},
                                                          {cells[1].id.substr(cells[1].id.find('/')), {200, 100, 50}}};
  for (const auto& b : st.boots(run)) {
    const double v = scores.at(b.cell_id.substr(b.cell_id.find('/'))).at(b.repeat);
    if (std::isnan(v)) {
      st.record_failure(b.id, rlab::store::FailurePhase::hello, "no hello within 180 s", "");
    } else {
      store::Result r;
      r.score = v;
      st.record_result(b.id, r, store::Environment{});
    }
  }
  db->add_batch(id, c, run, kEndsPurpose);
  EXPECT_EQ(db->statistic(*s, c), (std::vector<double>{0.5, 0.9}));
  EXPECT_EQ(db->samples(id, c, kEndsPurpose, spec.cell_id), (std::vector<double>{100, 90}));
  EXPECT_EQ(db->samples(id, c, kEndsPurpose, spec.against_cell_id), (std::vector<double>{200, 100, 50}));
  EXPECT_EQ(db->samples(id, c).size(), 5u);
  // A session of one cell reads the cell's scores, as before.
  spec.against_cell_id.clear();
  auto one = db->get(db->create(spec));
  EXPECT_FALSE(one->spec.gap());
}

TEST_F(SessionTest, StepsKeepTheirOrderAndAreReplacedPerCommit) {
  auto id = db->create(spec);
  using bisection::StepResult;
  StepRow a{0, std::string(40, '1'), StepResult::good, 5, 100, -0.01, 0.5, 0.001, "like good"};
  StepRow b{0, std::string(40, '2'), StepResult::skip, 0, 0, 0, 1, 1, "build: #error"};
  b.ends_differ = false;
  EXPECT_EQ(db->record_step(id, a), 1);
  EXPECT_EQ(db->record_step(id, b), 2);
  b.result = StepResult::bad;
  EXPECT_EQ(db->record_step(id, b), 2);
  auto steps = db->steps(id);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].commit, a.commit);
  EXPECT_EQ(steps[1].result, StepResult::bad);
  EXPECT_TRUE(steps[0].ends_differ);
  EXPECT_FALSE(steps[1].ends_differ) << "whether the ends still differed is a column, not words in the reason";
  EXPECT_DOUBLE_EQ(steps[0].p_vs_bad, 0.001);
}

}  // namespace
}  // namespace rlab::kernel_bisect
