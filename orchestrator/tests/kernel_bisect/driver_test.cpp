// The session driver against a real git repository and a simulated lab (seeded normal noise
// around a level per commit): culprit found, broken commit skipped, no-regression stop,
// improvement, crash and resume, and refusals.
#include "kernel_bisect/culprit.hpp"
#include "kernel_bisect/driver.hpp"
#include "kernel_bisect/render.hpp"
#include "git_fixture.hpp"

#include "util/paths.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

namespace rlab::kernel_bisect {
namespace {
namespace fs = std::filesystem;
using testing::git;
using testing::make_linear_repo;

struct Crash : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Samples ~ N(level(commit) + drift * boots so far, sd), booted interleaved as VmLab does;
/// "broken" commits fail to build (then nothing boots).
class FakeLab : public Lab {
 public:
  std::map<std::string, double> level;
  std::optional<double> other_level;  ///< the level of commits not in `level` (a revert)
  std::set<std::string> broken;
  std::map<std::string, std::size_t> failing_boots;  ///< boots of a commit that fail, first come
  std::map<std::pair<std::string, std::string>, std::vector<double>> kept;  ///< (commit, purpose)
  std::map<std::string, std::size_t> measured;  ///< runs measured per commit
  std::vector<std::string> order;               ///< commits in boot order
  int calls_left = -1;                          ///< >= 0: throw Crash when it reaches 0
  double sd = 2;
  double drift = 0;
  std::mt19937_64 rng{20261130};

  std::vector<double> stored(const std::string& c, const std::string& purpose) override {
    return kept[{c, purpose}];
  }
  std::vector<bisection::Measurement> measure(const std::vector<LabRequest>& rq,
                                           const std::string& purpose) override {
    if (calls_left == 0) throw Crash("simulated crash");
    if (calls_left > 0) --calls_left;
    std::vector<bisection::Measurement> out(rq.size());
    for (std::size_t k = 0; k < rq.size(); ++k)
      if (broken.count(rq[k].commit)) {
        out[k].failure = "build: fs/xfs/xfs_super.c: #error";
        out[k].kind = bisection::Failure::build;
        for (std::size_t j = 0; j < rq.size(); ++j)
          if (j != k) out[j].kind = bisection::Failure::not_measured;
        return out;
      }
    std::size_t rounds = 0;
    for (const auto& r : rq) rounds = std::max(rounds, r.runs);
    for (std::size_t r = 0; r < rounds; ++r)
      for (std::size_t j = 0; j < rq.size(); ++j) {
        const std::size_t k = (j + r) % rq.size();
        const std::string& c = rq[k].commit;
        if (r >= rq[k].runs) continue;
        if (failing_boots[c] > 0) {
          --failing_boots[c];
          out[k].failure = "boot: libvirt: process exited while connecting to monitor";
          out[k].kind = bisection::Failure::boot;
          continue;
        }
        const double at = level.count(c) || !other_level ? level.at(c) : *other_level;
        std::normal_distribution<double> noise(at + drift * static_cast<double>(order.size()), sd);
        order.push_back(c);
        out[k].samples.push_back(noise(rng));
      }
    for (std::size_t k = 0; k < rq.size(); ++k) {
      auto& keep = kept[{rq[k].commit, purpose}];
      keep.insert(keep.end(), out[k].samples.begin(), out[k].samples.end());
      measured[rq[k].commit] += out[k].samples.size();
      if (out[k].samples.size() == rq[k].runs) {
        out[k].failure.clear();
        out[k].kind = bisection::Failure::none;
      }
    }
    return out;
  }
};

class DriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("rlab-bisect-driver-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    shas = make_linear_repo(dir / "tree", 16);
    db = std::make_unique<SessionDb>(dir / "rlab.db");
  }
  void TearDown() override {
    db.reset();
    fs::remove_all(dir);
  }
  StartOptions start() const {
    StartOptions o;
    o.tree = dir / "tree";
    o.good = shas.front();
    o.bad = "main";
    o.cell = "xfs";
    o.matrix = fs::path(RLAB_TEST_DATA) / "matrix.yaml";
    o.initial = 5;
    o.cap = 20;
    return o;
  }
  /// Levels: 100 before `culprit`, `after` from it on.
  void levels(FakeLab& lab, std::size_t culprit, double after) const {
    for (std::size_t i = 0; i < shas.size(); ++i) lab.level[shas[i]] = i < culprit ? 100 : after;
  }
  /// The commit git tests first in this range.
  std::string first_midpoint() const {
    GitTree g(dir / "tree");
    g.start(shas.back(), shas.front());
    auto c = g.current();
    g.reset();
    return c;
  }
  fs::path dir;
  std::vector<std::string> shas;
  std::unique_ptr<SessionDb> db;
};

TEST_F(DriverTest, NamesTheCulpritAndSkipsTheBrokenCommit) {
  FakeLab lab;
  levels(lab, 11, 70);
  const std::string broken = first_midpoint();
  ASSERT_NE(broken, shas[10]);  // a skip right before the culprit would hide it
  lab.broken.insert(broken);
  auto id = create_session(*db, start());
  auto s = drive(*db, id, lab, false);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  EXPECT_EQ(s.first_bad, shas[11]);
  EXPECT_NE(s.message.find("commit 11"), std::string::npos) << s.message;
  auto steps = db->steps(id);
  std::size_t answered = 0;
  bool skipped = false;
  for (const auto& r : steps) {
    if (r.commit == broken) {
      EXPECT_EQ(r.result, bisection::StepResult::skip);
      EXPECT_NE(r.reason.find("#error"), std::string::npos) << r.reason;
      skipped = true;
    } else {
      ++answered;
      auto idx = std::find(shas.begin(), shas.end(), r.commit) - shas.begin();
      EXPECT_EQ(r.result, idx >= 11 ? bisection::StepResult::bad : bisection::StepResult::good) << "commit " << idx;
    }
  }
  EXPECT_TRUE(skipped);
  EXPECT_LE(answered, 5u);  // ceil(log2(15)) + 1
  EXPECT_FALSE(GitTree(dir / "tree").bisecting());
  auto text = render_report(*db, s, GitTree(dir / "tree"));
  EXPECT_NE(text.find("first bad commit: " + shas[11] + " commit 11"), std::string::npos) << text;
  EXPECT_NE(text.find("skipped " + broken.substr(0, 12)), std::string::npos) << text;
}

TEST_F(DriverTest, SkipsThatHideTheCulpritEndTheSessionWithItsCandidates) {
  // The culprit and the commit before it do not build: git ends with "only 'skip'ped commits
  // left" (exit 2), which is an outcome, not an error.
  FakeLab lab;
  levels(lab, 8, 70);
  lab.broken = {shas[7], shas[8]};
  auto id = create_session(*db, start());
  auto s = drive(*db, id, lab, false);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::hidden_by_skips) << s.message;
  std::set<std::string> candidates(s.candidates.begin(), s.candidates.end());
  EXPECT_EQ(candidates, (std::set<std::string>{shas[7], shas[8], shas[9]})) << s.message;
  EXPECT_FALSE(GitTree(dir / "tree").bisecting());
}

TEST_F(DriverTest, FailedBootsAreMeasuredAgainAndPersistentFailuresSkip) {
  FakeLab lab;
  levels(lab, 11, 70);
  lab.failing_boots[shas.front()] = 1;  // one boot of the good end fails once
  const std::string mid = first_midpoint();
  lab.failing_boots[mid] = 1000;        // every boot of the first tested commit fails
  auto id = create_session(*db, start());
  auto s = drive(*db, id, lab, false);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  EXPECT_EQ(s.first_bad, shas[11]);
  EXPECT_GE((lab.kept[{shas.front(), kEndsPurpose}].size()), 5u);
  auto step = db->step(id, mid);
  ASSERT_TRUE(step);
  EXPECT_EQ(step->result, bisection::StepResult::skip);
  EXPECT_NE(step->reason.find("boots failed"), std::string::npos) << step->reason;
  EXPECT_NE(step->reason.find("connecting to monitor"), std::string::npos) << step->reason;
}

TEST_F(DriverTest, StopsWhenTheEndsAreTheSame) {
  FakeLab lab;
  levels(lab, 16, 100);
  lab.sd = 0.5;
  auto id = create_session(*db, start());
  auto s = drive(*db, id, lab, false);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::no_regression) << s.message;
  EXPECT_TRUE(db->steps(id).empty());
  EXPECT_FALSE(GitTree(dir / "tree").bisecting());
  EXPECT_EQ(lab.measured.size(), 2u);  // only the ends
}

TEST_F(DriverTest, RegressionRefusesASpeedUpAndImprovementFindsIt) {
  FakeLab lab;
  levels(lab, 6, 140);
  auto id = create_session(*db, start());
  EXPECT_EQ(drive(*db, id, lab, false).status, SessionState::wrong_direction);
  auto o = start();
  o.direction = bisection::Direction::improvement;
  auto id2 = create_session(*db, o);
  auto s = drive(*db, id2, lab, false);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  EXPECT_EQ(s.first_bad, shas[6]);
}

TEST_F(DriverTest, ResumesAfterACrashWithoutMeasuringAnsweredCommitsAgain) {
  FakeLab lab;
  levels(lab, 4, 75);
  lab.calls_left = 3;  // the ends, a step or two, then the lab dies
  auto id = create_session(*db, start());
  EXPECT_THROW(drive(*db, id, lab, false), Crash);
  EXPECT_EQ(db->get(id)->status, rlab::kernel_bisect::SessionState::bisecting);
  // The crash left no bisection in progress to block the next one: the answers are stored.
  EXPECT_FALSE(GitTree(dir / "tree").bisecting());
  auto before = db->steps(id);
  ASSERT_GE(before.size(), 1u);
  auto measured_before = lab.measured;

  lab.calls_left = -1;
  auto s = drive(*db, id, lab, true);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  EXPECT_EQ(s.first_bad, shas[4]);
  for (const auto& r : before)
    EXPECT_EQ(lab.measured[r.commit], measured_before[r.commit]) << r.commit << " measured again";
  auto after = db->steps(id);
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(after[i].commit, before[i].commit);
}

// A bisection rlab left in progress whose process is gone (killed outright: no reset ran) is
// reset by the next session; one started by hand, or by a process that still runs, is refused
// naming what to do.
TEST_F(DriverTest, AStaleBisectionIsResetAndOneByHandOrAliveIsRefused) {
  FakeLab lab;
  levels(lab, 4, 75);
  GitTree git(dir / "tree");
  auto by_hand = create_session(*db, start());
  git.start(shas.back(), shas.front());
  try {
    drive(*db, by_hand, lab, false);
    ADD_FAILURE() << "drove over a bisection started by hand";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("not started by rlab"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(git.bisecting()) << "a bisection by hand is left alone";
  git.mark_owner(77);  // this process: alive
  EXPECT_THROW(drive(*db, by_hand, lab, false), rlab::UsageError);
  EXPECT_TRUE(git.bisecting());
  // The same mark from a process that is gone.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  rlab::util::write_file_atomic(fs::path(dir / "tree" / ".git" / "rlab-bisect"), "session 77 pid " + std::to_string(child) + "\n");
  ASSERT_TRUE(git.owner().has_value());
  EXPECT_FALSE(git.owner()->alive);
  std::vector<std::string> said;
  auto s = drive(*db, by_hand, lab, false, [&](std::string_view l) { said.emplace_back(l); });
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  bool told = false;
  for (const auto& l : said) told |= l.find("left by process " + std::to_string(child) + ", which is gone: reset") != std::string::npos;
  EXPECT_TRUE(told);
  EXPECT_FALSE(git.bisecting());
  EXPECT_FALSE(git.owner().has_value()) << "the mark goes with the bisection";
}

// A found culprit is checked (culprit.hpp) and the checks are stored with the session and
// shown in its report; a lab that builds nothing leaves them "not made".
TEST_F(DriverTest, TheCulpritIsCheckedAndTheReportSaysHow) {
  FakeLab lab;
  levels(lab, 4, 75);
  auto id = create_session(*db, start());
  auto s = drive(*db, id, lab, false);
  ASSERT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  ASSERT_FALSE(s.checks_json.empty());
  const auto j = nlohmann::json::parse(s.checks_json);
  EXPECT_EQ(j["culprit"], shas[4]);
  EXPECT_EQ(j["parent"], shas[3]);
  EXPECT_TRUE(j["no_op"].is_null()) << "FakeLab builds no kernel";
  EXPECT_EQ(j["changed"], nlohmann::json::array({"file.txt"}));
  const auto report = render_report(*db, s, GitTree(dir / "tree"));
  EXPECT_NE(report.find("checks of the culprit:"), std::string::npos) << report;
  EXPECT_NE(report.find("no-op check: not made (the kernel of"), std::string::npos) << report;
  // Every commit of this tree rewrites file.txt: the culprit's revert conflicts with the later ones.
  EXPECT_EQ(j["revert"]["result"], "does not apply");
  EXPECT_NE(report.find("revert check: not made -- reverting " + shas[4].substr(0, 12) + " does not apply"),
            std::string::npos) << report;
}

// The revert check (culprit.hpp): the bad end with the culprit reverted is measured as a step;
// scoring like the good end confirms the culprit, like the bad end makes it suspicious.
TEST_F(DriverTest, ARevertThatRemovesTheRegressionConfirmsTheCulpritOneThatDoesNotIsSuspicious) {
  for (const double revert_level : {100.0, 75.0}) {
    const fs::path tree = dir / ("own-files-" + std::to_string(static_cast<int>(revert_level)));
    const auto own = make_linear_repo(tree, 16, true);
    FakeLab lab;
    for (std::size_t i = 0; i < own.size(); ++i) lab.level[own[i]] = i < 4 ? 100 : 75;
    lab.other_level = revert_level;
    auto o = start();
    o.tree = tree;
    o.good = own.front();
    auto s = drive(*db, create_session(*db, o), lab, false);
    ASSERT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
    ASSERT_EQ(s.first_bad, own[4]);
    const auto checks = checks_from_json(s.checks_json);
    ASSERT_TRUE(checks && checks->revert) << s.checks_json;
    const GitTree g(tree);
    ASSERT_EQ(g.parent(checks->revert->commit), own.back()) << "a revert on top of the bad end";
    EXPECT_GT(lab.measured[checks->revert->commit], 0u) << "the revert was booted";
    const auto report = render_report(*db, s, g);
    if (revert_level == 100.0) {
      EXPECT_EQ(checks->revert->result, bisection::StepResult::good) << checks->revert->reason;
      EXPECT_FALSE(checks->suspicious());
      EXPECT_NE(report.find("revert check: passed"), std::string::npos) << report;
    } else {
      EXPECT_EQ(checks->revert->result, bisection::StepResult::bad) << checks->revert->reason;
      EXPECT_TRUE(checks->suspicious());
      EXPECT_EQ(checks->suspicion(), "reverting it leaves the regression");
      EXPECT_NE(report.find("revert check: SUSPICIOUS"), std::string::npos) << report;
    }
  }
}

// Deterministic mode (`clock: icount`): the ends are booted once, by the ends' check, and every
// step boots its commit alone against their samples.
TEST_F(DriverTest, DeterministicStepsBootTheCommitAloneAgainstTheEndsOwnBoots) {
  FakeLab lab;
  lab.sd = 0.2;
  levels(lab, 11, 75);
  auto o = start();
  o.matrix = fs::path(RLAB_TEST_DATA) / "matrix-icount.yaml";
  auto id = create_session(*db, o);
  const auto opt = session_options(db->get(id)->spec);
  ASSERT_TRUE(opt.deterministic);
  EXPECT_NEAR(opt.resolution, 60 / 10.0, 1e-12) << "one loop of the cell's 10 s pass, in lpm";
  auto s = drive(*db, id, lab, false);
  ASSERT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  EXPECT_EQ(s.first_bad, shas[11]);
  const std::size_t good_boots = lab.kept[{shas.front(), std::string(kEndsPurpose)}].size();
  EXPECT_EQ(lab.measured[shas.front()], good_boots) << "the good end boots for the ends' check only";
  const std::size_t bad_boots = lab.kept[{shas.back(), std::string(kEndsPurpose)}].size();
  EXPECT_EQ(lab.measured[shas.back()], bad_boots);
  for (const auto& row : db->steps(id)) EXPECT_EQ(row.reference_samples, 0u) << row.commit;
  EXPECT_FALSE(session_options(db->get(create_session(*db, start()))->spec).deterministic)
      << "real time keeps pairing the ends with every step";
}

// A time budget (a night's nightly.bisect_minutes): past the deadline no commit is measured,
// the session keeps its answers and status, and driving it again later finishes it.
TEST_F(DriverTest, PastItsDeadlineASessionStopsBetweenStepsAndGoesOnLater) {
  FakeLab lab;
  levels(lab, 4, 75);
  const auto id = create_session(*db, start());
  const auto past = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  std::vector<std::string> said;
  const Say say = [&](std::string_view l) { said.emplace_back(l); };
  auto s = drive(*db, id, lab, false, say, past);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::ends) << "the ends are not measured after the deadline";
  EXPECT_TRUE(lab.measured.empty());
  ASSERT_FALSE(said.empty());
  EXPECT_NE(said.back().find("out of time"), std::string::npos) << said.back();

  lab.calls_left = 3;  // the ends' check, then two steps: then the deadline passes (a crash here)
  EXPECT_THROW(drive(*db, id, lab, false), Crash);
  const auto answered = db->steps(id).size();
  ASSERT_GE(answered, 1u);
  s = drive(*db, id, lab, false, say, past);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::bisecting);
  EXPECT_EQ(db->steps(id).size(), answered) << "no new step after the deadline";
  EXPECT_FALSE(GitTree(dir / "tree").bisecting()) << "the tree is left clean for the next night";
  const std::string matrix = db->get(id)->spec.matrix_path;
  EXPECT_EQ(db->unfinished(matrix), std::vector<SessionId>{id}) << "what the next night resumes";
  lab.calls_left = -1;
  s = drive(*db, id, lab, false);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  EXPECT_EQ(s.first_bad, shas[4]);
  EXPECT_TRUE(db->unfinished(matrix).empty());
}

TEST_F(DriverTest, AnswerCommitKeepsItsFirstAnswer) {
  FakeLab lab;
  levels(lab, 8, 60);
  auto id = create_session(*db, start());
  auto s = *db->get(id);
  EXPECT_THROW(answer_commit(*db, s, lab, shas[5]), std::runtime_error);  // ends not measured
  lab.kept[std::pair{shas.front(), std::string(kEndsPurpose)}] = {100, 101, 99, 100.5, 99.5};
  lab.kept[std::pair{shas.back(), std::string(kEndsPurpose)}] = {60, 61, 59, 60.5, 59.5};
  db->set_status(id, SessionState::bisecting, "ends measured");
  s = *db->get(id);
  auto r = answer_commit(*db, s, lab, shas[9]);
  EXPECT_EQ(r.result, bisection::StepResult::bad);
  EXPECT_GE(r.samples, 5u);
  EXPECT_EQ(r.reference_samples, 2 * r.samples);  // the ends booted alongside
  EXPECT_NEAR(r.good_median, 100, 5);
  EXPECT_NEAR(r.bad_median, 60, 5);
  EXPECT_LT(r.change_vs_good, -0.3);
  // Interleaved: good, commit, bad; commit, bad, good; ...
  ASSERT_GE(lab.order.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(lab.order.begin(), lab.order.begin() + 6),
            (std::vector<std::string>{shas.front(), shas[9], shas.back(), shas[9], shas.back(), shas.front()}));
  auto n = lab.measured[shas[9]];
  auto again = answer_commit(*db, s, lab, shas[9]);
  EXPECT_EQ(again.seq, r.seq);
  EXPECT_EQ(lab.measured[shas[9]], n);
  EXPECT_EQ(exit_code_for(bisection::StepResult::good), 0);
  EXPECT_EQ(exit_code_for(bisection::StepResult::bad), 1);
  EXPECT_EQ(exit_code_for(bisection::StepResult::skip), 125);
}

TEST_F(DriverTest, ADriftingHostDoesNotMisleadTheSteps) {
  // The host slows by 0.4 lpm per boot: over the bisection's ~100 boots, twice the 20-lpm
  // regression. Steps compare the commit with the ends booted in the same rounds, so every
  // answer is still right (batches one after another called pre-culprit commits bad).
  FakeLab lab;
  levels(lab, 9, 80);
  lab.sd = 0.5;
  lab.drift = -0.4;
  auto id = create_session(*db, start());
  auto s = drive(*db, id, lab, false);
  EXPECT_EQ(s.status, rlab::kernel_bisect::SessionState::found) << s.message;
  EXPECT_EQ(s.first_bad, shas[9]);
  for (const auto& r : db->steps(id)) {
    auto idx = std::find(shas.begin(), shas.end(), r.commit) - shas.begin();
    EXPECT_EQ(r.result, idx >= 9 ? bisection::StepResult::bad : bisection::StepResult::good) << "commit " << idx << ": " << r.reason;
  }
  EXPECT_GT(lab.order.size() * 0.4, 20.0);  // the drift exceeded the regression
}

TEST_F(DriverTest, CreateSessionRefusesBadInput) {
  auto o = start();
  o.good = "no-such-ref";
  EXPECT_THROW(create_session(*db, o), GitError);
  o = start();
  o.good = "main";
  o.bad = shas.front();  // reversed: good must be the ancestor
  EXPECT_THROW(create_session(*db, o), rlab::UsageError);
  o = start();
  o.cell = "ext4";
  try {
    create_session(*db, o);
    ADD_FAILURE() << "no error for an unknown cell";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("6.12/xfs-defaults/1vcpu/shell1"), std::string::npos) << e.what();
  }
  o = start();
  o.initial = 1;
  EXPECT_THROW(create_session(*db, o), rlab::UsageError);
  auto id = create_session(*db, start());
  auto s = db->get(id);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->spec.commit_count, 16u);
  EXPECT_EQ(s->spec.cell_id, "6.12/xfs-defaults/1vcpu/shell1");
  EXPECT_EQ(s->spec.bad_commit, shas.back());
  EXPECT_FALSE(s->spec.gap());
}

TEST_F(DriverTest, AGapSessionNamesTwoCellsOfOneKernel) {
  auto o = start();
  o.matrix = fs::path(RLAB_TEST_DATA) / "gap.yaml";
  o.against = "ext4";
  auto s = db->get(create_session(*db, o));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->spec.gap());
  EXPECT_EQ(s->spec.cell_id, "6.12/xfs-defaults/1vcpu/shell1");
  EXPECT_EQ(s->spec.against_cell_id, "6.12/ext4-defaults/1vcpu/shell1");
  // Deterministic (icount): the steps' resolution is the ratio's, once the ends are stored.
  EXPECT_TRUE(session_options(s->spec).deterministic);
  o.against = "xfs";  // the same cell
  try {
    create_session(*db, o);
    ADD_FAILURE() << "no error for a gap of a cell with itself";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("same cell"), std::string::npos) << e.what();
  }
  o.against = "btrfs";
  EXPECT_THROW(create_session(*db, o), rlab::UsageError);
  // Two kernels: one build cannot serve both cells.
  const auto two = dir / "two-kernels.yaml";
  {
    std::ofstream f(two);
    f << "kernels:\n  a: {source: {debian: \"6.12\", suite: trixie}, page_size: 64k}\n"
         "  b: {source: {debian: \"6.12\", suite: trixie}, page_size: 4k}\n"
         "axes:\n  kernel: [a, b]\n  filesystem: [{fs: xfs}]\n  vcpus: [1]\n"
         "  workload: [{type: shell1, passes: 1, duration_s: 10}]\n  repeats: 1\n"
         "guest: {memory_mib: 1024, cpu: auto, accel: tcg, disk_gib: 2}\nresults: results/rlab.db\n";
  }
  o.matrix = two;
  o.cell = "a/";
  o.against = "b/";
  try {
    create_session(*db, o);
    ADD_FAILURE() << "no error for a gap across two kernels";
  } catch (const rlab::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("same kernel"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rlab::kernel_bisect
