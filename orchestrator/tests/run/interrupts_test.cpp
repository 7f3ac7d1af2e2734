// SIGTERM destroys the process's registered guests (real libvirtd) and ends the commands it
// is waiting for. The signal is raised in a forked child so this test binary's own state
// stays clean.
#include "run/interrupts.hpp"
#include "util/process.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST(RealInterrupts, SigtermDestroysRegisteredDomainsAndRunsHooks) {
  ASSERT_TRUE(rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"}).ok());
  fs::path dir = fs::path("/var/tmp") / ("rlab-intr-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::all);
  std::ofstream(dir / "Image") << std::string(4096, '\0');
  std::ofstream(dir / "initramfs") << "070701";
  std::ofstream(dir / "fs.raw") << "";
  const std::string name = rlab::vm::domain_name("intr" + std::to_string(getpid()), "cell");

  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int rc = 10;
    try {
      auto& intr = rlab::run::Interrupts::instance();
      intr.install();
      rlab::vm::Connection conn("qemu:///system");
      rlab::vm::DomainSpec s;
      s.name = name;
      s.memory_mib = 256;
      s.kernel = dir / "Image";
      s.initramfs = dir / "initramfs";
      s.console_log = dir / "console.log";
      s.agent_socket = dir / "agent.sock";
      s.disk = dir / "fs.raw";
      auto d = conn.create_transient(rlab::vm::domain_xml(s));
      intr.add_domain(conn.uri(), name);
      std::atomic<bool> hooked{false};
      intr.add_hook([&] { hooked = true; });
      // A command this process waits for (a kernel build's make, say) ends with the signal.
      std::atomic<int> command_exit{-1};
      std::thread command([&] { command_exit = rlab::util::run({"sleep", "60"}).exit_code; });
      for (int i = 0; i < 200 && rlab::util::signal_running_children(0) == 0; ++i) std::this_thread::sleep_for(50ms);
      kill(getpid(), SIGTERM);
      for (int i = 0; i < 200 && !hooked; ++i) std::this_thread::sleep_for(50ms);
      for (int i = 0; i < 100 && command_exit < 0; ++i) std::this_thread::sleep_for(50ms);
      const bool command_ended = command_exit == 128 + SIGTERM;
      if (command_ended) command.join(); else command.detach();
      rc = intr.stopped() && intr.signal() == SIGTERM && hooked && !d.is_active() ? (command_ended ? 0 : 13) : 11;
    } catch (...) {
      rc = 12;
    }
    _exit(rc);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "10: setup, 11: not destroyed/hooked, 12: exception, 13: the running command did not end";
  rlab::vm::Connection conn("qemu:///system");
  EXPECT_TRUE(conn.active_domains(name).empty());
  conn.destroy_by_name(name);
  fs::remove_all(dir);
}
