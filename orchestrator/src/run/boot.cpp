#include "run/boot.hpp"

#include "link/agent_link.hpp"
#include "image/unixbench.hpp"
#include "run/host_load.hpp"
#include "run/interrupts.hpp"
#include "run/pinning.hpp"
#include "run/sample_host.hpp"
#include "rlab/protocol/score.hpp"
#include "vm/disk.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <thread>

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
  PhaseError(std::string p, const std::string& m) : std::runtime_error(m), phase(std::move(p)) {}
  std::string phase;
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
  e.fs = c.filesystem.fs;
  e.mkfs_options = json(c.filesystem.mkfs_options).dump();
  e.mount_options = c.filesystem.mount_options;
  e.agent_version = hello.agent_version;
  e.workload = c.workload.kind;
  e.copies = c.copies;
  e.passes = c.workload.passes;
  e.duration_s = c.workload.duration_s;
  e.locale = "en_US.utf8";  // the agent's LANG for the load, UnixBench's
  e.layout = c.workload.layout;
  e.input = c.workload.input_id;
  e.drop_caches = c.workload.drop_caches;
  e.runner = c.workload.runner;
  e.disk = matrix::to_string(g.disk_backing);
  e.attribution = c.workload.attribution;
  return e;
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
  req.sample_interval_s = 1.0;
  req.pause_s = 3.0;  // UnixBench's sync; sleep 1; sync; sleep 2
  req.drop_caches = cell.workload.drop_caches;
  req.layout = cell.workload.layout;
  req.runner = cell.workload.runner;
  req.unixbench_dir = image::kGuestUnixbenchDir;
  req.attribution = cell.workload.attribution;
  req.attribution_top = cell.workload.attribution_top;
  req.input = cell.workload.input;
  return req;
}

/// The store row of a `pass` message.
store::Pass to_store(const proto::PassReport& p) {
  store::Pass row;
  row.index = p.pass;
  row.loops = p.loops;
  row.failures = p.failures;
  row.duration_s = p.duration_s;
  row.window_s = p.window_s;
  row.lpm = p.lpm;
  row.latency_json = json(p.latency).dump();
  row.counters_json = json(p.counters).dump();
  if (p.placement) {
    row.inode_ags = p.placement->ags;
    row.agcount = p.placement->agcount;
    row.inodes_seen = p.placement->inodes;
  }
  if (p.attribution) row.attribution_json = json(*p.attribution).dump();
  return row;
}

}  // namespace

image::GuestImages guest_images(const matrix::Matrix& m, const build::KernelSpec& k, const fs::path& agent,
                                const image::Progress& progress) {
  image::GuestImages img = image::ensure_guest_images(k, agent, progress);
  for (const auto& w : m.workload_axis)
    if (w.runner == "unixbench") return image::with_archive(img, image::unixbench_archive(w.unixbench_dir));
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
  s.console_log = fs::absolute(job.dir / "console.log");
  // Through libvirt the channel has no path of rlab's: libvirt binds it on the host.
  if (job.agent_link == matrix::AgentLink::kLibvirt) s.agent_via_libvirt = true;
  else s.agent_socket = fs::absolute(job.dir / "agent.sock");
  if (g.disk_backing == matrix::DiskBacking::kVirtio) s.disk = fs::absolute(job.dir / "fs.raw");
  s.disk_serial = "rlab-fs";
  for (unsigned c : job.pinned_cpus) s.vcpu_pins.push_back(std::to_string(c));
  if (job.pin_emulator) s.emulator_pin = cpuset(job.pinned_cpus);
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
  return k;
}

BootOutcome run_boot(const BootJob& job, const GuestSettings& g, vm::Connection& conn,
                     store::Store& st, const PhaseFn& phase_fn) {
  const auto& cell = *job.cell;
  const auto t0 = Clock::now();
  BootOutcome out;
  const vm::DomainSpec spec = domain_spec(job, g);
  auto phase = [&](std::string_view p) {
    if (phase_fn) phase_fn(p);
  };
  std::optional<HostSnapshot> host0;
  try {
    host0 = read_host();
  } catch (const std::exception& e) {
    spdlog::debug("host load: {}", e.what());
  }
  st.start_boot(job.boot, conn.uri(), spec.name, spec.console_log.string());
  st.record_images(job.boot, kernel_identity(cell, *job.images), job.images->image_key);

  auto& intr = Interrupts::instance();
  std::optional<vm::Domain> dom;
  boost::asio::io_context io;
  link::AgentSession session(io);
  std::unique_ptr<vm::StreamBridge> channel;  // the agent link through libvirt, if any
  int hook = intr.add_hook([&session] { session.cancel(); });
  std::string cur = "boot";
  std::exception_ptr lab_error;
  try {
    phase("disk");
    if (!spec.disk.empty()) vm::create_sparse_disk(spec.disk, std::uint64_t(g.disk_gib) << 30);
    phase("boot");
    if (intr.stopped()) throw PhaseError("interrupted", "run interrupted before boot");
    const auto boot_t0 = Clock::now();
    dom.emplace(conn.create_transient(vm::domain_xml(spec)));
    intr.add_domain(conn.uri(), spec.name);
    if (intr.stopped()) throw PhaseError("interrupted", "run interrupted during boot");

    cur = "hello";
    phase("hello");
    channel = link::connect_agent(session, conn, spec, ms(30));
    const proto::Hello hello = session.wait_hello(ms(g.timeouts.hello_s));
    out.boot_to_hello_s = since(boot_t0);
    st.record_boot_seconds(job.boot, out.boot_to_hello_s);
    store::Hello sh;
    sh.page_size = static_cast<unsigned>(hello.page_size);
    sh.nr_cpus = hello.nr_cpus;
    sh.kernel_release = hello.kernel_release;
    sh.agent_version = hello.agent_version;
    sh.mem_total_kib = hello.mem_total_kib;
    sh.tracepoints_json = json(hello.tracepoints).dump();
    st.record_hello(job.boot, sh);
    if (auto why = link::check_hello(hello, cell.page_size); !why.empty())
      throw PhaseError("page-size", why);
    if (hello.nr_cpus != cell.vcpus)
      throw PhaseError("hello", fmt::format("guest has {} CPUs online, the cell asks for {}",
                                            hello.nr_cpus, cell.vcpus));

    cur = "prepare";
    phase("prepare");
    proto::Prepare prep;
    if (spec.disk.empty()) prep.device = "/dev/ram0";  // brd's first RAM disk
    else prep.serial = spec.disk_serial;
    prep.fs = cell.filesystem.fs;
    prep.mkfs_options = cell.filesystem.mkfs_options;
    prep.mount_options = cell.filesystem.mount_options;
    prep.mountpoint = "/mnt/rlab";
    session.prepare(prep, ms(g.timeouts.prepare_s));

    cur = "run";
    const unsigned warmup = cell.workload.warmup_passes;
    const proto::Run req = run_request(cell, warmup);
    std::vector<double> counted_lpm;
    phase(fmt::format("run pass 1/{}", req.passes));
    link::RunCallbacks cb;
    SampleHostMeter host_meter = SampleHostMeter::for_domain(conn, spec.name, cell.vcpus);
    cb.on_sample = [&](const proto::Sample& s) {
      store::Sample row;
      row.pass = s.pass;
      row.t_s = s.t_s;
      row.loops = s.loops;
      row.failures = s.failures;
      row.counters_json = json(s.counters).dump();
      host_meter.fill(row);  // the host side of the sample's interval
      st.record_sample(job.boot, row);
    };
    cb.on_pass = [&](const proto::PassReport& p) {
      const store::Pass row = to_store(p);
      st.record_pass(job.boot, row);
      out.load_vcpu_s += p.duration_s * cell.vcpus;
      if (p.pass >= warmup) counted_lpm.push_back(p.lpm);
      if (p.pass + 1 < req.passes) phase(fmt::format("run pass {}/{}", p.pass + 2, req.passes));
    };
    link::RunTimeouts rt;
    // Silence and deadlines are host seconds; under icount a guest second may take many.
    rt.quiet = ms(g.timeouts.quiet_s * host_per_guest_second(g));
    rt.probe = ms(g.timeouts.probe_s * host_per_guest_second(g));
    rt.total = ms(req.passes * ((req.duration_s + req.pause_s) * host_per_guest_second(g) + 60) + 120);
    const proto::Result result = session.run(req, cb, rt);
    for (const auto& p : result.passes)
      if (req.drop_caches && !p.caches_dropped)  // the agent's stderr, in the console, says why
        throw PhaseError("run", fmt::format("the agent could not drop the guest's caches before pass {}", p.pass));
    store::Result r;
    // Warm-up passes are stored but not scored: UnixBench's aggregation of the counted ones.
    r.score = warmup ? proto::unixbench_score(counted_lpm) : result.score;
    r.failures = result.failures;
    r.failure_examples_json = json(result.failure_examples).dump();
    st.record_result(job.boot, r, environment(job, g, conn.uri(), hello));
    out.ok = true;
    out.score = r.score;

    cur = "shutdown";
    phase("shutdown");
    try {
      session.shutdown(ms(10));
      auto until = Clock::now() + ms(g.timeouts.shutdown_s);
      while (dom->is_active() && Clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    } catch (const std::exception& e) {
      spdlog::debug("{}: shutdown: {}", spec.name, e.what());  // the result is already stored
    }
  } catch (const store::StoreError&) {
    // The lab's own failure (e.g. the store's disk is full): not the guest's. The guest and
    // its files go below; the error then ends the run (the boot stays "running" for --resume).
    out.ok = false;
    lab_error = std::current_exception();
  } catch (const std::exception& e) {
    out.ok = false;
    if (auto* pe = dynamic_cast<const PhaseError*>(&e)) {
      out.phase = pe->phase;
    } else if (intr.stopped()) {
      out.phase = "interrupted";
    } else if (auto* le = dynamic_cast<const link::LinkError*>(&e)) {
      out.phase = le->timed_out ? (cur == "hello" ? "hello-timeout" : "timeout") : cur;
    } else {
      out.phase = cur;
    }
    out.message = e.what();
  }
  intr.remove_hook(hook);
  // The libvirt stream ends before its domain: a virDomainDestroy while the stream's receive
  // is blocked on the same connection was seen to hang (libvirt 9.0).
  channel.reset();
  if (dom) {
    try {
      dom->destroy();
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
    }
    intr.remove_domain(conn.uri(), spec.name);
  }
  // The scratch disk is per boot, and a QEMU that was killed (not stopped) leaves its agent
  // socket behind; the console log stays.
  std::error_code ec;
  fs::remove(spec.disk, ec);
  fs::remove(spec.agent_socket, ec);
  if (lab_error) std::rethrow_exception(lab_error);
  if (!out.ok && out.phase != "interrupted") {
    // An interrupted boot stays "running" in the store, so `--resume` runs it again.
    // The console log is complete once the domain is gone (virtlogd has flushed it).
    if (auto panic = vm::console_panic(vm::console_tail(spec.console_log, 400)); !panic.empty())
      out.message = fmt::format("{}guest kernel panic: {} ({})",
                                panic.find("Attempted to kill init") != std::string::npos
                                    ? "the agent (PID 1) died; "
                                    : "",
                                panic, out.message);
    st.record_failure(job.boot, out.phase, out.message, vm::console_tail(spec.console_log, 40));
    spdlog::warn("{} repeat {}: {} failed: {}", cell.id, job.repeat, out.phase, out.message);
  }
  if (host0) {
    try {
      store::BootHost h = host_between(*host0, read_host());
      h.vcpu_pins = json(spec.vcpu_pins).dump();
      h.emulator_pin = spec.emulator_pin;
      st.record_boot_host(job.boot, h);
    } catch (const std::exception& e) {
      spdlog::warn("{}: host load not recorded: {}", spec.name, e.what());
    }
  }
  out.wall_s = since(t0);
  return out;
}

}  // namespace rlab::run
