#include "vm/selftest.hpp"

#include "util/paths.hpp"
#include "util/process.hpp"
#include "vm/domain_xml.hpp"

#include <fmt/format.h>

#include <charconv>
#include <thread>
#include <unistd.h>
#include <sstream>

namespace rlab::vm {
namespace {

// The whole of `s` as a number, or nullopt (console noise can garble a line).
template <typename T>
std::optional<T> number(const std::string& s) {
  T v{};
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

SelftestReport parse_selftest(std::string_view console) {
  SelftestReport r;
  r.console = std::string(console);
  std::istringstream in(r.console);
  bool begun = false;
  const std::string tag = "RLAB-SELFTEST ";
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    auto at = line.find(tag);
    if (at == std::string::npos) continue;
    std::string body = line.substr(at + tag.size());
    if (body == "begin") begun = true;
    if (body == "end") r.complete = begun;
    auto eq = body.find('=');
    if (eq == std::string::npos) continue;
    std::string key = body.substr(0, eq), value = body.substr(eq + 1);
    if (key == "page_size") r.page_size = number<unsigned long>(value);
    else if (key == "nproc") r.nproc = number<unsigned>(value);
    else if (key == "init_uptime_s") r.init_uptime_s = number<double>(value);
    else if (key == "kernel_release") r.kernel_release = value;
    else if (key == "filesystem") r.filesystems.insert(value);
    else if (key == "tracepoint") r.tracepoints.insert(value);
    else if (key == "virtio_port") r.virtio_ports.insert(value);
    else if (key == "tool") r.tools.insert(value);
    else if (key == "hist_triggers") r.hist_triggers = value == "1";
  }
  return r;
}

SelftestReport run_selftest(Connection& conn, const std::filesystem::path& kernel_image,
                            const std::filesystem::path& initramfs, const SelftestOptions& o) {
  namespace fs = std::filesystem;
  const std::string name = "rlab-selftest-" + std::to_string(::getpid());
  const fs::path dir = fs::path("/var/tmp") / name;  // /var/tmp: every parent searchable by QEMU's user
  fs::remove_all(dir);
  fs::create_directories(dir);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};
  DomainSpec spec;
  spec.name = name;
  spec.vcpus = o.vcpus;
  spec.memory_mib = o.memory_mib;
  spec.kernel = dir / "Image";
  spec.initramfs = dir / initramfs.filename();
  spec.console_log = dir / "console.log";
  spec.agent_via_libvirt = true;
  spec.cmdline = "console=ttyAMA0 panic=-1 rlab.selftest=1";
  fs::copy_file(kernel_image, spec.kernel);
  fs::copy_file(initramfs, spec.initramfs);
  for (const auto& p : {dir, spec.kernel, spec.initramfs})
    fs::permissions(p, fs::perms::others_read | fs::perms::others_exec | fs::perms::group_read, fs::perm_options::add);
  conn.destroy_by_name(name);  // one a killed self-test of this pid left
  const auto t0 = std::chrono::steady_clock::now();
  Domain d = conn.create_transient(domain_xml(spec));
  while (d.is_active() && std::chrono::steady_clock::now() - t0 < o.timeout)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const bool timed_out = d.is_active();
  if (timed_out) d.destroy();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string console;
  try {
    console = util::read_file(spec.console_log);
  } catch (const std::exception&) {
  }
  auto report = parse_selftest(console);
  report.wall_seconds = wall;
  if (timed_out || !report.complete)
    throw std::runtime_error(fmt::format("guest self-test {} ({} vCPUs, {:.0f} s):\n{}",
                                         timed_out ? "timed out" : "did not complete", o.vcpus, wall,
                                         util::tail(console, 40)));
  return report;
}

}  // namespace rlab::vm
