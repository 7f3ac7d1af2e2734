// `rlab detect --bisect --tree`: the real binary over a store whose nightly history of one cell
// drops at a commit of a real git tree; detect must start a bisection of that regression
// through the `rlab bisect` driver (a session in the store, the ends measured through the
// lab) and say what is missing without --tree. The tree's commits are not kernels, so the
// lab's build fails fast and the session ends "endpoint failed": the point is that it starts.
#include "kernel_bisect/git.hpp"
#include "kernel_bisect/session.hpp"
#include "git_fixture.hpp"
#include "stats/random.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace rlab::kernel_bisect {
namespace {
namespace fs = std::filesystem;

const char* const kMatrix = R"(kernels:
  nightly: {source: {debian: "6.12", suite: trixie}, page_size: 64k}
axes:
  kernel: [nightly]
  filesystem: [{fs: xfs}]
  vcpus: [1]
  workload: [{type: shell1, copies: vcpus, passes: 1, duration_s: 10}]
  repeats: 2
guest: {accel: tcg, memory_mib: 1024}
)";
const std::string kCell = "nightly/xfs-defaults/1vcpu/shell1";

class DetectBisect : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("RLAB_BIN");
    ASSERT_TRUE(bin && *bin) << "RLAB_BIN is set by ctest to the rlab binary";
    bin_ = bin;
    dir_ = fs::temp_directory_path() / ("rlab-detect-bisect-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    shas_ = testing::make_linear_repo(dir_ / "linux", 8);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "nightly.yaml") << kMatrix;
    db_ = dir_ / "rlab.db";
    auto st = store::Store::open(db_);
    auto m = matrix::load_matrix(dir_ / "nightly.yaml");
    const auto cells = matrix::expand_cells(m);
    stats::Rng rng(5);
    // 16 nights: the first 8 on commit 2, the rest on commit 6, which is 15% slower.
    for (std::size_t n = 0; n < 16; ++n) {
      const std::string commit = n < 8 ? shas_[2] : shas_[6];
      const auto run = st->create_run({m.path.string(), kMatrix, n, "nightly", ""});
      st->add_cells(run, matrix::cell_rows(cells), m.repeats);
      for (unsigned r = 0; r < m.repeats; ++r) {
        const auto id = st->boot_id(run, kCell, r);
        st->start_boot(id, "qemu:///system", "d", "c");
        store::KernelIdentity k{"k" + commit.substr(0, 8), "nightly", "6.12.0-" + commit.substr(0, 8),
                                commit, "cfg", 64, ""};
        st->record_images(id, k, "img");
        st->record_hello(id, {65536, 1, k.kernel_release, "0.1.0", 1000000, "[]"});
        const double score = (n < 8 ? 140 : 119) * (1 + 0.01 * rng.normal());
        st->record_pass(id, {0, static_cast<std::uint64_t>(score / 6), 0, 10, score, "{}", "{}"});
        store::Environment env;
        env.accel = "tcg";
        st->record_result(id, {score, 0, "[]"}, env);
      }
      st->finish_run(run, rlab::store::RunStatus::done);
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  util::ProcessResult rlab(std::vector<std::string> args) {
    args.insert(args.begin(), bin_);
    for (std::string a : std::vector<std::string>{"--db", db_.string(), "--matrix", (dir_ / "nightly.yaml").string()})
      args.push_back(a);
    util::ProcessOptions o;
    o.timeout = std::chrono::minutes(10);
    return util::run(args, o);
  }

  std::string bin_;
  fs::path dir_, db_;
  std::vector<std::string> shas_;
};

TEST_F(DetectBisect, WithoutATreeItSaysWhatIsMissing) {
  auto r = rlab({"detect", "--bisect"});
  EXPECT_EQ(r.exit_code, 1) << r.output;  // a regression was found
  EXPECT_NE(r.output.find("would bisect (not started: give --tree"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--good " + shas_[2] + " --bad " + shas_[6]), std::string::npos) << r.output;
  SessionDb db(db_);
  EXPECT_FALSE(db.get(1));  // nothing started
  auto t = rlab({"detect", "--tree", (dir_ / "linux").string()});
  EXPECT_EQ(t.exit_code, 2) << t.output;  // --tree without --bisect
  EXPECT_NE(t.output.find("add --bisect"), std::string::npos) << t.output;
  auto j = rlab({"detect", "--bisect", "--json", "--tree", (dir_ / "linux").string()});
  EXPECT_EQ(j.exit_code, 2) << j.output;
}

TEST_F(DetectBisect, WithATreeItStartsTheBisectionThroughTheDriver) {
  auto r = rlab({"detect", "--bisect", "--tree", (dir_ / "linux").string()});
  EXPECT_NE(r.output.find("bisect session 1 (" + shas_[2].substr(0, 12) + " .. " + shas_[6].substr(0, 12)),
            std::string::npos) << r.output;
  SessionDb db(db_);
  auto s = db.get(1);
  ASSERT_TRUE(s) << r.output;
  EXPECT_EQ(s->spec.good_commit, shas_[2]);
  EXPECT_EQ(s->spec.bad_commit, shas_[6]);
  EXPECT_EQ(s->spec.cell_id, kCell);
  EXPECT_EQ(s->spec.commit_count, 5u);
  // The driver measured the ends through the lab: the (non-kernel) commits failed to build.
  EXPECT_EQ(s->status, rlab::kernel_bisect::SessionState::endpoint_failed) << s->message;
  EXPECT_NE(s->message.find("build:"), std::string::npos) << s->message;
  EXPECT_NE(r.output.find("endpoint failed"), std::string::npos) << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_FALSE(GitTree(dir_ / "linux").bisecting());
}

TEST_F(DetectBisect, CommitsOutsideTheTreeAreNotBisected) {
  const fs::path other = dir_ / "other";
  testing::make_linear_repo(other, 2);
  auto r = rlab({"detect", "--bisect", "--tree", other.string()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("not bisected: " + shas_[2].substr(0, 12)), std::string::npos) << r.output;
  EXPECT_FALSE(SessionDb(db_).get(1));
}

}  // namespace
}  // namespace rlab::kernel_bisect
