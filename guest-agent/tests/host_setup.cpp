#include "host_setup.hpp"

#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "harness.hpp"
#include "counters/tracepoints.hpp"

namespace rlab::agent::test {
namespace fs = std::filesystem;

std::string ensure_tracefs() {
  if (rlab::agent::find_tracefs()) return "";
  const fs::path where = "/sys/kernel/tracing";
  std::error_code ec;
  if (!fs::is_directory(where, ec))
    return where.string() + " does not exist: this kernel has no tracefs (CONFIG_TRACING)";
  if (::mount("tracefs", where.c_str(), "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
    const int err = errno;
    return "cannot mount tracefs on " + where.string() + ": " + std::strerror(err) +
           (err == EPERM ? " (the agent tests need root)" : "");
  }
  if (!rlab::agent::find_tracefs())
    return "tracefs is mounted on " + where.string() + " but has no events/ directory";
  return "";
}

std::string ensure_loop_control() {
  const fs::path control = "/dev/loop-control";
  std::error_code ec;
  if (fs::exists(control, ec)) return "";
  int st = 0;
  std::string out;
  try {
    out = run_capture({"modprobe", "loop"}, &st);
  } catch (const std::exception& e) {
    return control.string() + " is missing and modprobe cannot be started: " + e.what();
  }
  if (fs::exists(control, ec)) return "";
  return control.string() + " is missing and `modprobe loop` did not create it (exit " +
         std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : -1) + "): " + out;
}

LoopDisk::LoopDisk(const fs::path& dir, const fs::path& mnt) : mountpoint(mnt) {
  if (auto why = ensure_loop_control(); !why.empty()) throw std::runtime_error(why);
  const auto img = dir / "disk.img";
  { std::ofstream(img).close(); }
  fs::resize_file(img, 512ull << 20);
  int st = 0;
  device = run_capture({"losetup", "--find", "--show", img.string()}, &st);
  while (!device.empty() && device.back() == '\n') device.pop_back();
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) throw std::runtime_error("losetup failed: " + device);
}

LoopDisk::~LoopDisk() {
  // A process of the test's load may still hold the mount for a moment (EBUSY): retry for up
  // to 2 s, then detach it, so no test leaves a filesystem mounted on the machine.
  for (int tries = 0; tries < 200; ++tries) {
    if (::umount2(mountpoint.c_str(), 0) == 0) continue;  // stacked mounts: until none is left
    if (errno != EBUSY) break;
    ::usleep(10'000);
  }
  ::umount2(mountpoint.c_str(), MNT_DETACH);
  run_capture({"losetup", "-d", device});
}

}  // namespace rlab::agent::test
