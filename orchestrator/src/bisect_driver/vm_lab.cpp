#include "bisect_driver/vm_lab.hpp"

#include "run/boot_job.hpp"
#include "build/kernel_build.hpp"

#include "image/guest_images.hpp"
#include "run/boot.hpp"
#include "run/interrupts.hpp"
#include "run/owner.hpp"
#include "run/run.hpp"
#include "run/run_dir.hpp"
#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "util/paths.hpp"
#include "util/usage_error.hpp"

#include <algorithm>
#include <chrono>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace rlab::bisect_driver {
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

matrix::Cell select_cell(const matrix::Matrix& m, const std::string& selector) {
  auto cells = matrix::expand_cells(m);
  std::vector<std::string> ids;
  for (const auto& c : cells) ids.push_back(c.id);
  std::string id;
  try {
    id = matrix::select_cell_id(ids, selector);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", m.path.string(), e.what()));
  }
  return *std::find_if(cells.begin(), cells.end(), [&](const auto& c) { return c.id == id; });
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

struct VmLab::Impl {
  SessionDb& db;
  Session session;
  fs::path agent;
  ProgressLine progress_line;
  matrix::Matrix m;
  matrix::Cell cell;
  std::unique_ptr<run::LabHost> host;  ///< the first host that can run the cell, once a boot needs it

  void say(const std::string& line) const {
    if (progress_line) progress_line(line);
  }
};

VmLab::VmLab(SessionDb& db, const Session& s, fs::path agent, ProgressLine progress_line)
    : impl_(std::make_unique<Impl>(Impl{db, s, std::move(agent), std::move(progress_line), {}, {}, {}})) {
  auto& i = *impl_;
  i.m = matrix::parse_matrix(s.spec.matrix_text, s.spec.matrix_path);
  i.cell = select_cell(i.m, s.spec.cell_id);
}

VmLab::~VmLab() = default;

std::vector<double> VmLab::stored(const std::string& commit, const std::string& purpose) {
  return impl_->db.samples(impl_->session.id, commit, purpose);
}

std::vector<bisect::Measurement> VmLab::measure(const std::vector<LabRequest>& requests,
                                                const std::string& purpose) {
  auto& i = *impl_;
  auto& st = i.db.store();
  const std::size_t n = requests.size();
  std::vector<bisect::Measurement> out(n);
  if (n == 0) return out;
  std::vector<matrix::Cell> cells;
  std::string names;
  for (const auto& r : requests) {
    cells.push_back(cell_at(i.cell, i.session.spec.tree, r.commit));
    names += (names.empty() ? "" : " ") + r.commit.substr(0, 12);
  }
  store::NewRun nr{i.session.spec.matrix_path, i.session.spec.matrix_text, i.m.seed, "bisect",
                   fmt::format("bisect session {} {}: {}", i.session.id,
                               purpose == kEndsPurpose ? std::string("ends") : "step " + purpose.substr(0, 12),
                               names)};
  const store::RunId run = st.create_run(nr);
  const util::FileLock owner = run::own_run(st.path(), run);  // a kill leaves it for the next sweep
  for (std::size_t k = 0; k < n; ++k) {
    st.add_cells(run, {cells[k]}, static_cast<unsigned>(requests[k].runs));
    i.db.add_batch(i.session.id, requests[k].commit, run, purpose);
  }
  const auto boots = st.boots(run);
  auto boot_of = [&](std::size_t k, unsigned repeat) {
    for (const auto& b : boots)
      if (b.cell_id == cells[k].id && b.repeat == repeat) return b;
    throw std::logic_error("bisect lab: no boot " + cells[k].id + " r" + std::to_string(repeat));
  };

  // Every kernel first (each commit is built once; a cached one costs a lookup), so that no
  // boot is spent when one of them does not build.
  const fs::path agent = i.agent.empty() ? image::default_agent_binary() : i.agent;
  std::vector<image::GuestImages> images(n);
  bool built = true;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string sha = requests[k].commit.substr(0, 12);
    try {
      const auto t0 = std::chrono::steady_clock::now();
      images[k] = run::guest_images(i.m, cells[k].kernel, agent, [&](std::string_view ph, std::string_view d) {
        i.say(fmt::format("{}: {} {}", sha, ph, d));
      });
      i.say(fmt::format("{}: kernel ready in {:.0f} s", sha,
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
    } catch (const std::exception& e) {
      out[k].failure = "build: " + brief_build_failure(e.what());
      for (unsigned r = 0; r < requests[k].runs; ++r) st.record_failure(boot_of(k, r).id, store::FailurePhase::build, e.what(), "");
      spdlog::warn("{}: kernel build failed", sha);
      built = false;
    }
  }
  if (!built) {
    st.finish_run(run, store::RunStatus::failed);
    return out;
  }
  if (!i.host) {
    // The first host that can run the cell (a mixed matrix's TCG host cannot run its KVM cells).
    i.host = std::make_unique<run::LabHost>(run::open_first_host_for(i.m.hosts, i.m.guest, cells));
    // Guests of a bisection or night killed outright would hold CPUs and names.
    const auto swept = run::sweep_dead_runs(st, {i.host.get()});
    if (!swept.runs.empty())
      i.say(fmt::format("{} dead runs swept ({} guests destroyed)", swept.runs.size(), swept.domains));
  }
  // A commit whose cell this host cannot run is refused before its boots (UsageError).
  run::refuse_unrunnable(cells, {i.host.get()}, {});
  run::RunDir dir(st.path(), run, i.host->config.files == matrix::HostFiles::kPaths
                                      ? i.host->conn->qemu_owner()
                                      : std::nullopt);
  std::vector<image::GuestImages> staged;
  for (const auto& img : images) staged.push_back(dir.stage(img));
  // Boots run one at a time here: the budget to pin for is the largest cell.
  unsigned largest = 0;
  for (const auto& c : cells) largest = std::max(largest, c.vcpus);
  const auto pool = run::pin_pool(i.m.guest.pinning, *i.host, largest, largest);

  // Interleaved: round r boots every commit that still needs one, starting from request r mod n.
  std::size_t rounds = 0, total = 0, order = 0;
  for (const auto& r : requests) {
    rounds = std::max(rounds, r.runs);
    total += r.runs;
  }
  std::vector<std::string> last_failure(n);
  for (unsigned r = 0; r < rounds; ++r) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = (j + r) % n;
      if (r >= requests[k].runs) continue;
      const auto b = boot_of(k, r);
      st.set_boot_order(b.id, static_cast<int>(order++));
      const run::BootJob job = run::make_boot_job(cells[k], r, b.id, run::run_label(run, st.path()), staged[k], dir,
                                                  *i.host, i.m.guest.pinning, pool.get());
      auto o = run::run_boot(job, *i.host->guest, *i.host->conn, st);
      if (pool) pool->release(job.pinned_cpus);
      const std::string sha = requests[k].commit.substr(0, 12);
      if (run::Interrupts::instance().stopped()) {
        // Not an answer about the commits: leave the step unanswered so a resume redoes it.
        st.finish_run(run, store::RunStatus::interrupted);
        throw Interrupted(fmt::format("{}: interrupted while measuring", sha));
      }
      if (o.ok) {
        out[k].samples.push_back(o.score);
        i.say(fmt::format("{}: boot {}/{} ({}/{} of the batch): {:.1f} lpm in {:.0f} s", sha, r + 1,
                          requests[k].runs, order, total, o.score, o.wall_s));
      } else {
        last_failure[k] = fmt::format("{}: {}", store::to_string(o.phase), o.message);
        i.say(fmt::format("{}: boot {}/{} failed in {}: {}", sha, r + 1, requests[k].runs,
                          store::to_string(o.phase), o.message));
      }
    }
  }
  bool all = true;
  for (std::size_t k = 0; k < n; ++k) {
    if (out[k].samples.size() >= requests[k].runs) continue;
    all = false;
    out[k].failure = "boot: " + last_failure[k];
  }
  st.finish_run(run, all ? store::RunStatus::done : store::RunStatus::failed);
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

}  // namespace rlab::bisect_driver
