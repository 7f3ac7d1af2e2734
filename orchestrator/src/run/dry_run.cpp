#include "run/dry_run.hpp"

#include "build/artifact_cache.hpp"
#include "build/kernel_source.hpp"
#include "run/estimate.hpp"
#include "run/batch.hpp"
#include "run/lab_host.hpp"
#include "util/paths.hpp"
#include "util/usage_error.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace rlab::run {
namespace fs = std::filesystem;
using build::format_duration;

namespace {

const char* plural(std::size_t n, const char* one, const char* many) { return n == 1 ? one : many; }

/// The guest clock: the matrix's, or what `clock: auto` settled to and why.
void render_clock(const DryRun& d, std::ostream& out) {
  const auto& g = d.m.guest;
  const char* mode = g.clock == matrix::GuestClock::kIcount ? "deterministic mode, guest time = instructions"
                                                            : "real time";
  if (d.clocks.empty()) {
    out << fmt::format("clock: {} ({})\n", matrix::to_string(g.clock), mode);
    return;
  }
  if (!d.clock_error.empty()) {
    out << fmt::format("clock: auto CANNOT BE SETTLED, a run refuses the matrix: {}\n  (the plan below "
                       "assumes this machine's {})\n", d.clock_error, matrix::to_string(g.clock));
    return;
  }
  out << fmt::format("clock: auto -> {} ({}), {} boots a cell (axes.repeats{}):\n", matrix::to_string(g.clock), mode,
                     d.m.repeats, d.m.repeats_by_clock ? std::string(".") + matrix::to_string(g.clock) : "");
  for (const auto& h : d.clocks)
    out << fmt::format("  {}: {}\n", h.uri,
                       h.clock ? fmt::format("{} under {}", matrix::to_string(*h.clock), h.why) : h.why);
}

void render_cells(const DryRun& d, std::ostream& out) {
  render_clock(d, out);
  out << fmt::format("cells ({}, {} {} each = {} {}):\n", d.cells.size(), d.m.repeats,
                     plural(d.m.repeats, "boot", "boots"), d.boots, plural(d.boots, "boot", "boots"));
  std::size_t width = 0;
  for (const auto& c : d.cells) width = std::max(width, c.id.size());
  for (const auto& c : d.cells) {
    const auto& w = c.workload;
    const unsigned passes = w.warmup_passes + w.passes;
    out << fmt::format("  {:<{}}  {} vCPU{}, {} {}, {} -c {}, {} {} x {:g} s, ~{} a boot\n", c.id, width,
                       c.vcpus, c.vcpus == 1 ? "" : "s", matrix::to_string(c.filesystem.fs), c.filesystem.label, w.kind,
                       c.copies, passes, plural(passes, "pass", "passes"), w.duration_s,
                       format_duration(boot_estimate_s(c, d.accel)));
  }
}

void render_hosts(const DryRun& d, std::ostream& out) {
  out << fmt::format("hosts (vCPU budget {} in all):\n", d.vcpu_budget);
  for (const auto& p : d.hosts) {
    const auto& h = p.host;
    out << fmt::format("  {}  budget {} vCPU{}, agent link {}, files {}\n", h.uri, h.vcpu_budget, h.vcpu_budget == 1 ? "" : "s",
                       matrix::to_string(h.agent_link),
                       h.files == matrix::HostFiles::kVolumes ? "volumes of pool " + h.pool : "paths");
    if (!p.unreachable.empty()) {
      out << fmt::format("    does not answer: {}\n", p.unreachable);
      continue;
    }
    out << fmt::format("    {}\n", p.caps);
    if (!p.files_error.empty()) {
      out << fmt::format("    CANNOT TAKE FILES: {}\n", p.files_error);
      continue;
    }
    if (h.files == matrix::HostFiles::kVolumes) out << fmt::format("    files: {}\n", p.files);
    if (!p.accel) out << fmt::format("    runs no cell: {}\n", p.refusal);
    else out << fmt::format("    boots get {}; {} of {} cells run here\n", *p.accel == vm::Accel::kKvm ? "KVM" : "TCG",
                            d.cells.size() - p.refused_cells.size(), d.cells.size());
    for (const auto& [cell, why] : p.refused_cells)
      if (p.accel) out << fmt::format("    not {}: {}\n", cell, why);
  }
  for (const auto& c : d.unrunnable)
    out << fmt::format("  NO HOST can run {}: a run refuses the matrix before any boot\n", c);
  for (const auto& [a, b] : d.same_machine)
    out << fmt::format("  {} and {} are the same machine (one host UUID): its CPUs are budgeted twice\n", a, b);
  if (std::none_of(d.hosts.begin(), d.hosts.end(), [](const PlannedHost& p) { return p.unreachable.empty(); }))
    out << "  no host answered: which cells run where is not known\n";
}

/// Asks every host of `d.m` what it can run: the batch runner's first step (run_batch's
/// survey_hosts), where a dry run stops.
void probe_hosts(DryRun& d) {
  const HostSurvey survey = survey_hosts(d.m, d.cells);
  std::size_t next = 0;  // the next of survey.answering
  unsigned answered_budget = 0;
  for (std::size_t i = 0; i < d.m.hosts.size(); ++i) {
    PlannedHost p;
    p.host = d.m.hosts[i];
    p.unreachable = survey.silence[i];
    if (p.unreachable.empty()) {
      const std::size_t h = next++;
      const LabHost& lh = survey.answering[h];
      p.caps = vm::describe(lh.caps);
      if (lh.files) p.files = lh.files->describe();
      p.files_error = lh.files_error;
      p.refusal = lh.refusal;
      if (lh.guest) p.accel = lh.guest->accel;
      answered_budget += p.host.vcpu_budget;
      for (std::size_t c = 0; c < d.cells.size(); ++c)
        if (!survey.runs[c][h]) p.refused_cells.emplace_back(d.cells[c].id, lh.cell_refusal(d.cells[c]));
    }
    d.hosts.push_back(std::move(p));
  }
  d.same_machine = survey.same_machine;
  d.unrunnable = survey.unrunnable;
  if (!survey.answering.empty()) d.vcpu_budget = answered_budget;  // a run schedules over the hosts that answer
  const auto accel = std::find_if(d.hosts.begin(), d.hosts.end(), [](const PlannedHost& p) { return p.accel.has_value(); });
  if (accel != d.hosts.end()) d.accel = *accel->accel;
  else  // no host can run guests: this machine's answer for the estimate
    d.accel = matrix::resolve_accel_local(d.m.guest.accel) == matrix::Accel::kKvm ? vm::Accel::kKvm : vm::Accel::kTcg;
}

void render_kernels(const DryRun& d, std::ostream& out) {
  std::size_t cached = 0, width = 0;
  for (const auto& k : d.kernels) {
    cached += k.plan.cached;
    width = std::max(width, k.name.size());
  }
  out << fmt::format("kernels ({} to build, {} in the cache):\n", d.kernels.size() - cached, cached);
  for (const auto& k : d.kernels) {
    const std::string what = k.plan.commit.empty() ? k.plan.source : k.plan.source + " " + k.plan.commit;
    if (k.plan.cached)
      out << fmt::format("  {:<{}}  in the cache  {}, key {}, {} {}\n", k.name, width, what,
                         k.plan.key.substr(0, 16), k.boots, plural(k.boots, "boot", "boots"));
    else if (k.plan.prebuilt)
      out << fmt::format("  {:<{}}  to copy       {}, {} {}\n", k.name, width, what, k.boots,
                         plural(k.boots, "boot", "boots"));
    else
      out << fmt::format("  {:<{}}  to build      {}, {} {}, ~{} ({})\n", k.name, width, what, k.boots,
                         plural(k.boots, "boot", "boots"), format_duration(k.build.seconds), k.build.from);
    if (!k.plan.origin.empty()) out << fmt::format("  {:<{}}  from {}\n", "", width, k.plan.origin);
    if (!k.plan.note.empty()) out << fmt::format("  {:<{}}  ({})\n", "", width, k.plan.note);
  }
}

}  // namespace

DryRun plan_dry_run(const fs::path& matrix, const fs::path& db) {
  DryRun d;
  d.m = matrix::load_matrix(matrix);
  d.clocks = probe_clocks(d.m);
  if (!d.clocks.empty()) {
    try {
      matrix::settle_clock(d.m, agree_on_clock(d.clocks));
    } catch (const UsageError& e) {
      d.clock_error = e.what();
      const bool kvm = matrix::resolve_accel_local(d.m.guest.accel) == matrix::Accel::kKvm;
      matrix::settle_clock(d.m, kvm ? matrix::GuestClock::kRealtime : matrix::GuestClock::kIcount);
    }
  }
  d.cells = matrix::expand_cells(d.m);
  d.boots = d.cells.size() * d.m.repeats;
  for (const auto& h : d.m.hosts) d.vcpu_budget += h.vcpu_budget;
  probe_hosts(d);
  d.store = db.empty() ? d.m.results : fs::absolute(db);
  const auto cache = build::list_cache(util::cache_dir());
  for (const auto& name : d.m.kernel_axis) {
    PlannedKernel k;
    k.name = name;
    const auto& spec = d.m.kernels.at(name);
    k.plan = build::plan_kernel(spec);
    k.build = build::expected_build_time(cache, build::source_identity(spec.source));
    if (k.plan.prebuilt) k.build = {0, "a prebuilt Image is copied, not built"};
    for (const auto& c : d.cells) k.boots += c.kernel.name == name ? d.m.repeats : 0;
    if (!k.plan.cached) d.build_s += k.build.seconds;
    d.kernels.push_back(std::move(k));
  }
  std::vector<const matrix::Cell*> boots;
  for (const auto& c : d.cells)
    for (unsigned r = 0; r < d.m.repeats; ++r) boots.push_back(&c);
  d.boots_s = boots_estimate_s(boots, d.accel, d.vcpu_budget);
  return d;
}

namespace {

/// What `rlab nightly` would do around the run (matrix `nightly:`), when the matrix says.
void render_nightly(const matrix::Nightly& n, std::ostream& out) {
  if (n.tree.empty() && n.fetch.empty() && n.remeasure_minutes == 0 && n.bisect_minutes == 0) return;
  out << "nightly:\n";
  if (!n.tree.empty()) {
    const bool git = util::run({"git", "-C", n.tree.string(), "rev-parse", "--git-dir"}).ok();
    out << fmt::format("  bisection tree {}{}\n", n.tree.string(),
                       git ? "" : " -- NOT a git repository: the night's fetches and bisections there will fail");
  }
  if (!n.fetch.empty()) out << fmt::format("  fetches before the run: {}\n", fmt::join(n.fetch, ", "));
  if (n.remeasure_minutes > 0) out << fmt::format("  re-measures unknown cells for up to {:g} min\n", n.remeasure_minutes);
  if (n.bisect_minutes > 0) out << fmt::format("  bisects for up to {:g} min a night\n", n.bisect_minutes);
}

}  // namespace

bool DryRun::refused() const {
  return !unrunnable.empty() || !clock_error.empty() ||
         std::any_of(hosts.begin(), hosts.end(), [](const PlannedHost& p) { return !p.files_error.empty(); });
}

void render_dry_run(const DryRun& d, std::ostream& out) {
  out << fmt::format("{}: valid; dry run: nothing is built, booted or stored\n", d.m.path.string());
  render_cells(d, out);
  render_hosts(d, out);
  render_kernels(d, out);
  out << fmt::format("store: {} (not written)\n", d.store.string());
  render_nightly(d.m.nightly, out);
  out << fmt::format(
      "estimate: {} of kernel builds + {} of boots ({} boots: vCPUs x (passes x (duration + {:g} s) + {:g} s "
      "boot overhead) over a vCPU budget of {}) = {}\n",
      format_duration(d.build_s), format_duration(d.boots_s), d.boots, kPassOverheadS,
      boot_overhead_s(d.accel), d.vcpu_budget, format_duration(d.build_s + d.boots_s));
}

}  // namespace rlab::run
