#pragma once
// Ctrl-C and SIGTERM during a run: the guests this process started are destroyed before it
// exits. SIGINT/SIGTERM are blocked in every thread and taken by one watcher thread
// (sigwait), which sets the stop flag, destroys every registered domain through its own
// libvirt connection, sends SIGTERM to the commands this process is waiting for
// (util::signal_running_children: a kernel build stops at once) and calls the registered
// cancel hooks; the run then winds down and exits with 130.
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace rlab::run {

/// The process's interrupt state. One instance (instance()); thread-safe.
class Interrupts {
 public:
  static Interrupts& instance();

  /// Blocks SIGINT and SIGTERM in the calling thread (and so in threads it creates later) and
  /// starts the watcher. Call from main before creating threads. Idempotent.
  void install();
  /// Whether a stop signal has arrived.
  bool stopped() const { return signal_.load() != 0; }
  /// The signal received (SIGINT, SIGTERM), 0 when none.
  int signal() const { return signal_.load(); }

  /// A domain this process started on `uri`; destroyed on a signal until removed.
  void add_domain(const std::string& uri, const std::string& name);
  void remove_domain(const std::string& uri, const std::string& name);
  /// Domains currently registered (uri, name).
  std::set<std::pair<std::string, std::string>> domains() const;

  /// Called (from the watcher thread) after the domains are destroyed; returns a handle for
  /// remove_hook(). Use it to cancel blocking waits (agent sessions, the scheduler).
  int add_hook(std::function<void()> hook);
  void remove_hook(int handle);

  /// Acts as if `sig` had arrived (tests, and the watcher itself).
  void trigger(int sig);

  /// Destroys every registered domain now; returns how many were destroyed.
  int destroy_domains();

 private:
  Interrupts() = default;
  std::atomic<int> signal_{0};
  mutable std::mutex mu_;
  std::set<std::pair<std::string, std::string>> domains_;
  std::map<int, std::function<void()>> hooks_;
  int next_hook_ = 0;
  bool installed_ = false;
};

}  // namespace rlab::run
