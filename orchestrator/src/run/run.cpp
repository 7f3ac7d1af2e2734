#include "run/run.hpp"

#include "run/clock.hpp"

#include "build/cache_budget.hpp"
#include "run/boot_job.hpp"

#include "image/guest_images.hpp"
#include "matrix/matrix.hpp"
#include "run/boot.hpp"
#include "run/estimate.hpp"
#include "run/interrupts.hpp"
#include "run/lab_host.hpp"
#include "run/owner.hpp"
#include "host/pinning.hpp"
#include "run/run_dir.hpp"
#include "run/scheduler.hpp"
#include "util/hash.hpp"
#include "vm/disk.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

namespace rlab::run {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {


struct Plan {
  std::unique_ptr<store::Store> st;
  store::RunId run = 0;
  matrix::Matrix m;
  std::vector<matrix::Cell> cells;
  std::vector<Job> order;
};

/// The selected cells of `all`, in the selection's order. Throws UsageError.
std::vector<matrix::Cell> select_cells(const std::vector<matrix::Cell>& all, const Selection& s,
                                       const fs::path& matrix) {
  std::vector<matrix::Cell> out;
  for (const auto& id : s.cell_ids) {
    auto it = std::find_if(all.begin(), all.end(), [&](const matrix::Cell& c) { return c.id == id; });
    if (it == all.end()) throw UsageError(fmt::format("{}: no cell '{}'", matrix.string(), id));
    if (std::any_of(out.begin(), out.end(), [&](const matrix::Cell& c) { return c.id == id; }))
      throw UsageError(fmt::format("cell '{}' selected twice", id));
    out.push_back(*it);
  }
  if (out.empty() || s.repeats < 1) throw UsageError("a selection needs cells and repeats >= 1");
  return out;
}

Plan plan_new(const RunOptions& o) {
  Plan p;
  p.m = matrix::load_matrix(o.matrix);
  settle_auto_clock(p.m);
  p.cells = matrix::expand_cells(p.m);
  if (o.selection) p.cells = select_cells(p.cells, *o.selection, o.matrix);
  p.st = store::Store::open(o.db.empty() ? p.m.results : o.db);
  p.run = p.st->create_run({o.matrix.string(), p.m.text, p.m.seed, o.kind,
                            o.selection ? o.selection->note : ""});
  p.st->add_cells(p.run, matrix::cell_rows(p.cells), o.selection ? o.selection->repeats : p.m.repeats);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < p.cells.size(); ++i) index[p.cells[i].id] = i;
  std::vector<Job> jobs;
  for (const auto& b : p.st->boots(p.run)) {
    std::size_t ci = index.at(b.cell_id);
    jobs.push_back({b.id, ci, b.repeat, p.cells[ci].vcpus});
  }
  p.order = o.selection ? interleaved_order(std::move(jobs))
                        : shuffled_order(std::move(jobs), p.m.seed);
  for (std::size_t i = 0; i < p.order.size(); ++i)
    p.st->set_boot_order(p.order[i].boot, static_cast<int>(i));
  return p;
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
/// answers after the failure. A guest that booted and
/// then failed (hello, page size, prepare, run) on a host that still answers is the cell's.
Attempt classify(const BootOutcome& out, vm::Connection& conn) {
  if (out.ok || out.phase == store::FailurePhase::interrupted || Interrupts::instance().stopped()) return {};
  if (out.phase == store::FailurePhase::boot) return {true, out.message};
  if (auto why = host_silence(conn); !why.empty())
    return {true, fmt::format("libvirt stopped answering ({}) after the boot failed in {}: {}",
                              why, store::to_string(out.phase), out.message)};
  return {};
}

/// "uri (reason); uri (reason)".
std::string list_drained(const std::vector<DrainedHostInfo>& d) {
  std::string out;
  for (const auto& h : d) out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", h.uri, h.reason);
  return out;
}

Plan plan_resume(const RunOptions& o) {
  Plan p;
  const fs::path db = matrix::store_path(o.db, o.matrix);
  if (!fs::exists(db)) throw UsageError(db.string() + ": no results store to resume from");
  p.st = store::Store::open(db);
  auto info = p.st->run(*o.resume);
  if (!info)
    throw UsageError(fmt::format("{}: no run {} to resume (see `rlab results --list`)",
                                            db.string(), *o.resume));
  p.run = info->id;
  // The run's own matrix text, not whatever the file says now.
  p.m = matrix::parse_matrix(info->matrix_text, info->matrix_path);
  settle_auto_clock(p.m);
  p.m.seed = info->seed;
  p.cells = matrix::expand_cells(p.m);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < p.cells.size(); ++i) index[p.cells[i].id] = i;
  for (const auto& b : p.st->unfinished_boots(p.run, o.retry_failed)) {
    auto it = index.find(b.cell_id);
    if (it == index.end())
      throw UsageError(fmt::format("run {}: stored cell '{}' is not in its matrix",
                                              p.run, b.cell_id));
    p.order.push_back({b.id, it->second, b.repeat, p.cells[it->second].vcpus});
  }
  return p;
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

/// Sweeps the store's dead runs (owner.hpp) on `hosts`, saying what it did.
void sweep(store::Store& st, std::vector<LabHost>& hosts) {
  std::vector<LabHost*> raw;
  for (auto& h : hosts) raw.push_back(&h);
  const Swept s = sweep_dead_runs(st, raw);
  for (const auto id : s.runs)
    spdlog::warn("run {} was left running by a process that is gone: marked interrupted "
                 "(`rlab run --resume {}` finishes it)", id, id);
  if (s.domains) spdlog::warn("destroyed {} guests of dead runs", s.domains);
}

/// The hosts a run boots on (lab_host.hpp: one shared libvirt connection each, their
/// capabilities, guest settings and files), their vCPU budgets, which cells each can run and,
/// with guest.pinning, their CPU pools.
struct Hosts {
  std::vector<LabHost> hosts;
  std::vector<Slot> slots;
  std::vector<std::unique_ptr<host::CpuPool>> pools;
  std::vector<std::vector<char>> runs;  ///< [cell][host]: the host can run the cell
};

/// Connects to the matrix's hosts; a host that cannot be reached is drained before it gets a
/// cell (in `sum`). Throws HostsDrainedError when none answers, UsageError when a cell can run
/// on none of those that answer (refuse_unrunnable).
Hosts connect_hosts(const Plan& p, const RunOptions& o, RunSummary& sum) {
  Hosts h;
  std::vector<UnreachableHost> unreachable;
  for (const auto& host : p.m.hosts) {
    try {
      h.hosts.push_back(open_lab_host(host, p.m.guest));
    } catch (const vm::LibvirtError& e) {
      spdlog::error("host {} drained: {}", host.uri, e.what());
      sum.drained.push_back({host.uri, e.what()});
      unreachable.push_back({host.uri, e.what()});
      continue;
    }
    h.slots.push_back({host.uri, host.vcpu_budget});
    sum.vcpu_budget += host.vcpu_budget;
  }
  if (h.hosts.empty())
    throw HostsDrainedError(fmt::format("run {}: no host answers, nothing booted: {}", p.run,
                                        list_drained(sum.drained)));
  if (o.selection) {  // one boot at a time on one host, the first that can run the selection
    std::vector<const LabHost*> all;
    for (const auto& host : h.hosts) all.push_back(&host);
    const auto k = first_fitting_host(all, p.cells);
    if (!k) {
      refuse_unrunnable(p.cells, all, unreachable);  // a cell no host runs: each host's reason
      throw UsageError("no single host of the matrix can run every selected cell (nothing booted; "
                       "`rlab run --dry-run` shows each host's capabilities)");
    }
    if (*k > 0) {
      std::swap(h.hosts.front(), h.hosts[*k]);
      std::swap(h.slots.front(), h.slots[*k]);
    }
    h.hosts.resize(1);
    h.slots = {{h.slots.front().uri, 1}};
    sum.vcpu_budget = 1;
  }
  std::vector<const LabHost*> answering;
  for (const auto& host : h.hosts) answering.push_back(&host);
  for (const auto& [a, b] : same_machines(answering))
    spdlog::warn("hosts {} and {} are the same machine (one host UUID): its CPUs are budgeted twice", a, b);
  refuse_unrunnable(p.cells, answering, unreachable);
  for (const auto& c : p.cells) {
    h.runs.emplace_back();
    for (const auto& host : h.hosts) h.runs.back().push_back(host.cell_refusal(c).empty());
  }
  if (p.m.guest.pinning.vcpus) {
    unsigned largest = 0;
    for (const auto& c : p.cells) largest = std::max(largest, c.vcpus);
    for (std::size_t i = 0; i < h.hosts.size(); ++i)
      h.pools.push_back(pin_pool(p.m.guest.pinning, h.hosts[i], h.slots[i].budget, largest));
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

/// The guest images of the run's kernels, staged in the run directory, and the kernels whose
/// images could not be built with why; all before anything boots.
struct Images {
  std::map<std::string, image::GuestImages> staged;  ///< by kernel name
  std::map<std::string, std::string> failed;         ///< kernel name -> error
};

Images build_images(const Plan& p, const RunOptions& o, const RunDir& dir, Progress& progress) {
  Images out;
  fs::path agent = o.agent_binary;
  build::apply_matrix_budget(p.m.cache_max_gib, p.m.path.string(),
                             [](std::string_view, std::string_view d) { spdlog::info("cache: {}", d); });
  for (const auto& job : p.order) {
    const auto& k = p.cells[job.cell].kernel;
    if (out.staged.count(k.name) || out.failed.count(k.name) || Interrupts::instance().stopped()) continue;
    try {
      if (agent.empty()) agent = image::default_agent_binary();
      auto img = guest_images(p.m, k, agent, [&](std::string_view ph, std::string_view d) {
        progress.build(k.name, ph, d);
      });
      out.staged[k.name] = dir.stage(img);
    } catch (const std::exception& e) {
      spdlog::error("kernel {}: {}", k.name, e.what());
      out.failed[k.name] = e.what();
    }
  }
  return out;
}

/// The jobs whose kernel has images; the others are stored as failed in phase build.
std::vector<Job> runnable_jobs(const Plan& p, const Images& images, RunSummary& sum) {
  std::vector<Job> runnable;
  for (const auto& job : p.order) {
    const auto& c = p.cells[job.cell];
    if (auto it = images.failed.find(c.kernel.name); it != images.failed.end()) {
      p.st->record_failure(job.boot, store::FailurePhase::build, it->second, "");
      ++sum.failed;
      ++sum.boots;
    } else {
      runnable.push_back(job);
    }
  }
  return runnable;
}

/// What the boots of a run share while they run (concurrently, one thread each).
struct RunContext {
  const Plan& p;
  Hosts& hosts;
  const RunDir& dir;
  const Images& images;
  const std::string label;
  Progress& progress;
  RunSummary& sum;
  const RunOptions& options;
  std::mutex mu;            ///< guards sum, hellos and the rounds
  std::size_t hellos = 0;   ///< boots that said hello
  std::map<unsigned, std::size_t> left;  ///< repeat -> boots of it not finished yet
  unsigned rounds_done = 0;              ///< repeats 0..rounds_done-1 have all finished
};

/// Counts a finished boot of `repeat` and calls options.on_round for each repeat it completes
/// (in order), except the last. Called with ctx.mu held.
void round_finished(RunContext& ctx, unsigned repeat) {
  if (auto it = ctx.left.find(repeat); it != ctx.left.end() && it->second > 0) --it->second;
  while (ctx.left.count(ctx.rounds_done) && ctx.left.at(ctx.rounds_done) == 0) {
    ++ctx.rounds_done;
    if (ctx.options.on_round && ctx.rounds_done < ctx.left.size())
      ctx.options.on_round(ctx.p.st->path(), ctx.p.run, ctx.rounds_done, static_cast<unsigned>(ctx.left.size()));
  }
}

/// The boot of job `j` on host `host`, as the scheduler's work.
BootJob boot_job(RunContext& ctx, const Job& j, std::size_t host) {
  const auto& c = ctx.p.cells[j.cell];
  return make_boot_job(c, j.repeat, j.boot, ctx.label, ctx.images.staged.at(c.kernel.name), ctx.dir,
                       ctx.hosts.hosts[host], ctx.p.m.guest.pinning,
                       ctx.hosts.pools.empty() ? nullptr : ctx.hosts.pools[host].get());
}

/// Boots job `j` on host `host` and counts it, unless the host failed under it: then the
/// failure is stored, the host drained and the job waits for another host.
Attempt boot_on(RunContext& ctx, const Job& j, std::size_t host, const Release& release) {
  const std::string key = fmt::format("{}#{}", ctx.p.cells[j.cell].id, j.repeat);
  const std::string& uri = ctx.hosts.slots[host].uri;
  LabHost& lh = ctx.hosts.hosts[host];
  auto out = run_boot_job(boot_job(ctx, j, host), lh, *ctx.p.st,
                          ctx.hosts.pools.empty() ? nullptr : ctx.hosts.pools[host].get(), release,
                          [&](std::string_view ph) { ctx.progress.phase(key, ph); });
  Attempt attempt = classify(out, *lh.conn);
  if (attempt.host_failed) {
    // Stored next to run_boot's own record of the failure; the boot's status stays failed
    // until another host runs it (or it is abandoned, counted after the schedule).
    ctx.p.st->record_failure(j.boot, store::FailurePhase::host,
                             fmt::format("host {} drained: {}", uri, attempt.reason), "");
    spdlog::warn("{}: host {} drained: {}", key, uri, attempt.reason);
    ctx.progress.phase(key, fmt::format("host {} failed, waiting for another host", uri));
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
  ctx.progress.finished(key, out.ok, out.wall_s,
                        out.ok ? fmt::format("{:.1f} lpm, {}", out.score,
                                             out.boot_to_hello_s > 0 ? fmt::format("hello after {:.1f} s", out.boot_to_hello_s)
                                                                     : std::string("no agent (bare guest)"))
                               : fmt::format("{}: {}", store::to_string(out.phase), out.message));
  round_finished(ctx, j.repeat);
  return {};
}

/// Counts what the schedule left: drained hosts and abandoned boots (their host failure is
/// stored as their failure).
void count_left(RunContext& ctx, const ScheduleOutcome& scheduled) {
  for (const auto& d : scheduled.drained) ctx.sum.drained.push_back({ctx.hosts.slots[d.host].uri, d.reason});
  for (const auto& j : scheduled.abandoned) {
    ++ctx.sum.boots;
    ++ctx.sum.failed;
    ctx.progress.finished(fmt::format("{}#{}", ctx.p.cells[j.cell].id, j.repeat), false, 0,
                          "its hosts failed and it was not moved again");
  }
  if (ctx.hellos) ctx.sum.boot_to_hello_s /= static_cast<double>(ctx.hellos);
}

/// Ends run p.run after its schedule: destroys what is left of its guests (prefix: its domain
/// names), thins the hosts' uploaded images, and stores its status (interrupted, failed, done).
/// Throws HostsDrainedError when every host was drained before the run was interrupted.
void close_run(Plan& p, Hosts& hosts, const RunOptions& o, const ScheduleOutcome& scheduled,
               const std::string& prefix, RunSummary& sum) {
  auto& intr = Interrupts::instance();
  // Nothing of this run may outlive it; what earlier runs left unused for long goes too.
  sum.leftover_domains = destroy_domains(hosts.hosts, prefix);
  for (auto& h : hosts.hosts)
    if (const auto n = h.files ? h.files->thin() : 0)
      spdlog::info("host {}: removed {} kernels and initramfs no run used for {} days", h.uri(), n,
                   kContentKeep.count() / 24);
  for (const auto& d : sum.drained) spdlog::warn("host {} was drained: {}", d.uri, d.reason);
  sum.interrupted = intr.stopped();
  if (scheduled.all_drained && !sum.interrupted) {
    p.st->finish_run(p.run, store::RunStatus::failed);
    throw HostsDrainedError(fmt::format(
        "run {}: every host was drained, {} boots not run: {}. Everything measured is stored; "
        "`rlab run --resume {} --retry-failed {}` continues once a host answers",
        p.run, scheduled.unstarted.size(), list_drained(sum.drained), p.run, o.matrix.string()));
  }
  if (!scheduled.unstarted.empty() && !sum.interrupted) {
    // Cells only drained hosts could run: still pending, for `--resume` once one answers.
    spdlog::error("run {}: {} boots not run: every host that can run their cells was drained", p.run,
                  scheduled.unstarted.size());
    sum.failed += scheduled.unstarted.size();
    sum.boots += scheduled.unstarted.size();
  }
  p.st->finish_run(p.run, sum.interrupted ? store::RunStatus::interrupted
                          : sum.failed    ? store::RunStatus::failed
                                          : store::RunStatus::done);
}

}  // namespace

RunSummary execute(const RunOptions& o, Progress& progress) {
  auto& intr = Interrupts::instance();
  Plan p = o.resume ? plan_resume(o) : plan_new(o);
  const util::FileLock owner = own_run(p.st->path(), p.run);  // refuses a run another process runs
  RunSummary sum;
  sum.run = p.run;
  sum.db = p.st->path();
  spdlog::info("run {}: {} boots, seed {}, store {}", p.run, p.order.size(), p.m.seed,
               p.st->path().string());
  Hosts hosts;
  std::unique_ptr<RunDir> dir;
  try {
    hosts = connect_hosts(p, o, sum);
    dir = std::make_unique<RunDir>(p.st->path(), p.run, run_dir_owner(hosts.hosts));
  } catch (...) {
    // Nothing booted: the run is over before it began; `--resume` can still pick it up.
    p.st->finish_run(p.run, store::RunStatus::failed);
    throw;
  }
  const std::string label = run_label(p.run, p.st->path());
  const std::string prefix = vm::domain_name(label, "") + "-";
  // A run killed outright (SIGKILL, a crash, power loss) leaves its guests running; they hold
  // the names and files of the boots resumed now.
  if (o.resume && destroy_domains(hosts.hosts, prefix) > 0)
    throw vm::LibvirtError(fmt::format("run {}: guests of the interrupted run cannot be destroyed",
                                       p.run));
  sweep(*p.st, hosts.hosts);
  const Images images = build_images(p, o, *dir, progress);
  const std::vector<Job> runnable = runnable_jobs(p, images, sum);
  std::vector<const matrix::Cell*> to_boot;
  for (const auto& j : runnable) to_boot.push_back(&p.cells[j.cell]);
  const LabHost* first = nullptr;  // the estimate's accelerator: the first host that runs guests
  for (const auto& h : hosts.hosts)
    if (!first && h.guest) first = &h;
  progress.start(runnable.size(), boots_estimate_s(to_boot, first ? first->guest->accel : vm::Accel::kTcg,
                                                   sum.vcpu_budget));

  RunContext ctx{p, hosts, *dir, images, label, progress, sum, o, {}, 0, {}, 0};
  for (const auto& j : runnable) ++ctx.left[j.repeat];
  const auto t0 = Clock::now();
  const ScheduleOutcome scheduled = schedule(
      runnable, hosts.slots,
      [&](const Job& j, std::size_t host, const Release& release) { return boot_on(ctx, j, host, release); },
      [&] { return intr.stopped(); }, 2,
      [&](const Job& j, std::size_t host) { return hosts.runs[j.cell][host] != 0; });
  count_left(ctx, scheduled);
  sum.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  progress.end();

  close_run(p, hosts, o, scheduled, prefix, sum);
  return sum;
}

}  // namespace rlab::run
