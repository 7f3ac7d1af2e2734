#include "kvm_host/emulated_host.hpp"

#include "build/kernel_build.hpp"
#include "build/run_options.hpp"
#include "kvm_host/host_images.hpp"
#include "util/file_lock.hpp"
#include "util/paths.hpp"
#include "util/usage_error.hpp"
#include "util/process.hpp"
#include "vm/host_caps.hpp"
#include "vm/libvirt.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ctime>
#include <thread>

namespace rlab::kvm_host {
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kName = "rlab-kvm-host";  // QEMU's -name: how alive() knows its process

// A TCP port on 127.0.0.1 nothing listens on now (bound to port 0 and released).
unsigned free_loopback_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  unsigned port = 0;
  if (s >= 0 && ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (s >= 0) ::close(s);
  if (port == 0) throw std::runtime_error("kvm-host: no free TCP port on 127.0.0.1");
  return port;
}

// Percent-encodes what a URI query value cannot hold as it is.
std::string query_value(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string console_tail(const fs::path& console, std::size_t lines = 25) {
  try {
    return util::tail(util::read_file(console), lines);
  } catch (const std::exception&) {
    return "(no console log)";
  }
}

json to_json(const HostState& s) {
  return {{"pid", s.pid},         {"port", s.port},           {"uri", s.uri},
          {"console", s.console}, {"started_at", s.started_at}, {"ready_s", s.ready_s},
          {"cpus", s.cpus},       {"memory_mib", s.memory_mib}, {"kernel_key", s.kernel_key},
          {"disk_key", s.disk_key}};
}

long read_pid(const fs::path& pidfile) {
  try {
    return std::stol(util::read_file(pidfile));
  } catch (const std::exception&) {
    return 0;
  }
}

bool pid_is_host(long pid) {
  if (pid <= 0) return false;
  try {
    return util::read_file(fmt::format("/proc/{}/cmdline", pid)).find(kName) != std::string::npos;
  } catch (const std::exception&) {
    return false;
  }
}

// Stops QEMU `pid`: SIGTERM, then SIGKILL after 10 s. Waits until it is gone.
void kill_host(long pid) {
  if (!pid_is_host(pid)) return;
  ::kill(static_cast<pid_t>(pid), SIGTERM);
  for (int i = 0; i < 100 && pid_is_host(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (pid_is_host(pid)) ::kill(static_cast<pid_t>(pid), SIGKILL);
  for (int i = 0; i < 100 && pid_is_host(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

// Whether the host's libvirt answers over `uri` with KVM for aarch64 guests; `why` says
// what it answered otherwise.
bool libvirt_ready(const std::string& uri, std::string& why) {
  try {
    vm::Connection conn(uri, std::chrono::seconds(0), std::chrono::seconds(30));
    const vm::HostCaps caps = vm::read_host_caps(conn);
    if (caps.kvm) return true;
    why = "libvirt answers but offers no KVM for aarch64 guests: " + vm::describe(caps);
  } catch (const std::exception& e) {
    why = e.what();
  }
  return false;
}

void check_config(const HostConfig& cfg) {
  if (cfg.cpus < 1 || cfg.cpus > 64)
    throw std::invalid_argument(fmt::format("kvm-host: --cpus {} is not in [1, 64]", cfg.cpus));
  if (cfg.memory_mib < 1024 || cfg.memory_mib > 65536)
    throw std::invalid_argument(fmt::format("kvm-host: --memory-mib {} is not in [1024, 65536]", cfg.memory_mib));
  if (cfg.port > 65535) throw std::invalid_argument(fmt::format("kvm-host: --port {} is not a TCP port", cfg.port));
}

}  // namespace

fs::path state_dir_of(const HostConfig& cfg) {
  return cfg.state_dir.empty() ? util::state_dir() / "kvm-host" : cfg.state_dir;
}

std::string libvirt_uri(unsigned port, const fs::path& dir) {
  return fmt::format(
      "qemu+libssh://root@127.0.0.1:{}/system?keyfile={}&known_hosts={}&known_hosts_verify=normal&sshauth=privkey",
      port, query_value(fs::absolute(dir / "id_ed25519").string()),
      query_value(fs::absolute(dir / "known_hosts").string()));
}

std::vector<std::string> qemu_argv(const HostConfig& cfg, const fs::path& kernel, const fs::path& disk,
                                   unsigned port, const fs::path& dir) {
  return {"qemu-system-aarch64",
          "-name", kName,
          "-machine", "virt,virtualization=on,gic-version=3",
          "-cpu", "max,pauth=off",
          "-accel", "tcg,thread=multi",
          "-smp", std::to_string(cfg.cpus),
          "-m", std::to_string(cfg.memory_mib),
          "-kernel", kernel.string(),
          "-append", fmt::format("console=ttyAMA0 root=/dev/vda rw rootwait init=/sbin/rlab-host-init panic=-1 "
                                 "rlab.time={}", static_cast<long long>(std::time(nullptr))),
          "-drive", "file=" + disk.string() + ",format=raw,if=none,id=root,snapshot=on",
          "-device", "virtio-blk-pci,drive=root",
          "-netdev", fmt::format("user,id=net0,hostfwd=tcp:127.0.0.1:{}-:22", port),
          "-device", "virtio-net-pci,netdev=net0",
          "-display", "none",
          "-monitor", "none",
          "-serial", "file:" + (dir / "console.log").string(),
          "-no-reboot",
          "-daemonize",
          "-pidfile", (dir / "qemu.pid").string()};
}

std::optional<HostState> read_state(const fs::path& dir) {
  if (!fs::is_regular_file(dir / "state.json")) return std::nullopt;
  const json j = json::parse(util::read_file(dir / "state.json"));
  HostState s;
  s.pid = j.at("pid").get<long>();
  s.port = j.at("port").get<unsigned>();
  s.uri = j.at("uri").get<std::string>();
  s.console = j.at("console").get<std::string>();
  s.started_at = j.value("started_at", "");
  s.ready_s = j.value("ready_s", 0.0);
  s.cpus = j.value("cpus", 0u);
  s.memory_mib = j.value("memory_mib", 0u);
  s.kernel_key = j.value("kernel_key", "");
  s.disk_key = j.value("disk_key", "");
  return s;
}

bool alive(const HostState& s) { return pid_is_host(s.pid); }

namespace {

// Boots the host from `kernel` and `disk` (QEMU daemonized) and records its state; under the
// state directory's lock, so two starts cannot both launch.
HostState launch(const HostConfig& cfg, const fs::path& dir, const build::KernelArtifact& kernel,
                 const HostDisk& disk, const build::Progress& progress) {
  util::FileLock lock(dir / "lock");
  if (auto old = read_state(dir); old && alive(*old))
    throw UsageError(fmt::format("kvm-host: a host is already running from {} (pid {}, port {}); "
                                 "`rlab kvm-host stop` first, or another --state-dir", dir.string(), old->pid, old->port));
  const unsigned port = cfg.port ? cfg.port : free_loopback_port();
  fs::remove(dir / "state.json");
  fs::remove(dir / "console.log");
  fs::copy_file(disk.client_key, dir / "id_ed25519", fs::copy_options::overwrite_existing);
  fs::permissions(dir / "id_ed25519", static_cast<fs::perms>(0600));
  util::write_file_atomic(dir / "known_hosts", fmt::format("[127.0.0.1]:{} {}\n", port, disk.host_key));
  HostState s;
  s.port = port;
  s.uri = libvirt_uri(port, dir);
  s.console = dir / "console.log";
  s.started_at = utc_now();
  s.cpus = cfg.cpus;
  s.memory_mib = cfg.memory_mib;
  s.kernel_key = kernel.key;
  s.disk_key = disk.key;
  build::report(progress, "kvm-host", fmt::format("booting: {} CPUs, {} MiB, ssh on 127.0.0.1:{}", cfg.cpus,
                                                 cfg.memory_mib, port));
  util::run_checked(qemu_argv(cfg, kernel.image, disk.image, port, dir), build::run_options(std::chrono::seconds(60)));
  s.pid = read_pid(dir / "qemu.pid");
  util::write_file_atomic(dir / "state.json", to_json(s).dump(2) + "\n");
  return s;
}

}  // namespace

HostState start(const HostConfig& cfg, const build::Progress& progress) {
  check_config(cfg);
  const fs::path dir = state_dir_of(cfg);
  fs::create_directories(dir);
  const build::KernelArtifact kernel = build::ensure_kernel(host_kernel_spec(), progress);
  const HostDisk disk = ensure_host_disk(progress);
  const auto t0 = Clock::now();
  HostState s = launch(cfg, dir, kernel, disk, progress);
  std::string why = "no answer yet";
  while (Clock::now() - t0 < cfg.ready_timeout) {
    if (!alive(s))
      throw std::runtime_error("kvm-host: QEMU exited while the host booted (stopped?); console:\n" +
                               console_tail(s.console));
    const std::string console = console_tail(s.console, 200);
    for (const char* fatal : {"/dev/kvm: no", "libvirtd did not start"})
      if (console.find(fatal) != std::string::npos) {
        stop(dir);
        throw std::runtime_error(fmt::format("kvm-host: {}; console:\n{}",
                                             fatal[0] == '/' ? "the host kernel brought up no KVM" : "libvirtd did not start",
                                             console_tail(s.console)));
      }
    if (console.find("libvirtd ready") != std::string::npos && libvirt_ready(s.uri, why)) {
      s.ready_s = std::chrono::duration<double>(Clock::now() - t0).count();
      util::write_file_atomic(dir / "state.json", to_json(s).dump(2) + "\n");
      build::report(progress, "kvm-host", fmt::format("ready in {:.1f} s: {}", s.ready_s, s.uri));
      return s;
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  stop(dir);
  throw std::runtime_error(fmt::format("kvm-host: not ready within {} s (last: {}); console:\n{}",
                                       cfg.ready_timeout.count(), why, console_tail(s.console)));
}

bool stop(const fs::path& dir) {
  if (!fs::is_directory(dir)) return false;
  util::FileLock lock(dir / "lock");
  const auto s = read_state(dir);
  long pid = s ? s->pid : read_pid(dir / "qemu.pid");
  const bool was = pid_is_host(pid);
  kill_host(pid);
  if (pid_is_host(pid)) throw std::runtime_error(fmt::format("kvm-host: QEMU pid {} did not stop", pid));
  for (const char* f : {"state.json", "qemu.pid", "known_hosts"}) fs::remove(dir / f);
  return was;
}

}  // namespace rlab::kvm_host
