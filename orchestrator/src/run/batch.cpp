#include "run/batch.hpp"

#include "build/cache_budget.hpp"
#include "host/pinning.hpp"
#include "image/guest_images.hpp"
#include "run/boot_job.hpp"
#include "run/estimate.hpp"
#include "run/interrupts.hpp"
#include "run/owner.hpp"
#include "run/run_dir.hpp"
#include "util/disk_full_error.hpp"
#include "util/usage_error.hpp"
#include "vm/disk.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>

namespace rlab::run {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

HostSurvey survey_hosts(const matrix::Matrix& m, const std::vector<matrix::Cell>& cells) {
  HostSurvey s;
  for (const auto& host : m.hosts) {
    try {
      s.answering.push_back(open_lab_host(host, m.guest));
      s.silence.emplace_back();
    } catch (const std::exception& e) {
      s.silence.emplace_back(e.what());
      s.unreachable.push_back({host.uri, e.what()});
    }
  }
  std::vector<const LabHost*> answering;
  for (const auto& h : s.answering) answering.push_back(&h);
  s.same_machine = same_machines(answering);
  for (const auto& c : cells) {
    auto& row = s.runs.emplace_back();
    for (const auto& h : s.answering) row.push_back(h.cell_refusal(c).empty());
    if (!s.answering.empty() && std::find(row.begin(), row.end(), 1) == row.end()) s.unrunnable.push_back(c.id);
  }
  return s;
}

namespace {

/// "uri (reason); uri (reason)".
std::string list_drained(const std::vector<DrainedHostInfo>& d) {
  std::string out;
  for (const auto& h : d) out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", h.uri, h.reason);
  return out;
}

/// "" while `conn`'s libvirt daemon still answers (a domain listing, after reopening the
/// connection if the daemon was restarted: vm::Connection), else why it does not.
std::string host_silence(vm::Connection& conn) {
  try {
    conn.active_domains("rlab-");
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

/// Whether a failed boot is its host's fault rather than its cell's, and why: the domain could
/// not be created (phase "boot": the XML is the lab's own and the same on every host, so a
/// refusal comes from the host: no QEMU for aarch64, files not on a shared path, the daemon
/// gone for longer than the connection's reopen grace), or the host's libvirt no longer
/// answers after the failure. A guest that booted and then failed (hello, page size, prepare,
/// run) on a host that still answers is the cell's.
Attempt classify(const BootOutcome& out, vm::Connection& conn) {
  if (out.ok || out.phase == store::FailurePhase::interrupted || Interrupts::instance().stopped()) return {};
  if (out.phase == store::FailurePhase::boot) return {true, out.message};
  if (auto why = host_silence(conn); !why.empty())
    return {true, fmt::format("libvirt stopped answering ({}) after the boot failed in {}: {}",
                              why, store::to_string(out.phase), out.message)};
  return {};
}

/// Destroys the active domains on `hosts` whose names start with `prefix` (one run's guests)
/// and removes their host-side files; returns how many domains are still active afterwards.
std::size_t destroy_domains(std::vector<LabHost>& hosts, const std::string& prefix) {
  std::size_t left = 0;
  for (auto& h : hosts) {
    try {
      for (const auto& name : h.conn->active_domains(prefix)) {
        spdlog::warn("destroying leftover domain {}", name);
        h.conn->destroy_by_name(name);
      }
      left += h.conn->active_domains(prefix).size();
    } catch (const vm::LibvirtError& e) {  // a drained host that is gone is out of reach
      spdlog::warn("cannot check {} for this run's domains: {}", h.uri(), e.what());
    }
    if (const auto n = h.files->sweep(prefix)) spdlog::warn("removed {} leftover volumes on {}", n, h.uri());
  }
  return left;
}

/// The hosts a batch boots on, their vCPU budgets, which cells each can run and, with
/// guest.pinning, their CPU pools.
struct Hosts {
  std::vector<LabHost> hosts;
  std::vector<Slot> slots;
  std::vector<std::unique_ptr<host::CpuPool>> pools;
  std::vector<std::vector<char>> runs;  ///< [cell][host]: the host can run the cell
};

/// Step choose_hosts: the surveyed hosts `batch.hosts` asks for. Unreachable ones are drained
/// in `sum` before they get a cell. Throws HostsDrainedError when none answers, UsageError when
/// a cell can run on none of those that answer (refuse_unrunnable).
Hosts choose_hosts(const Batch& batch, HostSurvey survey, RunSummary& sum) {
  for (const auto& u : survey.unreachable) {
    spdlog::error("host {} drained: {}", u.uri, u.reason);
    sum.drained.push_back({u.uri, u.reason});
  }
  if (survey.answering.empty())
    throw HostsDrainedError(fmt::format("run {}: no host answers, nothing booted: {}", batch.run,
                                        list_drained(sum.drained)));
  std::vector<const LabHost*> all;
  for (const auto& h : survey.answering) all.push_back(&h);
  for (const auto& [a, b] : survey.same_machine)
    spdlog::warn("hosts {} and {} are the same machine (one host UUID): its CPUs are budgeted twice", a, b);
  refuse_unrunnable(batch.cells, all, survey.unreachable);
  Hosts h;
  if (batch.hosts == HostUse::kAll) {
    h.hosts = std::move(survey.answering);
    h.runs = std::move(survey.runs);
  } else {
    const auto k = first_fitting_host(all, batch.cells);
    if (!k)
      throw UsageError("no single host of the matrix can run every cell of the batch (nothing booted; "
                       "`rlab run --dry-run` shows each host's capabilities)");
    h.hosts.push_back(std::move(survey.answering[*k]));
    h.runs.assign(batch.cells.size(), {1});
  }
  unsigned largest = 0;
  for (const auto& c : batch.cells) largest = std::max(largest, c.vcpus);
  for (auto& host : h.hosts) {
    const unsigned budget = batch.hosts == HostUse::kOneAtATime ? 1 : host.config.vcpu_budget;
    h.slots.push_back({host.uri(), budget});
    sum.vcpu_budget += budget;
    if (batch.m->guest.pinning.vcpus)
      h.pools.push_back(pin_pool(batch.m->guest.pinning, host, std::max(budget, largest), largest));
  }
  return h;
}

/// QEMU's owner on the first host that opens rlab's paths (files: paths), which the run
/// directory is handed to; nullopt when every host takes volumes. Another such host whose QEMU
/// runs as someone else is warned about: its guests may not open the run's files.
std::optional<vm::QemuOwner> run_dir_owner(std::vector<LabHost>& hosts) {
  std::optional<vm::QemuOwner> owner;
  const LabHost* first = nullptr;
  for (auto& h : hosts) {
    if (h.config.files != matrix::HostFiles::kPaths) continue;
    const auto o = h.conn->qemu_owner();
    if (!first) {
      first = &h, owner = o;
    } else if (o.has_value() != owner.has_value() || (o && (o->uid != owner->uid || o->gid != owner->gid))) {
      spdlog::warn("hosts {} and {} read rlab's paths as different QEMU users: the run directory is handed to "
                   "{}'s, so {}'s guests may not open their files (give it `files: volumes`)",
                   first->uri(), h.uri(), first->uri(), h.uri());
    }
  }
  return owner;
}

/// Step prepare_hosts: guests a resumed run's earlier process left (killed outright: they hold the
/// names and files of the boots resumed now) destroyed, and dead runs of the store swept.
void prepare_hosts(const Batch& batch, Hosts& hosts, const std::string& prefix) {
  if (batch.resumed && destroy_domains(hosts.hosts, prefix) > 0)
    throw vm::LibvirtError(fmt::format("run {}: guests of the interrupted run cannot be destroyed", batch.run));
  std::vector<LabHost*> raw;
  for (auto& h : hosts.hosts) raw.push_back(&h);
  const Swept s = sweep_dead_runs(*batch.st, raw);
  for (const auto id : s.runs)
    spdlog::warn("run {} was left running by a process that is gone: marked interrupted "
                 "(`rlab run --resume {}` finishes it)", id, id);
  if (s.domains) spdlog::warn("destroyed {} guests of dead runs", s.domains);
}

/// The guest images of the batch's kernels, staged in the run directory, by kernel name.
using Images = std::map<std::string, image::GuestImages>;

/// Step build_images: every kernel of the batch's boots, in boot order, once; a kernel that
/// does not build has its boots stored as failed (phase build) and is named in `sum`. A stop
/// signal ends the step, a build it interrupted included. DiskFullError is rethrown.
Images build_images(const Batch& batch, const RunDir& dir, BatchSink& sink, RunSummary& sum) {
  Images staged;
  fs::path agent = batch.agent;
  const auto& m = *batch.m;
  build::apply_matrix_budget(m.cache_max_gib, m.path.string(),
                             [](std::string_view, std::string_view d) { spdlog::info("cache: {}", d); });
  std::map<std::string, std::string> failed;
  for (const auto& job : batch.order) {
    const auto& k = batch.cells[job.cell].kernel;
    if (staged.count(k.name) || failed.count(k.name) || Interrupts::instance().stopped()) continue;
    try {
      const auto t0 = Clock::now();
      if (agent.empty()) agent = image::default_agent_binary();
      const auto img = guest_images(m, k, agent, [&](std::string_view ph, std::string_view d) {
        sink.building(k.name, ph, d);
      });
      staged[k.name] = dir.stage(img);
      sink.built(k.name, std::chrono::duration<double>(Clock::now() - t0).count());
    } catch (const DiskFullError&) {
      throw;  // the lab's fault, not the kernel's
    } catch (const std::exception& e) {
      // A build the stop signal ended says nothing about the kernel: its boots stay pending
      // for a resume.
      if (Interrupts::instance().stopped()) break;
      spdlog::error("kernel {}: {}", k.name, e.what());
      failed[k.name] = e.what();
      sum.kernels_failed.push_back(k.name);
      sink.not_built(k.name, e.what());
    }
  }
  for (const auto& job : batch.order)
    if (auto it = failed.find(batch.cells[job.cell].kernel.name); it != failed.end()) {
      batch.st->record_failure(job.boot, store::FailurePhase::build, it->second, "");
      ++sum.failed;
      ++sum.boots;
    }
  return staged;
}

/// What the boots of a batch share while they run (concurrently, one thread each).
struct BootContext {
  const Batch& batch;
  Hosts& hosts;
  const RunDir& dir;
  const Images& images;
  const std::string label;
  BatchSink& sink;
  RunSummary& sum;
  std::mutex mu;            ///< guards sum, hellos and the sink
  std::size_t hellos = 0;   ///< boots that said hello
};

/// Boots job `j` on host `host` and counts it, unless the host failed under it: then the
/// failure is stored, the host drained and the job waits for another host.
Attempt boot_on(BootContext& ctx, const Job& j, std::size_t host, const Release& release) {
  const auto& cell = ctx.batch.cells[j.cell];
  LabHost& lh = ctx.hosts.hosts[host];
  host::CpuPool* pool = ctx.hosts.pools.empty() ? nullptr : ctx.hosts.pools[host].get();
  const auto phase = [&](std::string_view ph) {
    std::lock_guard lock(ctx.mu);
    ctx.sink.phase(j, ph);
  };
  auto out = run_boot_job(make_boot_job(cell, j.repeat, j.boot, ctx.label, ctx.images.at(cell.kernel.name), ctx.dir,
                                        lh, ctx.batch.m->guest.pinning, pool),
                          lh, *ctx.batch.st, pool, release, phase);
  Attempt attempt = classify(out, *lh.conn);
  if (attempt.host_failed) {
    // Stored next to run_boot's own record of the failure; the boot's status stays failed
    // until another host runs it (or it is abandoned, counted after the schedule).
    ctx.batch.st->record_failure(j.boot, store::FailurePhase::host,
                                 fmt::format("host {} drained: {}", lh.uri(), attempt.reason), "");
    spdlog::warn("{}#{}: host {} drained: {}", cell.id, j.repeat, lh.uri(), attempt.reason);
    phase(fmt::format("host {} failed, waiting for another host", lh.uri()));
    return attempt;
  }
  std::lock_guard lock(ctx.mu);
  ++ctx.sum.boots;
  (out.ok ? ctx.sum.done : ctx.sum.failed) += 1;
  ctx.sum.load_vcpu_s += out.load_vcpu_s;
  ctx.sum.load_host_vcpu_s += out.load_host_vcpu_s;
  if (out.boot_to_hello_s > 0) {
    ctx.sum.boot_to_hello_s += out.boot_to_hello_s;
    ++ctx.hellos;
  }
  ctx.sink.finished(j, out);
  return {};
}

/// Step boot_all: the jobs whose kernel has images, scheduled over the chosen hosts.
ScheduleOutcome boot_all(BootContext& ctx) {
  std::vector<Job> runnable;
  std::vector<const matrix::Cell*> to_boot;
  for (const auto& j : ctx.batch.order)
    if (ctx.images.count(ctx.batch.cells[j.cell].kernel.name)) {
      runnable.push_back(j);
      to_boot.push_back(&ctx.batch.cells[j.cell]);
    }
  const auto& first = ctx.hosts.hosts.front();  // the estimate's accelerator
  ctx.sink.starting(runnable.size(), boots_estimate_s(to_boot, first.guest ? first.guest->accel : vm::Accel::kTcg,
                                                      ctx.sum.vcpu_budget));
  const auto t0 = Clock::now();
  const ScheduleOutcome scheduled = schedule(
      runnable, ctx.hosts.slots,
      [&](const Job& j, std::size_t host, const Release& release) { return boot_on(ctx, j, host, release); },
      [] { return Interrupts::instance().stopped(); }, 2,
      [&](const Job& j, std::size_t host) { return ctx.hosts.runs[j.cell][host] != 0; });
  ctx.sum.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  for (const auto& d : scheduled.drained) ctx.sum.drained.push_back({ctx.hosts.slots[d.host].uri, d.reason});
  for (const auto& j : scheduled.abandoned) {
    ++ctx.sum.boots;
    ++ctx.sum.failed;
    ctx.sink.abandoned(j);
  }
  if (ctx.hellos) ctx.sum.boot_to_hello_s /= static_cast<double>(ctx.hellos);
  return scheduled;
}

/// Step close_batch: destroys what is left of the batch's guests (prefix: its domain names), thins
/// the hosts' uploaded images, and stores the run's status (interrupted, failed, done).
/// Throws HostsDrainedError when every host was drained before the run was interrupted.
void close_batch(const Batch& batch, Hosts& hosts, const ScheduleOutcome& scheduled, const std::string& prefix,
           RunSummary& sum) {
  // Nothing of this run may outlive it; what earlier runs left unused for long goes too.
  sum.leftover_domains = destroy_domains(hosts.hosts, prefix);
  for (auto& h : hosts.hosts)
    if (const auto n = h.files ? h.files->thin() : 0)
      spdlog::info("host {}: removed {} kernels and initramfs no run used for {} days", h.uri(), n,
                   kContentKeep.count() / 24);
  for (const auto& d : sum.drained) spdlog::warn("host {} was drained: {}", d.uri, d.reason);
  sum.interrupted = Interrupts::instance().stopped();
  if (scheduled.all_drained && !sum.interrupted) {
    batch.st->finish_run(batch.run, store::RunStatus::failed);
    throw HostsDrainedError(fmt::format("run {}: every host was drained, {} boots not run: {}. Everything measured "
                                        "is stored; {}", batch.run, scheduled.unstarted.size(),
                                        list_drained(sum.drained), batch.resume_hint));
  }
  if (!scheduled.unstarted.empty() && !sum.interrupted) {
    // Cells only drained hosts could run: still pending, for a resume once one answers.
    spdlog::error("run {}: {} boots not run: every host that can run their cells was drained", batch.run,
                  scheduled.unstarted.size());
    sum.failed += scheduled.unstarted.size();
    sum.boots += scheduled.unstarted.size();
  }
  batch.st->finish_run(batch.run, sum.interrupted ? store::RunStatus::interrupted
                                  : sum.failed    ? store::RunStatus::failed
                                                  : store::RunStatus::done);
}

}  // namespace

RunSummary run_batch(const Batch& batch, BatchSink& sink) {
  RunSummary sum;
  sum.run = batch.run;
  sum.db = batch.st->path();
  const std::string label = run_label(batch.run, batch.st->path());
  const std::string prefix = vm::domain_name(label, "") + "-";
  Hosts hosts;
  std::unique_ptr<RunDir> dir;
  Images images;
  try {
    hosts = choose_hosts(batch, survey_hosts(*batch.m, batch.cells), sum);
    dir = std::make_unique<RunDir>(batch.st->path(), batch.run, run_dir_owner(hosts.hosts));
    prepare_hosts(batch, hosts, prefix);
    images = build_images(batch, *dir, sink, sum);
  } catch (...) {
    // Nothing booted: the run is over before it began; a resume can still pick it up.
    batch.st->finish_run(batch.run, store::RunStatus::failed);
    throw;
  }
  if (batch.every_kernel_or_none && !sum.kernels_failed.empty()) {
    batch.st->finish_run(batch.run, store::RunStatus::failed);
    return sum;
  }
  BootContext ctx{batch, hosts, *dir, images, label, sink, sum, {}, 0};
  const ScheduleOutcome scheduled = boot_all(ctx);
  close_batch(batch, hosts, scheduled, prefix, sum);
  return sum;
}

}  // namespace rlab::run
