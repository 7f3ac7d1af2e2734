#include "kernel_bisect/vm_lab.hpp"

#include "build/kernel_build.hpp"
#include "run/batch.hpp"
#include "run/clock.hpp"
#include "run/owner.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace rlab::kernel_bisect {
namespace fs = std::filesystem;

matrix::Cell cell_at(const matrix::Cell& cell, const fs::path& tree, const std::string& commit) {
  matrix::Cell c = cell;
  c.kernel.name = commit.substr(0, 12);
  c.kernel.source = {};
  c.kernel.source.kind = build::KernelSource::Kind::kGitTree;
  c.kernel.source.git_tree = tree;
  c.kernel.source.git_ref = commit;
  auto slash = cell.id.find('/');
  c.id = c.kernel.name + (slash == std::string::npos ? "" : cell.id.substr(slash));
  return c;
}

std::string brief_build_failure(const std::string& what) {
  auto nl = what.find('\n');
  std::string out = what.substr(0, nl);
  // The compiler's first complaint tells more than the log tail: read it from the build log
  // the message names ("...; log <path>:"), else from the tail in the message.
  std::string text = nl == std::string::npos ? "" : what.substr(nl + 1);
  static const std::regex log_path(R"(; log (\S+):$)");
  std::smatch m;
  if (std::regex_search(out, m, log_path) && fs::is_regular_file(m[1].str())) {
    try {
      text = util::read_file(m[1].str()) + "\n" + text;
    } catch (const std::exception&) {
    }
  }
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(": error:") != std::string::npos || line.find(": fatal error:") != std::string::npos)
      return out + " | " + line;
  return out;
}

namespace {

/// One batch of a measure() call: its store run, its cells (`sides` per request: the session's
/// cell, and for a gap session the cell it is measured against, at the request's commit) and
/// their boots in run::interleaved_order.
struct StepRun {
  store::RunId run = 0;
  std::size_t sides = 1;
  std::vector<matrix::Cell> cells;  ///< request k's side s at k * sides + s
  std::vector<run::Job> order;
};

/// The boots of `requests` in run::interleaved_order: round r boots every commit that still
/// needs one, starting from request r mod n (A B, B A, ...; G X B, X B G, B G X, ...); a gap
/// session's two cells of a commit are one group, booted next to each other, the first of them
/// alternating by round.
std::vector<run::Job> interleaved_jobs(const std::vector<LabRequest>& requests, const StepRun& batch,
                                       const std::vector<store::BootRef>& boots) {
  const auto boot = [&](std::size_t c, unsigned r) {
    for (const auto& b : boots)
      if (b.cell_id == batch.cells[c].id && b.repeat == r) return b.id;
    throw std::logic_error("bisect lab: no boot " + batch.cells[c].id + " r" + std::to_string(r));
  };
  std::vector<run::Job> jobs;
  for (std::size_t k = 0; k < requests.size(); ++k)
    for (unsigned r = 0; r < requests[k].runs; ++r)
      for (std::size_t i = 0; i < batch.sides; ++i) {
        const std::size_t c = k * batch.sides + i;
        jobs.push_back({boot(c, r), c, r, batch.cells[c].vcpus, 0});
      }
  return run::interleaved_order(std::move(jobs), batch.sides);
}

/// Where a bisection batch's events go besides the store: progress lines, and per request its
/// cells' scores by repeat and its last failure (build or boot).
class StepSink : public run::BatchSink {
 public:
  StepSink(const std::vector<LabRequest>& requests, const StepRun& batch, const std::function<void(const std::string&)>& say)
      : requests_(requests), batch_(batch), say_(say), scores_(batch.cells.size()), failure_(requests.size()), not_built_(requests.size()) {}

  void building(const std::string& kernel, std::string_view phase, std::string_view detail) override {
    say_(fmt::format("{}: {} {}", kernel, phase, detail));
  }
  void built(const std::string& kernel, double seconds) override {
    say_(fmt::format("{}: kernel ready in {:.0f} s", kernel, seconds));
  }
  void not_built(const std::string& kernel, const std::string& why) override {
    for (std::size_t k = 0; k < requests_.size(); ++k)
      if (batch_.cells[k * batch_.sides].kernel.name == kernel) {
        failure_[k] = "build: " + brief_build_failure(why);
        not_built_[k] = 1;
      }
    spdlog::warn("{}: kernel build failed", kernel);
  }
  void finished(const run::Job& j, const run::BootOutcome& o) override {
    const std::size_t k = j.cell / batch_.sides;
    // "3f2a1b7c9d0e" alone, or with the cell for a gap ("3f2a1b7c9d0e/xfs-defaults/2vcpu/shell1").
    const std::string who = batch_.sides == 1 ? requests_[k].commit.substr(0, 12) : batch_.cells[j.cell].id;
    ++finished_;
    if (o.ok) {
      scores_[j.cell][j.repeat] = o.score;
      say_(fmt::format("{}: boot {}/{} ({}/{} of the batch): {:.1f} lpm in {:.0f} s", who, j.repeat + 1,
                       requests_[k].runs, finished_, batch_.order.size(), o.score, o.wall_s));
    } else {
      failure_[k] = fmt::format("boot: {}: {}", store::to_string(o.phase), o.message);
      say_(fmt::format("{}: boot {}/{} failed in {}: {}", who, j.repeat + 1, requests_[k].runs,
                       store::to_string(o.phase), o.message));
    }
  }

  /// One Measurement per request: its samples (the cell's lpm, or for a gap the first cell's
  /// over the second's for every repeat both finished; in repeat order), and when it has fewer
  /// than its runs, its last failure. `kernels_failed`: nothing booted, so a request without a
  /// build failure of its own was not measured.
  std::vector<bisection::Measurement> measurements(bool kernels_failed) const {
    std::vector<bisection::Measurement> out(requests_.size());
    for (std::size_t k = 0; k < requests_.size(); ++k) {
      const auto& a = scores_[k * batch_.sides];
      for (const auto& [repeat, score] : a) {
        if (batch_.sides == 1) {
          out[k].samples.push_back(score);
        } else if (auto b = scores_[k * batch_.sides + 1].find(repeat); b != scores_[k * batch_.sides + 1].end() && b->second > 0) {
          out[k].samples.push_back(score / b->second);
        }
      }
      if (out[k].samples.size() >= requests_[k].runs) continue;
      out[k].failure = failure_[k];
      out[k].kind = not_built_[k]    ? bisection::Failure::build
                    : kernels_failed ? bisection::Failure::not_measured
                                     : bisection::Failure::boot;
    }
    return out;
  }

 private:
  const std::vector<LabRequest>& requests_;
  const StepRun& batch_;
  const std::function<void(const std::string&)>& say_;
  std::size_t finished_ = 0;
  std::vector<std::map<unsigned, double>> scores_;  ///< cell -> repeat -> lpm
  std::vector<std::string> failure_;                ///< request -> its last failure
  std::vector<char> not_built_;                     ///< request -> its kernel did not build
};

}  // namespace

struct VmLab::Impl {
  SessionDb& db;
  Session session;
  fs::path agent;
  ProgressLine progress_line;
  matrix::Matrix m;
  matrix::Cell cell;
  std::optional<matrix::Cell> against;  ///< a gap session's second cell

  std::mutex say_mu;  ///< progress lines come from concurrent boots

  void say(const std::string& line) {
    std::lock_guard lock(say_mu);
    if (progress_line) progress_line(line);
  }
  /// A store run (kind "bisect") with one cell per request (two for a gap), its boots made and
  /// ordered.
  StepRun open_batch(const std::vector<LabRequest>& requests, const std::string& purpose);
};

StepRun VmLab::Impl::open_batch(const std::vector<LabRequest>& requests, const std::string& purpose) {
  auto& st = db.store();
  StepRun b;
  b.sides = against ? 2 : 1;
  std::string names;
  for (const auto& r : requests) {
    b.cells.push_back(cell_at(cell, session.spec.tree, r.commit));
    if (against) b.cells.push_back(cell_at(*against, session.spec.tree, r.commit));
    names += (names.empty() ? "" : " ") + r.commit.substr(0, 12);
  }
  store::NewRun nr{session.spec.matrix_path, session.spec.matrix_text, m.seed, "bisect",
                   fmt::format("bisect session {} {}: {}", session.id,
                               purpose == kEndsPurpose ? std::string("ends") : "step " + purpose.substr(0, 12),
                               names)};
  b.run = st.create_run(nr);
  for (std::size_t k = 0; k < requests.size(); ++k) {
    const auto first = b.cells.begin() + static_cast<std::ptrdiff_t>(k * b.sides);
    st.add_cells(b.run, matrix::cell_rows({first, first + static_cast<std::ptrdiff_t>(b.sides)}),
                 static_cast<unsigned>(requests[k].runs));
    db.add_batch(session.id, requests[k].commit, b.run, purpose);
  }
  b.order = interleaved_jobs(requests, b, st.boots(b.run));
  for (std::size_t i = 0; i < b.order.size(); ++i) st.set_boot_order(b.order[i].boot, static_cast<int>(i));
  return b;
}

VmLab::VmLab(SessionDb& db, const Session& s, fs::path agent, ProgressLine progress_line)
    : impl_(new Impl{db, s, std::move(agent), std::move(progress_line), {}, {}, {}, {}}) {
  auto& i = *impl_;
  i.m = matrix::parse_matrix(s.spec.matrix_text, s.spec.matrix_path);
  run::settle_auto_clock(i.m);
  i.cell = matrix::select_cell(i.m, s.spec.cell_id);
  if (s.spec.gap()) i.against = matrix::select_cell(i.m, s.spec.against_cell_id);
}

VmLab::~VmLab() = default;

std::vector<double> VmLab::stored(const std::string& commit, const std::string& purpose) {
  return impl_->db.statistic(impl_->session, commit, purpose);
}


std::vector<bisection::Measurement> VmLab::measure(const std::vector<LabRequest>& requests,
                                                   const std::string& purpose) {
  auto& i = *impl_;
  auto& st = i.db.store();
  if (requests.empty()) return {};
  const StepRun step = i.open_batch(requests, purpose);
  const util::FileLock owner = run::own_run(st.path(), step.run);  // a kill leaves it for the next sweep
  // Every kernel first (each commit is built once; a cached one costs a lookup), so that no
  // boot is spent when one of them does not build; then the boots on the first host that can
  // run every cell, interleaved, as many at once as its vCPU budget holds.
  run::Batch batch{&st, step.run, &i.m, step.cells, step.order, run::HostUse::kFirstFitting, true, false, i.agent,
                   fmt::format("`rlab bisect --resume {}` continues once a host answers", i.session.id)};
  const std::function<void(const std::string&)> say = [&](const std::string& l) { i.say(l); };
  StepSink sink(requests, step, say);
  const run::RunSummary sum = run::run_batch(batch, sink);
  if (sum.interrupted)  // not an answer about the commits: a resume redoes the step
    throw Interrupted(fmt::format("{}: interrupted while measuring", requests.front().commit.substr(0, 12)));
  return sink.measurements(!sum.kernels_failed.empty());
}

std::optional<KernelFacts> VmLab::kernel_facts(const std::string& commit) {
  auto& i = *impl_;
  const std::string sha = commit.substr(0, 12);
  try {
    const auto k = build::ensure_kernel(cell_at(i.cell, i.session.spec.tree, commit).kernel,
                                        [&](std::string_view ph, std::string_view d) { i.say(fmt::format("{}: {} {}", sha, ph, d)); });
    KernelFacts f;
    f.text_sha256 = k.text_sha256;
    if (!k.sources.empty()) {
      std::istringstream in(util::read_file(k.sources));
      for (std::string l; std::getline(in, l);)
        if (!l.empty()) f.sources.insert(l);
    }
    return f;
  } catch (const std::exception& e) {
    spdlog::warn("{}: kernel for the culprit check: {}", sha, brief_build_failure(e.what()));
    return std::nullopt;
  }
}

}  // namespace rlab::kernel_bisect
