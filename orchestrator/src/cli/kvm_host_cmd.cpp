// `rlab kvm-host start|stop|status|uri`: an arm64 KVM host emulated by QEMU on this machine,
// for running the KVM path (accel: kvm, cpu: host, 64 KiB host pages, pinning, a remote
// host's channel and volumes) anywhere (docs/kvm-host.md).
#include "cli/command.hpp"
#include "cli/terminal_progress.hpp"
#include "kvm_host/emulated_host.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace rlab::cli {
namespace {

int start_host(const kvm_host::HostConfig& cfg) {
  const auto s = kvm_host::start(cfg, terminal_progress());
  std::cout << fmt::format(
      "KVM host ready in {:.1f} s: pid {}, {} CPUs, {} MiB, ssh on 127.0.0.1:{}\n"
      "console: {}\n"
      "libvirt: {}\n"
      "matrices name it as ${{RLAB_KVM_HOST_URI}}:\n"
      "  export RLAB_KVM_HOST_URI=\"$(rlab kvm-host uri)\"\n",
      s.ready_s, s.pid, s.cpus, s.memory_mib, s.port, s.console.string(), s.uri);
  return kOk;
}

int status(const kvm_host::HostConfig& cfg, bool uri_only) {
  const auto dir = kvm_host::state_dir_of(cfg);
  const auto s = kvm_host::read_state(dir);
  if (!s) {
    std::cerr << "rlab kvm-host: no host was started from " << dir.string() << "\n";
    return kFailure;
  }
  const bool up = kvm_host::alive(*s);
  if (uri_only) {
    if (!up) std::cerr << "rlab kvm-host: the host (pid " << s->pid << ") is not running\n";
    else std::cout << s->uri << "\n";
    return up ? kOk : kFailure;
  }
  std::cout << fmt::format("{}: pid {}, started {}, ready after {:.1f} s, {} CPUs, {} MiB\n"
                           "ssh: 127.0.0.1:{}\nlibvirt: {}\nconsole: {}\n",
                           up ? "running" : "NOT running", s->pid, s->started_at, s->ready_s, s->cpus,
                           s->memory_mib, s->port, s->uri, s->console.string());
  return up ? kOk : kFailure;
}

int stop_host(const kvm_host::HostConfig& cfg) {
  const bool was = kvm_host::stop(kvm_host::state_dir_of(cfg));
  std::cout << (was ? "KVM host stopped\n" : "no KVM host was running\n");
  return kOk;
}

Registrar kvm_host_registrar(75, [](CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("kvm-host", "An arm64 KVM host emulated by QEMU on this machine, reached "
                                             "like a remote host (for testing the KVM path)");
  cmd->require_subcommand(1);
  auto cfg = std::make_shared<kvm_host::HostConfig>();
  cmd->add_option("--state-dir", cfg->state_dir,
                  "Where its pid, port and console live (default: $RLAB_STATE_DIR/kvm-host, "
                  "else ~/.local/state/rlab/kvm-host)");

  auto* start = cmd->add_subcommand("start", "Build (or take from the cache) and boot the host; wait for its libvirt");
  start->add_option("--cpus", cfg->cpus, "The host's CPUs")->check(CLI::Range(1u, 64u))->capture_default_str();
  start->add_option("--memory-mib", cfg->memory_mib, "The host's memory")
      ->check(CLI::Range(1024u, 65536u))
      ->capture_default_str();
  start->add_option("--port", cfg->port, "Loopback port for its ssh (0: any free one)")
      ->check(CLI::Range(0u, 65535u))
      ->capture_default_str();
  auto timeout = std::make_shared<unsigned>(300);
  start->add_option("--timeout", *timeout, "Seconds to wait for its libvirt")
      ->check(CLI::Range(10u, 3600u))
      ->capture_default_str();
  start->final_callback([=] {
    cfg->ready_timeout = std::chrono::seconds(*timeout);
    *exit_code = start_host(*cfg);
  });

  cmd->add_subcommand("stop", "Stop the host; nothing it wrote persists")->final_callback([=] {
    *exit_code = stop_host(*cfg);
  });
  cmd->add_subcommand("status", "Whether it runs, its port, libvirt URI and console")->final_callback([=] {
    *exit_code = status(*cfg, false);
  });
  cmd->add_subcommand("uri", "Print its libvirt URI (for RLAB_KVM_HOST_URI)")->final_callback([=] {
    *exit_code = status(*cfg, true);
  });
});

}  // namespace
}  // namespace rlab::cli
