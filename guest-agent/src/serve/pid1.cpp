#include "serve/pid1.hpp"

#include "serve/sysinfo.hpp"

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rlab::agent {
namespace {

void mount_or_say(const char* source, const char* target, const char* type) {
  ::mkdir(target, 0755);
  if (::mount(source, target, type, 0, nullptr) != 0 && errno != EBUSY)
    std::fprintf(stderr, "rlab-agent: mount -t %s %s: %s\n", type, target, std::strerror(errno));
}

}  // namespace

bool setup_as_init() {
  if (::getpid() != 1 || ::access("/proc/self", F_OK) == 0) return false;
  // PID 1 began when this process did: the hello's init and agent times are the same.
  char uptime[32];  // %.17g: the hello reads back exactly the agent's own start
  std::snprintf(uptime, sizeof uptime, "%.17g", agent_start_uptime_s());
  mount_or_say("proc", "/proc", "proc");
  mount_or_say("sysfs", "/sys", "sysfs");
  mount_or_say("devtmpfs", "/dev", "devtmpfs");
  mount_or_say("devpts", "/dev/pts", "devpts");
  ::mkdir("/dev/shm", 0755);
  ::mkdir("/dev/virtio-ports", 0755);  // the port's link is made when it is opened (serve/links.cpp)
  mount_or_say("tracefs", "/sys/kernel/tracing", "tracefs");
  ::setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
  ::setenv("LANG", "C", 1);
  ::setenv("LC_ALL", "C", 1);
  ::setenv("RLAB_INIT_UPTIME", uptime, 1);
  std::fprintf(stderr, "rlab-agent: init at %.2fs\n", agent_start_uptime_s());
  return true;
}

}  // namespace rlab::agent
