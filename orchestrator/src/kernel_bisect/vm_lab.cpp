#include "kernel_bisect/vm_lab.hpp"

#include "run/clock.hpp"

#include "build/cache_budget.hpp"
#include "run/boot_job.hpp"
#include "build/kernel_build.hpp"

#include "image/guest_images.hpp"
#include "run/boot.hpp"
#include "run/interrupts.hpp"
#include "run/owner.hpp"
#include "run/run.hpp"
#include "run/run_dir.hpp"
#include "run/scheduler.hpp"
#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "util/paths.hpp"
#include "util/usage_error.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <chrono>
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
/// their boots.
struct Batch {
  store::RunId run = 0;
  std::size_t sides = 1;
  std::vector<matrix::Cell> cells;  ///< request k's side s at k * sides + s
  std::vector<store::BootRef> boots;
  /// The stored boot of cell `c`'s repeat `r`.
  const store::BootRef& boot(std::size_t c, unsigned r) const {
    for (const auto& b : boots)
      if (b.cell_id == cells[c].id && b.repeat == r) return b;
    throw std::logic_error("bisect lab: no boot " + cells[c].id + " r" + std::to_string(r));
  }
};

/// The boots of `requests` in run::interleaved_order: round r boots every commit that still
/// needs one, starting from request r mod n (A B, B A, ...; G X B, X B G, B G X, ...); a gap
/// session's two cells of a commit are one group, booted next to each other, the first of them
/// alternating by round.
std::vector<run::Job> interleaved_jobs(const std::vector<LabRequest>& requests, const Batch& batch) {
  std::vector<run::Job> jobs;
  for (std::size_t k = 0; k < requests.size(); ++k)
    for (unsigned r = 0; r < requests[k].runs; ++r)
      for (std::size_t i = 0; i < batch.sides; ++i) {
        const std::size_t c = k * batch.sides + i;
        jobs.push_back({batch.boot(c, r).id, c, r, batch.cells[c].vcpus, 0});
      }
  return run::interleaved_order(std::move(jobs), batch.sides);
}

/// The samples of one request from its cells' scores by repeat: the cell's lpm, or for a gap
/// the first cell's over the second's for every repeat both finished; in repeat order.
std::vector<double> request_samples(const std::vector<std::map<unsigned, double>>& scores, std::size_t k,
                                    std::size_t sides) {
  std::vector<double> out;
  const auto& a = scores[k * sides];
  for (const auto& [repeat, score] : a) {
    if (sides == 1) {
      out.push_back(score);
    } else if (auto b = scores[k * sides + 1].find(repeat); b != scores[k * sides + 1].end() && b->second > 0) {
      out.push_back(score / b->second);
    }
  }
  return out;
}

}  // namespace

struct VmLab::Impl {
  SessionDb& db;
  Session session;
  fs::path agent;
  ProgressLine progress_line;
  matrix::Matrix m;
  matrix::Cell cell;
  std::optional<matrix::Cell> against;  ///< a gap session's second cell
  std::unique_ptr<run::LabHost> host;  ///< the first host that can run the cell, once a boot needs it

  std::mutex say_mu;  ///< progress lines come from concurrent boots

  void say(const std::string& line) {
    std::lock_guard lock(say_mu);
    if (progress_line) progress_line(line);
  }
  /// A store run (kind "bisect") with one cell per request, its boots made.
  Batch open_batch(const std::vector<LabRequest>& requests, const std::string& purpose);
  /// The guest images of every request's commit, built when not cached; empty (and the
  /// failures in `out` and the store) when one does not build.
  std::vector<image::GuestImages> build_kernels(const std::vector<LabRequest>& requests, const Batch& batch,
                                                std::vector<bisection::Measurement>& out);
  /// The matrix's first host that can run the batch's cells, opened (and swept of dead runs)
  /// on first use.
  run::LabHost& lab_host(const std::vector<matrix::Cell>& cells);
  /// Boots every request's runs, interleaved, as many at once as the host's vCPU budget holds
  /// (run::schedule, pinned as the matrix says); samples and the last failure into `out`.
  /// Throws Interrupted after a stop signal (the run stored as interrupted).
  void boot_all(const std::vector<LabRequest>& requests, const Batch& batch,
                const std::vector<image::GuestImages>& images, std::vector<bisection::Measurement>& out);
};

Batch VmLab::Impl::open_batch(const std::vector<LabRequest>& requests, const std::string& purpose) {
  auto& st = db.store();
  Batch b;
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
  b.boots = st.boots(b.run);
  return b;
}

std::vector<image::GuestImages> VmLab::Impl::build_kernels(const std::vector<LabRequest>& requests,
                                                           const Batch& batch,
                                                           std::vector<bisection::Measurement>& out) {
  auto& st = db.store();
  const fs::path agent_binary = agent.empty() ? image::default_agent_binary() : agent;
  std::vector<image::GuestImages> images(requests.size());
  bool built = true;
  build::apply_matrix_budget(m.cache_max_gib, m.path.string(),
                             [&](std::string_view, std::string_view d) { say("cache: " + std::string(d)); });
  for (std::size_t k = 0; k < requests.size(); ++k) {
    const std::string sha = requests[k].commit.substr(0, 12);
    try {
      const auto t0 = std::chrono::steady_clock::now();
      images[k] = run::guest_images(m, batch.cells[k * batch.sides].kernel, agent_binary,
                                    [&](std::string_view ph, std::string_view d) { say(fmt::format("{}: {} {}", sha, ph, d)); });
      say(fmt::format("{}: kernel ready in {:.0f} s", sha,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
    } catch (const DiskFullError&) {
      throw;  // the lab's fault, not the commit's: the bisection stops unfinished, to be resumed
    } catch (const std::exception& e) {
      out[k].failure = "build: " + brief_build_failure(e.what());
      out[k].kind = bisection::Failure::build;
      for (std::size_t c = k * batch.sides; c < (k + 1) * batch.sides; ++c)
        for (unsigned r = 0; r < requests[k].runs; ++r)
          st.record_failure(batch.boot(c, r).id, store::FailurePhase::build, e.what(), "");
      spdlog::warn("{}: kernel build failed", sha);
      built = false;
    }
  }
  if (!built) images.clear();
  return images;
}

run::LabHost& VmLab::Impl::lab_host(const std::vector<matrix::Cell>& cells) {
  if (!host) {
    // The first host that can run the cell (a mixed matrix's TCG host cannot run its KVM cells).
    host = std::make_unique<run::LabHost>(run::open_first_host_for(m.hosts, m.guest, cells));
    // Guests of a bisection or night killed outright would hold CPUs and names.
    const auto swept = run::sweep_dead_runs(db.store(), {host.get()});
    if (!swept.runs.empty())
      say(fmt::format("{} dead runs swept ({} guests destroyed)", swept.runs.size(), swept.domains));
  }
  // A commit whose cell this host cannot run is refused before its boots (UsageError).
  run::refuse_unrunnable(cells, {host.get()}, {});
  return *host;
}

void VmLab::Impl::boot_all(const std::vector<LabRequest>& requests, const Batch& batch,
                           const std::vector<image::GuestImages>& images, std::vector<bisection::Measurement>& out) {
  auto& st = db.store();
  run::LabHost& h = lab_host(batch.cells);
  run::RunDir dir(st.path(), batch.run,
                  h.config.files == matrix::HostFiles::kPaths ? h.conn->qemu_owner() : std::nullopt);
  std::vector<image::GuestImages> staged;
  for (const auto& img : images) staged.push_back(dir.stage(img));
  const auto jobs = interleaved_jobs(requests, batch);
  unsigned largest = 0;
  for (const auto& c : batch.cells) largest = std::max(largest, c.vcpus);
  const unsigned budget = std::max(h.config.vcpu_budget, largest);
  const auto pool = run::pin_pool(m.guest.pinning, h, budget, largest);
  const std::string label = run::run_label(batch.run, st.path());
  std::mutex mu;
  int order = 0;
  std::size_t finished = 0;
  std::vector<std::string> last_failure(requests.size());
  std::vector<std::map<unsigned, double>> scores(batch.cells.size());  // cell -> repeat -> lpm
  const auto work = [&](const run::Job& j, std::size_t, const run::Release& release) -> run::Attempt {
    const std::size_t k = j.cell / batch.sides;
    {
      std::lock_guard lock(mu);
      st.set_boot_order(j.boot, order++);
    }
    const auto o = run::run_boot_job(
        run::make_boot_job(batch.cells[j.cell], j.repeat, j.boot, label, staged[k], dir, h, m.guest.pinning, pool.get()),
        h, st, pool.get(), release);
    // "3f2a1b7c9d0e" alone, or with the cell for a gap ("3f2a1b7c9d0e/xfs-defaults/2vcpu/shell1").
    const std::string who = batch.sides == 1 ? requests[k].commit.substr(0, 12) : batch.cells[j.cell].id;
    std::lock_guard lock(mu);
    ++finished;
    if (o.ok) {
      scores[j.cell][j.repeat] = o.score;
      say(fmt::format("{}: boot {}/{} ({}/{} of the batch): {:.1f} lpm in {:.0f} s", who, j.repeat + 1,
                      requests[k].runs, finished, jobs.size(), o.score, o.wall_s));
    } else {
      last_failure[k] = fmt::format("{}: {}", store::to_string(o.phase), o.message);
      say(fmt::format("{}: boot {}/{} failed in {}: {}", who, j.repeat + 1, requests[k].runs,
                      store::to_string(o.phase), o.message));
    }
    return {};
  };
  auto& intr = run::Interrupts::instance();
  run::schedule(jobs, {run::Slot{h.config.uri, budget}}, work, [&] { return intr.stopped(); });
  if (intr.stopped()) {
    // Not an answer about the commits: leave the step unanswered so a resume redoes it.
    st.finish_run(batch.run, store::RunStatus::interrupted);
    throw Interrupted(fmt::format("{}: interrupted while measuring", requests.front().commit.substr(0, 12)));
  }
  for (std::size_t k = 0; k < requests.size(); ++k) {
    out[k].samples = request_samples(scores, k, batch.sides);
    if (out[k].samples.size() < requests[k].runs) {
      out[k].failure = "boot: " + last_failure[k];
      out[k].kind = bisection::Failure::boot;
    }
  }
}

VmLab::VmLab(SessionDb& db, const Session& s, fs::path agent, ProgressLine progress_line)
    : impl_(new Impl{db, s, std::move(agent), std::move(progress_line), {}, {}, {}, {}, {}}) {
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
  std::vector<bisection::Measurement> out(requests.size());
  if (requests.empty()) return out;
  Batch batch = i.open_batch(requests, purpose);
  const util::FileLock owner = run::own_run(st.path(), batch.run);  // a kill leaves it for the next sweep
  // Every kernel first (each commit is built once; a cached one costs a lookup), so that no
  // boot is spent when one of them does not build.
  std::vector<image::GuestImages> images = i.build_kernels(requests, batch, out);
  if (images.empty()) {
    for (auto& o : out)
      if (o.kind == bisection::Failure::none) o.kind = bisection::Failure::not_measured;
    st.finish_run(batch.run, store::RunStatus::failed);
    return out;
  }
  i.boot_all(requests, batch, images, out);
  bool all = true;
  for (std::size_t k = 0; k < requests.size(); ++k)
    if (!out[k].failure.empty()) all = false;
  st.finish_run(batch.run, all ? store::RunStatus::done : store::RunStatus::failed);
  return out;
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
