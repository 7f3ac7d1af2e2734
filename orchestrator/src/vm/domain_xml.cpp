#include "vm/domain_xml.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace rlab::vm {
namespace {

using util::xml_escape;

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

std::string domain_xml(const DomainSpec& s) {
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
  if (s.agent_socket.string().size() > 107)
    throw std::invalid_argument(fmt::format(
        "domain spec: agent_socket '{}' is {} bytes, a unix socket path holds at most 107",
        s.agent_socket.string(), s.agent_socket.string().size()));
  if (s.disk_serial.empty() || s.disk_serial.size() > 20)
    throw std::invalid_argument("domain spec: disk_serial must be 1..20 bytes (virtio-blk limit)");

  if (!s.vcpu_pins.empty() && s.vcpu_pins.size() != s.vcpus)
    throw std::invalid_argument(fmt::format("domain spec: vcpu_pins has {} cpusets for {} vCPUs",
                                            s.vcpu_pins.size(), s.vcpus));
  for (const auto& c : s.vcpu_pins) require_cpuset(c, "vcpu_pins");
  if (!s.emulator_pin.empty()) require_cpuset(s.emulator_pin, "emulator_pin");
  std::string cputune;
  if (!s.vcpu_pins.empty() || !s.emulator_pin.empty()) {
    cputune = "  <cputune>\n";
    for (std::size_t i = 0; i < s.vcpu_pins.size(); ++i)
      cputune += fmt::format("    <vcpupin vcpu='{}' cpuset='{}'/>\n", i, s.vcpu_pins[i]);
    if (!s.emulator_pin.empty())
      cputune += fmt::format("    <emulatorpin cpuset='{}'/>\n", s.emulator_pin);
    cputune += "  </cputune>\n";
  }

  const bool kvm = s.accel == Accel::kKvm;
  if (s.icount_shift && kvm)
    throw std::invalid_argument(
        "domain spec: icount_shift is set under KVM; instruction counting needs TCG");
  if (s.icount_shift && *s.icount_shift > 10)
    throw std::invalid_argument(fmt::format(
        "domain spec: icount_shift {} is outside QEMU's range 0..10", *s.icount_shift));
  std::string cpu;
  if (kvm) {
    if (!s.cpu_model.empty() && s.cpu_model != "host")
      throw std::invalid_argument(fmt::format(
          "domain spec: cpu_model '{}' under KVM; only 'host' is supported", s.cpu_model));
    cpu = "  <cpu mode='host-passthrough' check='none'/>\n";
  } else {
    std::string model = s.cpu_model.empty() ? "max" : s.cpu_model;
    cpu = model == "max" ? "  <cpu mode='maximum' check='none'/>\n"
                         : fmt::format("  <cpu mode='custom' match='exact' check='none'>\n"
                                       "    <model fallback='forbid'>{}</model>\n  </cpu>\n",
                                       xml_escape(model));
  }
  // libvirt 9.0 has no element for the arm `pauth` property: pass it to QEMU directly. It
  // applies to `-cpu max` only (the property lives on max-arm-cpu).
  // Deterministic mode has no libvirt element either. sleep=off: an idle guest's clock jumps
  // to its next timer instead of waiting in host time; QEMU then runs the vCPUs in one thread.
  std::string qemu_args;
  if (pauth_off(s))
    qemu_args += "    <qemu:arg value='-global'/>\n"
                 "    <qemu:arg value='max-arm-cpu.pauth=off'/>\n";
  if (s.icount_shift)
    qemu_args += fmt::format("    <qemu:arg value='-icount'/>\n"
                             "    <qemu:arg value='{}'/>\n", icount_option(*s.icount_shift));
  const std::string qemu_ns =
      qemu_args.empty() ? "" : "  <qemu:commandline>\n" + qemu_args + "  </qemu:commandline>\n";

  return fmt::format(
      "<domain type='{type}' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>\n"
      "  <name>{name}</name>\n"
      "  <memory unit='MiB'>{mem}</memory>\n"
      "  <vcpu placement='static'>{vcpus}</vcpu>\n"
      "{cputune}"
      "  <os>\n"
      "    <type arch='aarch64' machine='virt'>hvm</type>\n"
      "    <kernel>{kernel}</kernel>\n"
      "    <initrd>{initrd}</initrd>\n"
      "    <cmdline>{cmdline}</cmdline>\n"
      "  </os>\n"
      "  <features>\n"
      "    <gic version='3'/>\n"
      "  </features>\n"
      "{cpu}"
      "  <clock offset='utc'/>\n"
      "  <on_poweroff>destroy</on_poweroff>\n"
      "  <on_reboot>destroy</on_reboot>\n"
      "  <on_crash>destroy</on_crash>\n"
      "  <devices>\n"
      "{disk}"
      "    <controller type='usb' model='none'/>\n"
      "    <serial type='pty'>\n"
      "      <log file='{console}' append='off'/>\n"
      "      <target port='0'/>\n"
      "    </serial>\n"
      "    <console type='pty'>\n"
      "      <target type='serial' port='0'/>\n"
      "    </console>\n"
      "    <channel type='unix'>\n"
      "      <source mode='bind'{socket}/>\n"
      "      <target type='virtio' name='{channel}'/>\n"
      "    </channel>\n"
      "    <memballoon model='none'/>\n"
      "  </devices>\n"
      "{qemu_ns}"
      "</domain>\n",
      fmt::arg("type", kvm ? "kvm" : "qemu"), fmt::arg("name", xml_escape(s.name)),
      fmt::arg("mem", s.memory_mib), fmt::arg("vcpus", s.vcpus),
      fmt::arg("cputune", cputune),
      fmt::arg("kernel", xml_escape(s.kernel.string())),
      fmt::arg("initrd", xml_escape(s.initramfs.string())), fmt::arg("cmdline", xml_escape(s.cmdline)),
      fmt::arg("cpu", cpu),
      fmt::arg("disk", s.disk.empty() ? std::string()
                                      : fmt::format("    <disk type='file' device='disk'>\n"
                                                    "      <driver name='qemu' type='raw'/>\n"
                                                    "      <source file='{}'/>\n"
                                                    "      <target dev='vda' bus='virtio'/>\n"
                                                    "      <serial>{}</serial>\n"
                                                    "    </disk>\n",
                                                    xml_escape(s.disk.string()), xml_escape(s.disk_serial))),
      fmt::arg("console", xml_escape(s.console_log.string())),
      // No path: libvirt picks one in its channel directory (virDomainOpenChannel reaches it).
      fmt::arg("socket", s.agent_via_libvirt ? std::string()
                                             : " path='" + xml_escape(s.agent_socket.string()) + "'"),
      fmt::arg("channel", kAgentChannel), fmt::arg("qemu_ns", qemu_ns));
}

}  // namespace rlab::vm
