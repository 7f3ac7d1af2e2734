#include "run/interrupts.hpp"

#include "util/process.hpp"
#include "vm/libvirt.hpp"

#include <spdlog/spdlog.h>

#include <csignal>
#include <pthread.h>

namespace rlab::run {

Interrupts& Interrupts::instance() {
  static Interrupts i;
  return i;
}

void Interrupts::install() {
  std::lock_guard lock(mu_);
  if (installed_) return;
  installed_ = true;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    while (sigwait(&set, &sig) == 0) Interrupts::instance().trigger(sig);
  }).detach();
}

void Interrupts::add_domain(const std::string& uri, const std::string& name) {
  std::lock_guard lock(mu_);
  domains_.emplace(uri, name);
}

void Interrupts::remove_domain(const std::string& uri, const std::string& name) {
  std::lock_guard lock(mu_);
  domains_.erase({uri, name});
}

std::set<std::pair<std::string, std::string>> Interrupts::domains() const {
  std::lock_guard lock(mu_);
  return domains_;
}

int Interrupts::add_hook(std::function<void()> hook) {
  std::lock_guard lock(mu_);
  hooks_[++next_hook_] = std::move(hook);
  return next_hook_;
}

void Interrupts::remove_hook(int handle) {
  std::lock_guard lock(mu_);
  hooks_.erase(handle);
}

int Interrupts::destroy_domains() {
  int n = 0;
  std::map<std::string, std::unique_ptr<vm::Connection>> conns;
  for (const auto& [uri, name] : domains()) {
    try {
      auto& c = conns[uri];
      if (!c) c = std::make_unique<vm::Connection>(uri);
      if (c->destroy_by_name(name)) ++n;
    } catch (const std::exception& e) {
      spdlog::error("cannot destroy {} on {}: {}", name, uri, e.what());
    }
  }
  return n;
}

void Interrupts::trigger(int sig) {
  if (signal_.exchange(sig) != 0) {
    spdlog::warn("second signal: still destroying guests");
  }
  spdlog::warn("{}: destroying this run's guests", sig == SIGTERM ? "SIGTERM" : "interrupted");
  int n = destroy_domains();
  spdlog::info("destroyed {} guest(s)", n);
  // A kernel build (make), a checkout or a download this process is waiting for ends now.
  if (const auto children = util::signal_running_children(SIGTERM))
    spdlog::info("stopped {} running command(s)", children);
  std::map<int, std::function<void()>> hooks;
  {
    std::lock_guard lock(mu_);
    hooks = hooks_;
  }
  for (auto& [h, f] : hooks) f();
}

}  // namespace rlab::run
