#include "vm/domain_xml.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace rlab::vm {
namespace {

void require_path(const std::filesystem::path& p, std::string_view field) {
  if (p.empty()) throw std::invalid_argument(fmt::format("domain spec: {} is empty", field));
  if (!p.is_absolute())
    throw std::invalid_argument(
        fmt::format("domain spec: {} must be an absolute path, got '{}'", field, p.string()));
}

void require_cpuset(const std::string& c, std::string_view field) {
  if (c.empty() || c.find_first_not_of("0123456789,-") != std::string::npos)
    throw std::invalid_argument(
        fmt::format("domain spec: {}: '{}' is not a host cpuset (e.g. 0-1 or 0,2)", field, c));
}

}  // namespace

std::string_view to_string(Accel a) { return a == Accel::kKvm ? "kvm" : "tcg"; }

std::string icount_option(unsigned shift) { return fmt::format("shift={},sleep=off", shift); }

namespace {
bool pauth_off(const DomainSpec& s) {
  return s.accel == Accel::kTcg && (s.cpu_model.empty() || s.cpu_model == "max");
}
}  // namespace

std::string cpu_options(const DomainSpec& s) {
  std::string out = pauth_off(s) ? "pauth=off" : "";
  if (s.icount_shift)
    out += (out.empty() ? "" : " ") + std::string("icount=") + icount_option(*s.icount_shift);
  return out;
}

std::string domain_name(std::string_view run_id, std::string_view cell_id) {
  std::string raw = fmt::format("{}{}-{}", kDomainPrefix, run_id, cell_id);
  std::string out;
  for (char c : raw) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '+' || c == '-';
    char w = ok ? c : '-';
    if (w == '-' && !out.empty() && out.back() == '-') continue;
    out += w;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.size() > 200) out.resize(200);
  return out;
}

namespace {

/// Throws std::invalid_argument naming the first field of `s` libvirt or QEMU would refuse (or
/// silently misread): domain_xml()'s contract.
void check_spec(const DomainSpec& s) {
  if (s.name.empty()) throw std::invalid_argument("domain spec: name is empty");
  if (s.vcpus < 1 || s.vcpus > kMaxVcpus)
    throw std::invalid_argument(fmt::format("domain spec: vcpus {} is outside 1..{}", s.vcpus, kMaxVcpus));
  if (s.memory_mib < 128)
    throw std::invalid_argument(
        fmt::format("domain spec: memory {} MiB is below 128 MiB", s.memory_mib));
  require_path(s.kernel, "kernel");
  require_path(s.initramfs, "initramfs");
  require_path(s.console_log, "console_log");
  if (s.agent_via_libvirt && !s.agent_socket.empty())
    throw std::invalid_argument(fmt::format(
        "domain spec: agent_socket '{}' is set, but the agent channel goes through libvirt "
        "(agent_via_libvirt), which chooses the socket's path",
        s.agent_socket.string()));
  if (!s.agent_via_libvirt) require_path(s.agent_socket, "agent_socket");
  if (!s.disk.empty()) require_path(s.disk, "disk");
  if (!s.console_socket.empty()) require_path(s.console_socket, "console_socket");
  for (const auto& [path, field] : {std::pair{&s.agent_socket, "agent_socket"}, {&s.console_socket, "console_socket"}}) {
    if (path->string().size() > 107)
      throw std::invalid_argument(fmt::format(
          "domain spec: {} '{}' is {} bytes, a unix socket path holds at most 107", field,
          path->string(), path->string().size()));
  }
  if (s.disk_serial.empty() || s.disk_serial.size() > 20)
    throw std::invalid_argument("domain spec: disk_serial must be 1..20 bytes (virtio-blk limit)");
  if (!s.vcpu_pins.empty() && s.vcpu_pins.size() != s.vcpus)
    throw std::invalid_argument(fmt::format("domain spec: vcpu_pins has {} cpusets for {} vCPUs",
                                            s.vcpu_pins.size(), s.vcpus));
  for (const auto& c : s.vcpu_pins) require_cpuset(c, "vcpu_pins");
  if (!s.emulator_pin.empty()) require_cpuset(s.emulator_pin, "emulator_pin");
  const bool kvm = s.accel == Accel::kKvm;
  if (s.icount_shift && kvm)
    throw std::invalid_argument(
        "domain spec: icount_shift is set under KVM; instruction counting needs TCG");
  if (s.icount_shift && *s.icount_shift > 10)
    throw std::invalid_argument(fmt::format(
        "domain spec: icount_shift {} is outside QEMU's range 0..10", *s.icount_shift));
  if (kvm && !s.cpu_model.empty() && s.cpu_model != "host")
    throw std::invalid_argument(fmt::format(
        "domain spec: cpu_model '{}' under KVM; only 'host' is supported", s.cpu_model));
}

/// <cputune>: each vCPU's host cpuset and the emulator threads' (none when nothing is pinned).
void write_cputune(util::XmlWriter& x, const DomainSpec& s) {
  if (s.vcpu_pins.empty() && s.emulator_pin.empty()) return;
  x.open("cputune");
  for (std::size_t i = 0; i < s.vcpu_pins.size(); ++i)
    x.open("vcpupin").attr("vcpu", i).attr("cpuset", s.vcpu_pins[i]).close();
  if (!s.emulator_pin.empty()) x.open("emulatorpin").attr("cpuset", s.emulator_pin).close();
  x.close();
}

/// <cpu>: the host's own under KVM; under TCG QEMU's `max` or a named model, exactly.
void write_cpu(util::XmlWriter& x, const DomainSpec& s) {
  const std::string model = s.cpu_model.empty() ? "max" : s.cpu_model;
  if (s.accel == Accel::kKvm) x.open("cpu").attr("mode", "host-passthrough").attr("check", "none").close();
  else if (model == "max") x.open("cpu").attr("mode", "maximum").attr("check", "none").close();
  else
    x.open("cpu").attr("mode", "custom").attr("match", "exact").attr("check", "none")
        .open("model").attr("fallback", "forbid").text(model).close().close();
}

/// <devices>: the test disk, the serial console logged to a file, the agent's virtio-serial
/// channel; no USB controller, no balloon.
void write_devices(util::XmlWriter& x, const DomainSpec& s) {
  x.open("devices");
  if (!s.disk.empty())
    x.open("disk").attr("type", "file").attr("device", "disk")
        .open("driver").attr("name", "qemu").attr("type", "raw").close()
        .open("source").attr("file", s.disk.string()).close()
        .open("target").attr("dev", "vda").attr("bus", "virtio").close()
        .leaf("serial", s.disk_serial)
        .close();
  x.open("controller").attr("type", "usb").attr("model", "none").close();
  if (!s.console_socket.empty()) {  // rlab listens, QEMU connects; libvirt adds the <console>
    x.open("serial").attr("type", "unix")
        .open("source").attr("mode", "connect").attr("path", s.console_socket.string()).close()
        .open("target").attr("port", "0").close()
        .close();
  } else {
    x.open("serial").attr("type", "pty")
        .open("log").attr("file", s.console_log.string()).attr("append", "off").close()
        .open("target").attr("port", "0").close()
        .close();
    x.open("console").attr("type", "pty").open("target").attr("type", "serial").attr("port", "0").close().close();
  }
  x.open("channel").attr("type", "unix").open("source").attr("mode", "bind");
  // No path: libvirt picks one in its channel directory (virDomainOpenChannel reaches it).
  if (!s.agent_via_libvirt) x.attr("path", s.agent_socket.string());
  x.close().open("target").attr("type", "virtio").attr("name", kAgentChannel).close().close();
  x.open("memballoon").attr("model", "none").close();
  x.close();
}

/// <qemu:commandline>: what libvirt 9.0 has no element for. The arm `pauth` property applies
/// to `-cpu max` only (it lives on max-arm-cpu); deterministic mode's `-icount`, where
/// sleep=off makes an idle guest's clock jump to its next timer instead of waiting in host
/// time (QEMU then runs the vCPUs in one thread).
void write_qemu_args(util::XmlWriter& x, const DomainSpec& s) {
  if (!pauth_off(s) && !s.icount_shift) return;
  x.open("qemu:commandline");
  const auto arg = [&](std::string_view v) { x.open("qemu:arg").attr("value", v).close(); };
  if (pauth_off(s)) arg("-global"), arg("max-arm-cpu.pauth=off");
  if (s.icount_shift) arg("-icount"), arg(icount_option(*s.icount_shift));
  x.close();
}

}  // namespace

std::string domain_xml(const DomainSpec& s) {
  check_spec(s);
  util::XmlWriter x;
  x.open("domain").attr("type", s.accel == Accel::kKvm ? "kvm" : "qemu")
      .attr("xmlns:qemu", "http://libvirt.org/schemas/domain/qemu/1.0");
  x.leaf("name", s.name);
  x.open("memory").attr("unit", "MiB").text(std::to_string(s.memory_mib)).close();
  x.open("vcpu").attr("placement", "static").text(std::to_string(s.vcpus)).close();
  write_cputune(x, s);
  x.open("os")
      .open("type").attr("arch", "aarch64").attr("machine", "virt").text("hvm").close()
      .leaf("kernel", s.kernel.string())
      .leaf("initrd", s.initramfs.string())
      .leaf("cmdline", s.cmdline)
      .close();
  x.open("features").open("gic").attr("version", "3").close().close();
  write_cpu(x, s);
  x.open("clock").attr("offset", "utc").close();
  x.leaf("on_poweroff", "destroy").leaf("on_reboot", "destroy").leaf("on_crash", "destroy");
  write_devices(x, s);
  write_qemu_args(x, s);
  x.close();
  return x.finish();
}

}  // namespace rlab::vm
