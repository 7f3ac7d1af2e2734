#include "run/boot.hpp"

#include "run/bare_guest.hpp"
#include "link/agent_link.hpp"
#include "image/initramfs.hpp"
#include "image/unixbench.hpp"
#include "host/host_load.hpp"
#include "run/interrupts.hpp"
#include "host/pinning.hpp"
#include "host/sample_host.hpp"
#include "run/to_store.hpp"
#include "rlab/protocol/score.hpp"
#include "vm/disk.hpp"
#include "util/disk_full_error.hpp"
#include "util/paths.hpp"
#include "vm/domain_facts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <utility>

namespace rlab::run {
namespace fs = std::filesystem;
namespace proto = rlab::protocol;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

link::Duration ms(double seconds) { return link::Duration(static_cast<long long>(seconds * 1000)); }

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Guest instructions per host second that TCG is assumed to reach at least: 4 M (a 1-vCPU
/// shell1 guest executed 6-8 M on a 2-core x86_64 host with a load average of 18).
constexpr double kSlowTcgInstructionsPerSecond = 4e6;

/// Host seconds one guest second may take, for the run's liveness timeouts and deadline: 1 in
/// real time. Under icount a guest second is 1e9 / 2^shift instructions, however long the
/// host needs for them.
double host_per_guest_second(const GuestSettings& g) {
  if (!g.icount_shift) return 1;
  return std::max(1.0, 1e9 / double(1u << *g.icount_shift) / kSlowTcgInstructionsPerSecond);
}

/// A failure of one phase; caught in run_boot and stored.
struct PhaseError : std::runtime_error {
  PhaseError(store::FailurePhase p, const std::string& m) : std::runtime_error(m), phase(p) {}
  store::FailurePhase phase;
};

store::Environment environment(const BootJob& job, const GuestSettings& g, const std::string& uri,
                               const proto::Hello& hello) {
  const auto& c = *job.cell;
  store::Environment e;
  e.host = uri;
  e.accel = std::string(vm::to_string(g.accel));
  e.cpu_model = g.cpu_model;
  e.cpu_options = vm::cpu_options(domain_spec(job, g));  // "pauth=off", plus icount if any
  e.memory_mib = g.memory_mib;
  e.vcpus = c.vcpus;
  e.page_size = static_cast<unsigned>(hello.page_size);
  e.kernel_release = hello.kernel_release;
  e.config_sha256 = job.images->config_sha256;
  e.fs = matrix::to_string(c.filesystem.fs);
  e.mkfs_options = json(c.filesystem.mkfs_options).dump();
  e.mount_options = c.filesystem.mount_options;
  e.agent_version = hello.agent_version;
  e.workload = c.workload.kind;
  e.copies = c.copies;
  e.passes = c.workload.passes;
  e.duration_s = c.workload.duration_s;
  e.locale = "en_US.utf8";  // the agent's LANG for the load, UnixBench's
  e.layout = matrix::to_string(c.workload.layout);
  e.input = c.workload.input_id;
  e.drop_caches = c.workload.drop_caches;
  e.runner = matrix::to_string(c.workload.runner);
  e.disk = matrix::to_string(g.disk_backing);
  e.attribution = matrix::to_string(c.workload.attribution);
  e.sample_interval_s = c.workload.sample_interval_s;
  return e;
}

/// The agent's attribution level for the matrix's.
proto::AttributionLevel agent_attribution(matrix::Attribution a) {
  switch (a) {
    case matrix::Attribution::kCounts: return proto::AttributionLevel::counts;
    case matrix::Attribution::kStacks: return proto::AttributionLevel::stacks;
    case matrix::Attribution::kFull: return proto::AttributionLevel::full;
    default: return proto::AttributionLevel::off;
  }
}

/// The `run` request of a boot of `cell` with `warmup` extra passes.
proto::Run run_request(const matrix::Cell& cell, unsigned warmup) {
  proto::Run req;
  req.workload = cell.workload.kind;
  req.copies = cell.copies;
  req.passes = warmup + cell.workload.passes;
  req.duration_s = cell.workload.duration_s;
  req.scripts_per_loop = cell.workload.scripts_per_loop;
  req.workdir = "/mnt/rlab/work";
  req.sample_interval_s = cell.workload.sample_interval_s;
  req.pause_s = 3.0;  // UnixBench's sync; sleep 1; sync; sleep 2
  req.drop_caches = cell.workload.drop_caches;
  req.layout = cell.workload.layout == matrix::Layout::kPerCopy ? proto::Layout::per_copy : proto::Layout::shared;
  // A bare guest has no agent to ask; rlab's and UnixBench's runners are the agent's.
  req.runner = cell.workload.runner == matrix::Runner::kUnixbench ? proto::Runner::unixbench : proto::Runner::rlab;
  req.unixbench_dir = image::kGuestUnixbenchDir;
  req.attribution = agent_attribution(cell.workload.attribution);
  req.attribution_top = cell.workload.attribution_top;
  req.input = cell.workload.input;
  return req;
}

}  // namespace

image::GuestImages guest_images(const matrix::Matrix& m, const build::KernelSpec& k, const fs::path& agent,
                                const image::Progress& progress) {
  image::GuestImages img = image::ensure_guest_images(k, agent, progress);
  for (const auto& w : m.workload_axis)
    if (matrix::runs_unixbench_scripts(w.runner))
      return image::with_archive(img, image::unixbench_archive(w.unixbench_dir));
  return img;
}

GuestSettings guest_settings(const matrix::Guest& g, matrix::Accel accel) {
  GuestSettings s;
  s.accel = accel == matrix::Accel::kKvm ? vm::Accel::kKvm : vm::Accel::kTcg;
  s.cpu_model = matrix::resolve_cpu_model(g, accel);
  s.memory_mib = g.memory_mib;
  s.disk_gib = g.disk_gib;
  s.icount_shift = g.icount();
  s.disk_backing = g.disk_backing;
  s.host_page_kib = g.host_page_kib;
  if (s.disk_backing == matrix::DiskBacking::kRam) {
    s.memory_mib += g.disk_gib * 1024;
    s.cmdline += fmt::format(" brd.rd_nr=1 brd.rd_size={}", std::uint64_t(g.disk_gib) << 20);
  }
  return s;
}

vm::DomainSpec domain_spec(const BootJob& job, const GuestSettings& g) {
  vm::DomainSpec s;
  s.name = job.domain_name;
  s.accel = g.accel;
  s.vcpus = job.cell->vcpus;
  s.memory_mib = g.memory_mib;
  s.cpu_model = g.cpu_model;
  s.kernel = fs::absolute(job.images->kernel_image);
  s.initramfs = fs::absolute(job.images->initramfs);
  s.cmdline = g.cmdline;
  if (job.cell->workload.runner == matrix::Runner::kBare)  // its /init instead of rlab's and the agent
    s.cmdline += bare_cmdline(*job.cell, g.disk_backing == matrix::DiskBacking::kRam ? BareDisk{"/dev/ram0", ""}
                                                                                     : BareDisk{"", "rlab-fs"});
  else  // the agent is PID 1 from the start: no shell /init and its execs before it
    s.cmdline += fmt::format(" rdinit={}", image::kAgentPath);
  s.console_log = fs::absolute(job.dir / "console.log");
  // Through libvirt the channel has no path of rlab's: libvirt binds it on the host.
  if (job.agent_link == matrix::AgentLink::kLibvirt) s.agent_via_libvirt = true;
  else s.agent_socket = fs::absolute(job.dir / "agent.sock");
  if (g.disk_backing == matrix::DiskBacking::kVirtio) s.disk = fs::absolute(job.dir / "fs.raw");
  s.disk_serial = "rlab-fs";  // bare_cmdline's too
  for (unsigned c : job.pinned_cpus) s.vcpu_pins.push_back(std::to_string(c));
  if (job.pin_emulator) s.emulator_pin = host::cpuset(job.pinned_cpus);
  s.icount_shift = g.icount_shift;
  return s;
}

store::KernelIdentity kernel_identity(const matrix::Cell& cell, const image::GuestImages& img) {
  store::KernelIdentity k;
  k.kernel_key = img.kernel_key;
  k.name = cell.kernel.name;
  k.kernel_release = img.kernel_release;
  k.source_commit = img.source_commit;
  k.config_sha256 = img.config_sha256;
  k.page_size_kib = img.page_size_kib;
  k.patchset = cell.kernel.patchset;
  k.origin = img.kernel_origin;
  return k;
}

namespace {

/// One boot while it runs: its guest, its agent link and what it has measured. Each phase is
/// one method; a phase that fails throws, and `failed_in` says which phase it was.
class BootRun {
 public:
  BootRun(const BootJob& job, const GuestSettings& g, vm::Connection& conn, store::Store& st,
          const PhaseFn& phase_fn)
      : job_(job), cell_(*job.cell), g_(g), conn_(conn), st_(st), phase_fn_(phase_fn),
        spec_(domain_spec(job, g)), host_spec_(spec_), session_(io_) {
    static const std::unique_ptr<BootFiles> paths = path_files();
    files_ = job.files ? job.files : paths.get();
    st_.start_boot(job_.boot, conn_.uri(), spec_.name, spec_.console_log.string());
    st_.record_images(job_.boot, kernel_identity(cell_, *job_.images), job_.images->image_key);
    hook_ = Interrupts::instance().add_hook([this] { session_.cancel(); });  // last: nothing throws after
  }
  ~BootRun() { Interrupts::instance().remove_hook(hook_); }
  BootRun(const BootRun&) = delete;
  BootRun& operator=(const BootRun&) = delete;

  /// Boot, hello, prepare, the load (its result stored), shutdown.
  void measure() {
    const auto booted = start_domain();
    if (cell_.workload.runner == matrix::Runner::kBare) {
      check_platform(proto::Hello{});  // while it runs; no hello, so no guest's view of its hypervisor
      return run_bare();
    }
    const proto::Hello hello = await_hello(booted);
    check_platform(hello);
    prepare_filesystem();
    run_load(hello);
    if (job_.measured) job_.measured();  // the next boot may start while this guest powers off
    shut_down();
  }

  /// Records why the boot failed: the phase `e` ended and its message.
  void failed(const std::exception& e) {
    out_.ok = false;
    out_.message = e.what();
    // Through libvirt the channel also ends when the host's connection does: say which.
    if (const auto why = channel_ ? channel_->stream_error() : ""; !why.empty())
      out_.message += fmt::format(" (the libvirt stream ended: {})", why);
    if (auto* pe = dynamic_cast<const PhaseError*>(&e)) out_.phase = pe->phase;
    else if (Interrupts::instance().stopped()) out_.phase = store::FailurePhase::interrupted;
    else if (auto* le = dynamic_cast<const link::LinkError*>(&e); le && le->timed_out)
      out_.phase = failed_in_ == store::FailurePhase::hello ? store::FailurePhase::hello_timeout
                                                            : store::FailurePhase::timeout;
    else out_.phase = failed_in_;
  }

  /// When QEMU paused the guest because a write to its disk image found the host's
  /// filesystem full: the DiskFullError that says so (the image, the free space left, the
  /// disk errors libvirt reports). The lab's fault, not the kernel's: the run ends and the
  /// boot stays running for --resume.
  std::optional<DiskFullError> host_disk_full() const;

  /// Ends the link, destroys the guest and removes its scratch disk and socket (the console
  /// log stays).
  void tear_down();

  /// Stores the failure with the console's tail (its guest kernel panic leading the message).
  void record_failure();

  /// Stores the host's load between `before` and now, and the boot's pinning.
  void record_host(const host::HostSnapshot& before);

  BootOutcome& outcome() { return out_; }

 private:
  void phase(store::FailurePhase failing, std::string_view shown) {
    failed_in_ = failing;
    if (phase_fn_) phase_fn_(shown);
  }
  Clock::time_point start_domain();
  proto::Hello await_hello(Clock::time_point booted);
  void check_platform(const proto::Hello& hello);
  void prepare_filesystem();
  void run_load(const proto::Hello& hello);
  void shut_down();
  void run_bare();
  void record_and_check_hello(const proto::Hello& hello);
  void await_power_off(double guest_s);

  const BootJob& job_;
  const matrix::Cell& cell_;
  const GuestSettings& g_;
  vm::Connection& conn_;
  store::Store& st_;
  const PhaseFn& phase_fn_;
  const vm::DomainSpec spec_;  // with rlab's paths
  vm::DomainSpec host_spec_;   // as the host opens it (BootFiles::prepare)
  BootFiles* files_ = nullptr;
  bool entered_ = false;  // counted in job_.running until tear_down
  boost::asio::io_context io_;
  link::AgentSession session_;
  std::unique_ptr<vm::StreamBridge> channel_;  // the agent link through libvirt, if any
  std::optional<vm::Domain> dom_;
  int hook_ = -1;
  bool files_finished_ = false;  // files_->finish() done (a bare boot reads its console before tear_down)
  store::FailurePhase failed_in_ = store::FailurePhase::boot;
  BootOutcome out_;
};

Clock::time_point BootRun::start_domain() {
  auto& intr = Interrupts::instance();
  phase(store::FailurePhase::boot, "disk");  // a host that cannot take the files fails the boot phase
  host_spec_ = files_->prepare(spec_, std::uint64_t(g_.disk_gib) << 30);
  phase(store::FailurePhase::boot, "boot");
  if (intr.stopped()) throw PhaseError(store::FailurePhase::interrupted, "run interrupted before boot");
  const auto created = Clock::now();
  dom_.emplace(conn_.create_transient(vm::domain_xml(host_spec_), job_.running != nullptr));
  intr.add_domain(conn_.uri(), spec_.name);
  if (intr.stopped()) throw PhaseError(store::FailurePhase::interrupted, "run interrupted during boot");
  if (!job_.running) return created;
  // Created paused: it runs once its vCPUs fit beside the host's running guests (the one
  // before it in this slot may still be powering off).
  const double create_s = since(created);
  const auto ready = Clock::now();
  if (!job_.running->enter(cell_.vcpus, [&] { return intr.stopped(); }))
    throw PhaseError(store::FailurePhase::interrupted, "run interrupted while the guest waited for the host's vCPUs");
  entered_ = true;
  dom_->resume();  // may wait for another boot's call on the same connection (vm::Connection)
  const auto resumed = Clock::now();
  spdlog::debug("{}: created paused in {:.2f} s, resumed after {:.2f} s more", spec_.name, create_s, since(ready));
  return resumed;
}

proto::Hello BootRun::await_hello(Clock::time_point booted) {
  phase(store::FailurePhase::hello, "hello");
  channel_ = link::connect_agent(session_, conn_, spec_, ms(30));
  const proto::Hello hello = session_.wait_hello(ms(g_.timeouts.hello_s));
  out_.boot_to_hello_s = since(booted);
  st_.record_boot_seconds(job_.boot, out_.boot_to_hello_s);
  record_and_check_hello(hello);
  return hello;
}

/// Reads back what the guest runs on (domain type, pinning, host page size from the host's
/// libvirt; the guest's view of its hypervisor from its hello), stores it, and fails the boot
/// when it is not what the cell asked for: KVM asked and TCG given (or the guest sees no KVM),
/// pinning not applied, the host's page size not the matrix's `guest.host_page_size`.
void BootRun::check_platform(const proto::Hello& hello) {
  const vm::DomainFacts f = vm::read_domain_facts(conn_, spec_.name);
  store::BootPlatform p;
  p.domain_type = f.type;
  p.guest_hypervisor = hello.hypervisor;
  p.host_page_kib = f.host_page_kib;
  json vcpus = json::array();
  for (const auto& c : f.vcpu_cpus) vcpus.push_back(vm::to_cpuset(c));
  p.vcpu_cpus = vcpus.dump();
  p.emulator_cpus = vm::to_cpuset(f.emulator_cpus);
  st_.record_boot_platform(job_.boot, p);
  const bool kvm = g_.accel == vm::Accel::kKvm;
  if (f.type != (kvm ? "kvm" : "qemu"))
    throw PhaseError(store::FailurePhase::boot, fmt::format("asked for {}, but libvirt runs the domain as type '{}'",
                                                            kvm ? "KVM" : "TCG", f.type));
  if (!hello.hypervisor.empty() && (hello.hypervisor == "kvm") != kvm)
    throw PhaseError(store::FailurePhase::hello,
                     fmt::format("the guest under {} reports hypervisor '{}'", kvm ? "KVM" : "TCG", hello.hypervisor));
  if (g_.host_page_kib && f.host_page_kib != g_.host_page_kib)
    throw PhaseError(store::FailurePhase::boot, fmt::format("the host runs {} KiB pages, the matrix asks for {} KiB",
                                                            f.host_page_kib, g_.host_page_kib));
  if (auto why = vm::pinning_mismatch(spec_.vcpu_pins, spec_.emulator_pin, f); !why.empty())
    throw PhaseError(store::FailurePhase::boot, "pinning not applied: " + why);
}

void BootRun::prepare_filesystem() {
  phase(store::FailurePhase::prepare, "prepare");
  proto::Prepare prep;
  if (spec_.disk.empty()) prep.device = "/dev/ram0";  // brd's first RAM disk
  else prep.serial = spec_.disk_serial;
  prep.fs = matrix::to_string(cell_.filesystem.fs);
  prep.mkfs_options = cell_.filesystem.mkfs_options;
  prep.mount_options = cell_.filesystem.mount_options;
  prep.mountpoint = "/mnt/rlab";
  session_.prepare(prep, ms(g_.timeouts.prepare_s));
}

void BootRun::run_load(const proto::Hello& hello) {
  const unsigned warmup = cell_.workload.warmup_passes;
  const proto::Run req = run_request(cell_, warmup);
  phase(store::FailurePhase::run, fmt::format("run pass 1/{}", req.passes));
  std::vector<double> counted_lpm;
  link::RunCallbacks cb;
  host::SampleHostMeter host_meter = host::SampleHostMeter::for_domain(conn_, spec_.name, cell_.vcpus);
  // The agent samples at its counting window's start and end (and between, when asked): the
  // host's arrival times of a pass's first and last sample bound the window in host seconds.
  std::optional<Clock::time_point> window_start;
  Clock::time_point window_end;
  cb.on_sample = [&](const proto::Sample& s) {
    window_end = Clock::now();
    if (!window_start) window_start = window_end;
    store::Sample row = to_store(s);
    host_meter.fill(row);  // the host side of the sample's interval
    st_.record_sample(job_.boot, row);
  };
  cb.on_pass = [&](const proto::PassReport& pass) {
    st_.record_pass(job_.boot, to_store(pass));
    out_.load_vcpu_s += pass.duration_s * cell_.vcpus;
    if (window_start) out_.load_host_vcpu_s += std::chrono::duration<double>(window_end - *window_start).count() * cell_.vcpus;
    window_start.reset();
    if (pass.pass >= warmup) counted_lpm.push_back(pass.lpm);
    if (pass.pass + 1 < req.passes && phase_fn_) phase_fn_(fmt::format("run pass {}/{}", pass.pass + 2, req.passes));
  };
  link::RunTimeouts rt;
  // Silence and deadlines are host seconds; under icount a guest second may take many.
  rt.quiet = ms(g_.timeouts.quiet_s * host_per_guest_second(g_));
  rt.probe = ms(g_.timeouts.probe_s * host_per_guest_second(g_));
  rt.total = ms(req.passes * ((req.duration_s + req.pause_s) * host_per_guest_second(g_) + 60) + 120);
  const proto::Result result = session_.run(req, cb, rt);
  for (const auto& p : result.passes)
    if (req.drop_caches && !p.caches_dropped)  // the agent's stderr, in the console, says why
      throw PhaseError(store::FailurePhase::run,
                       fmt::format("the agent could not drop the guest's caches before pass {}", p.pass));
  // Warm-up passes are stored but not scored: UnixBench's aggregation of the counted ones.
  const store::Result r = to_store(result, warmup ? proto::unixbench_score(counted_lpm) : result.score);
  st_.record_result(job_.boot, r, environment(job_, g_, conn_.uri(), hello));
  out_.ok = true;
  out_.score = r.score;
}

/// Stores what the guest says it is (the agent's hello, or the bare guest's console lines) and
/// refuses a guest whose page size or online CPUs are not the cell's. Throws PhaseError.
void BootRun::record_and_check_hello(const proto::Hello& hello) {
  st_.record_hello(job_.boot, to_store(hello));
  if (auto why = link::check_hello(hello, cell_.page_size); !why.empty())
    throw PhaseError(store::FailurePhase::page_size, why);
  if (hello.nr_cpus != cell_.vcpus)
    throw PhaseError(store::FailurePhase::hello, fmt::format("guest has {} CPUs online, the cell asks for {}",
                                                             hello.nr_cpus, cell_.vcpus));
}

/// Waits until the guest has powered itself off: at most `guest_s` guest seconds of load (in
/// host seconds under icount), plus the hello timeout for the boot itself and a minute.
void BootRun::await_power_off(double guest_s) {
  const double limit_s = guest_s * host_per_guest_second(g_) + g_.timeouts.hello_s + 60;
  const auto until = Clock::now() + ms(limit_s);
  auto& intr = Interrupts::instance();
  while (dom_->is_active() && Clock::now() < until && !intr.stopped())
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  if (intr.stopped()) throw PhaseError(store::FailurePhase::interrupted, "run interrupted during the bare guest's load");
  if (dom_->is_active())
    throw PhaseError(store::FailurePhase::timeout,
                     fmt::format("the bare guest was still running after {:.0f} s", limit_s));
}

/// A bare boot (run/bare_guest.hpp): no agent to talk to; its /init makes the filesystem, runs
/// UnixBench's looper per copy, prints the counts on the console and powers off. The console
/// then holds the hello's facts and the passes, stored as an agent's would be.
void BootRun::run_bare() {
  const auto& w = cell_.workload;
  const unsigned passes = w.warmup_passes + w.passes;
  phase(store::FailurePhase::run, fmt::format("bare guest, {} pass{}", passes, passes == 1 ? "" : "es"));
  await_power_off(passes * (w.duration_s + 3 + 60));  // per pass: the load, Run's settling, mkfs and the last loop
  files_->finish(spec_, host_spec_);  // the console log is complete (copied back from a pool) once the domain is gone
  files_finished_ = true;
  const BareReport report = parse_bare_console(util::read_file(spec_.console_log));
  failed_in_ = store::FailurePhase::hello;
  const proto::Hello hello = bare_hello(report);
  record_and_check_hello(hello);
  failed_in_ = store::FailurePhase::run;
  const proto::Result result = bare_result(report, cell_.copies, passes, w.warmup_passes, w.duration_s);
  for (const auto& p : result.passes) {
    st_.record_pass(job_.boot, to_store(p));
    out_.load_vcpu_s += p.duration_s * cell_.vcpus;
  }
  const store::Result r = to_store(result, result.score);
  st_.record_result(job_.boot, r, environment(job_, g_, conn_.uri(), hello));
  out_.ok = true;
  out_.score = r.score;
}

void BootRun::shut_down() {
  // A clean power-off (1.4-2 s under TCG) is no slower than virDomainDestroy (1.2-3 s: QEMU's
  // and libvirt's teardown dominate either way), and it leaves a complete console.
  phase(store::FailurePhase::shutdown, "shutdown");
  try {
    const auto t0 = Clock::now();
    session_.shutdown(ms(10));
    const double bye_s = since(t0);
    auto until = Clock::now() + ms(g_.timeouts.shutdown_s);
    while (dom_->is_active() && Clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    spdlog::debug("{}: shutdown: bye after {:.2f} s, powered off after {:.2f} s", spec_.name, bye_s, since(t0));
  } catch (const std::exception& e) {
    spdlog::debug("{}: shutdown: {}", spec_.name, e.what());  // the result is already stored
  }
}

std::optional<DiskFullError> BootRun::host_disk_full() const {
  if (!dom_) return std::nullopt;
  bool no_space = false;
  const auto errors = dom_->io_errors(&no_space);
  if (!no_space) return std::nullopt;
  std::string free;
  std::error_code ec;
  if (const auto sp = fs::space(host_spec_.disk.parent_path(), ec); !ec && !host_spec_.disk.empty())
    free = fmt::format(", {:.1f} MiB free", double(sp.available) / (1 << 20));
  return DiskFullError(fmt::format("the host's disk under the guest's disk image {} is full{}: QEMU paused "
                                   "the guest ({})",
                                   host_spec_.disk.string(), free, fmt::join(errors, "; ")));
}

void BootRun::tear_down() {
  const auto t0 = Clock::now();
  Interrupts::instance().remove_hook(hook_);
  hook_ = -1;
  // The libvirt stream ends before its domain: a virDomainDestroy while the stream's receive
  // is blocked on the same connection was seen to hang (libvirt 9.0).
  channel_.reset();
  if (dom_) {
    try {
      dom_->destroy();
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
    }
    Interrupts::instance().remove_domain(conn_.uri(), spec_.name);
  }
  if (std::exchange(entered_, false)) job_.running->leave(cell_.vcpus);
  // The scratch disk is per boot; the console log stays (copied back from the host's pool).
  if (!files_finished_) files_->finish(spec_, host_spec_);
  spdlog::debug("{}: torn down in {:.2f} s", spec_.name, since(t0));
}

void BootRun::record_failure() {
  // The console log is complete once the domain is gone (virtlogd has flushed it).
  if (auto panic = vm::console_panic(vm::console_tail(spec_.console_log, 400)); !panic.empty())
    out_.message = fmt::format("{}guest kernel panic: {} ({})",
                               panic.find("Attempted to kill init") != std::string::npos
                                   ? "the agent (PID 1) died; "
                                   : "",
                               panic, out_.message);
  st_.record_failure(job_.boot, out_.phase, out_.message, vm::console_tail(spec_.console_log, 40));
  spdlog::warn("{} repeat {}: {} failed: {}", cell_.id, job_.repeat, store::to_string(out_.phase), out_.message);
}

void BootRun::record_host(const host::HostSnapshot& before) {
  try {
    store::BootHost h = host::host_between(before, host::read_host(conn_));
    h.vcpu_pins = json(spec_.vcpu_pins).dump();
    h.emulator_pin = spec_.emulator_pin;
    st_.record_boot_host(job_.boot, h);
  } catch (const std::exception& e) {
    spdlog::warn("{}: host load not recorded: {}", spec_.name, e.what());
  }
}

/// The load of `conn`'s host now, nullopt when it cannot be read.
std::optional<host::HostSnapshot> host_now(vm::Connection& conn) {
  try {
    return host::read_host(conn);
  } catch (const std::exception& e) {
    spdlog::debug("host load: {}", e.what());
    return std::nullopt;
  }
}

}  // namespace

namespace {

// One attempt of run_boot.
BootOutcome boot_once(const BootJob& job, const GuestSettings& g, vm::Connection& conn, store::Store& st,
                      const PhaseFn& phase_fn) {
  const auto t0 = Clock::now();
  const std::optional<host::HostSnapshot> host0 = host_now(conn);
  BootRun boot(job, g, conn, st, phase_fn);
  std::exception_ptr lab_error;
  try {
    boot.measure();
  } catch (const store::StoreError&) {
    // The lab's own failure (e.g. the store's disk is full): not the guest's. The guest and
    // its files go below; the error then ends the run (the boot stays running for --resume).
    boot.outcome().ok = false;
    lab_error = std::current_exception();
  } catch (const std::exception& e) {
    if (auto full = boot.host_disk_full()) {  // the guest only stopped answering: the lab's disk is full
      boot.outcome().ok = false;
      lab_error = std::make_exception_ptr(*full);
    } else {
      boot.failed(e);
    }
  }
  boot.tear_down();
  if (lab_error) std::rethrow_exception(lab_error);
  // An interrupted boot stays running in the store, so `--resume` runs it again.
  if (!boot.outcome().ok && boot.outcome().phase != store::FailurePhase::interrupted) boot.record_failure();
  if (host0) boot.record_host(*host0);
  boot.outcome().wall_s = since(t0);
  return boot.outcome();
}

}  // namespace

BootOutcome run_boot(const BootJob& job, const GuestSettings& g, vm::Connection& conn, store::Store& st,
                     const PhaseFn& phase_fn) {
  const auto t0 = Clock::now();
  for (unsigned attempt = 0;; ++attempt) {
    BootOutcome out = boot_once(job, g, conn, st, phase_fn);
    if (out.ok || out.phase != store::FailurePhase::hello_timeout || attempt >= g.timeouts.hello_retries ||
        Interrupts::instance().stopped()) {
      out.wall_s = since(t0);
      return out;
    }
    spdlog::warn("boot {}: {} (attempt {} of {}); booting it again (hosts[].hello_retries)", job.boot, out.message,
                 attempt + 1, g.timeouts.hello_retries + 1);
    if (phase_fn) phase_fn("no hello, booting again");
  }
}

}  // namespace rlab::run
