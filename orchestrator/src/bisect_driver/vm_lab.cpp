#include "bisect_driver/vm_lab.hpp"

#include "image/guest_images.hpp"
#include "run/boot.hpp"
#include "run/interrupts.hpp"
#include "run/run_dir.hpp"
#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "util/paths.hpp"

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
  std::vector<const matrix::Cell*> hits;
  for (const auto& c : cells) {
    if (c.id == selector) return c;
    if (c.id.find(selector) != std::string::npos) hits.push_back(&c);
  }
  if (hits.size() == 1) return *hits.front();
  std::string list;
  for (const auto* c : hits.empty() ? std::vector<const matrix::Cell*>{} : hits) list += "\n  " + c->id;
  if (hits.empty()) {
    for (const auto& c : cells) list += "\n  " + c.id;
    throw std::invalid_argument(fmt::format("{}: no cell matches '{}'; cells:{}", m.path.string(),
                                            selector, list));
  }
  throw std::invalid_argument(fmt::format("{}: '{}' matches {} cells, name one:{}", m.path.string(),
                                          selector, hits.size(), list));
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
  Report report;
  matrix::Matrix m;
  matrix::Cell cell;
  run::GuestSettings guest;
  std::unique_ptr<vm::Connection> conn;

  void say(const std::string& line) const {
    if (report) report(line);
  }
};

VmLab::VmLab(SessionDb& db, const Session& s, fs::path agent, Report report)
    : impl_(std::make_unique<Impl>(Impl{db, s, std::move(agent), std::move(report), {}, {}, {}, {}})) {
  auto& i = *impl_;
  i.m = matrix::parse_matrix(s.spec.matrix_text, s.spec.matrix_path);
  i.cell = select_cell(i.m, s.spec.cell_id);
  const auto accel = matrix::resolve_accel_local(i.m.guest.accel);
  i.guest.accel = accel == matrix::Accel::kKvm ? vm::Accel::kKvm : vm::Accel::kTcg;
  i.guest.cpu_model = matrix::resolve_cpu_model(i.m.guest, accel);
  i.guest.memory_mib = i.m.guest.memory_mib;
  i.guest.disk_gib = i.m.guest.disk_gib;
}

  i.guest.icount_shift = i.m.guest.icount();
VmLab::~VmLab() = default;

std::vector<double> VmLab::stored(const std::string& commit) {
  return impl_->db.samples(impl_->session.id, commit);
}

bisect::Measurement VmLab::measure(const std::string& commit, std::size_t runs) {
  auto& i = *impl_;
  auto& st = i.db.store();
  const std::string short_sha = commit.substr(0, 12);
  const matrix::Cell c = cell_at(i.cell, i.session.spec.tree, commit);
  store::NewRun nr{i.session.spec.matrix_path, i.session.spec.matrix_text, i.m.seed, "bisect",
                   fmt::format("bisect session {} commit {}", i.session.id, commit)};
  const store::RunId run = st.create_run(nr);
  st.add_cells(run, {c}, static_cast<unsigned>(runs));
  i.db.add_batch(i.session.id, commit, run);
  const auto boots = st.boots(run);

  bisect::Measurement out;
  image::GuestImages img;
  try {
    fs::path agent = i.agent.empty() ? image::default_agent_binary() : i.agent;
    i.say(fmt::format("{}: building the kernel", short_sha));
    img = image::ensure_guest_images(c.kernel, agent, [&](std::string_view ph, std::string_view d) {
      i.say(fmt::format("{}: {} {}", short_sha, ph, d));
    });
  } catch (const std::exception& e) {
    out.failure = "build: " + brief_build_failure(e.what());
    for (const auto& b : boots) st.record_failure(b.id, "build", e.what(), "");
    st.finish_run(run, "failed");
    spdlog::warn("{}: kernel build failed", short_sha);
    return out;
  }
  if (!i.conn) i.conn = std::make_unique<vm::Connection>(i.m.hosts.front().uri);
  run::RunDir dir(st.path(), run, i.conn->qemu_owner());
  const image::GuestImages staged = dir.stage(img);
  std::string last_failure;
  for (const auto& b : boots) {
    run::BootJob job;
    job.cell = &c;
    job.repeat = b.repeat;
    job.boot = b.id;
    job.domain_name = vm::domain_name(std::to_string(run), fmt::format("{}-r{}", c.id, b.repeat));
    job.images = &staged;
    job.dir = dir.boot_dir(b.id);
    auto o = run::run_boot(job, i.guest, *i.conn, st);
    if (run::Interrupts::instance().stopped()) {
      // Not an answer about the commit: leave the step unanswered so a resume redoes it.
      st.finish_run(run, "interrupted");
      throw Interrupted(fmt::format("{}: interrupted while measuring", short_sha));
    }
    if (o.ok) {
      out.samples.push_back(o.score);
      i.say(fmt::format("{}: boot {}/{}: {:.1f} lpm", short_sha, b.repeat + 1, boots.size(), o.score));
    } else {
      last_failure = o.phase + ": " + o.message;
      i.say(fmt::format("{}: boot {}/{} failed in {}: {}", short_sha, b.repeat + 1, boots.size(),
                        o.phase, o.message));
    }
  }
  st.finish_run(run, out.samples.size() == boots.size() ? "done" : "failed");
  if (out.samples.size() < boots.size()) out.failure = "boot: " + last_failure;
  return out;
}

}  // namespace rlab::bisect_driver
