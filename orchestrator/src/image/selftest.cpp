#include "image/selftest.hpp"

#include "util/process.hpp"

#include <fmt/format.h>

#include <charconv>
#include <sstream>

namespace rlab::image {
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

SelftestReport run_selftest(const std::filesystem::path& kernel_image,
                            const std::filesystem::path& initramfs, const SelftestOptions& o) {
  std::vector<std::string> argv{
      "qemu-system-aarch64", "-M", "virt,gic-version=3", "-accel", "tcg", "-cpu", "max,pauth=off",
      "-smp", std::to_string(o.vcpus), "-m", std::to_string(o.memory_mib),
      "-nodefaults", "-display", "none", "-serial", "stdio", "-no-reboot",
      "-device", "virtio-serial-pci,id=vser0",
      "-chardev", "null,id=agent0",
      "-device", "virtserialport,bus=vser0.0,chardev=agent0,name=org.rlab.agent.0",
      "-kernel", kernel_image.string(), "-initrd", initramfs.string(),
      "-append", "console=ttyAMA0 panic=-1 rlab.selftest=1"};
  argv[6] = o.cpu;
  util::ProcessOptions opts;
  opts.timeout = o.timeout;
  auto res = util::run(argv, opts);
  auto report = parse_selftest(res.output);
  report.wall_seconds = res.elapsed.count();
  if (res.timed_out || !report.complete)
    throw std::runtime_error(fmt::format(
        "guest self-test {} ({} vCPUs, {} s):\n{}",
        res.timed_out ? "timed out" : "did not complete (exit " + std::to_string(res.exit_code) + ")",
        o.vcpus, res.elapsed.count(), util::tail(res.output, 40)));
  return report;
}

}  // namespace rlab::image
