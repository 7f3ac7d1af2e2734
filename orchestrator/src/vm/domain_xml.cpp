#include "vm/domain_xml.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace rlab::vm {
namespace {

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\'': out += "&apos;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

void require_path(const std::filesystem::path& p, std::string_view field) {
  if (p.empty()) throw std::invalid_argument(fmt::format("domain spec: {} is empty", field));
  if (!p.is_absolute())
    throw std::invalid_argument(
        fmt::format("domain spec: {} must be an absolute path, got '{}'", field, p.string()));
}

}  // namespace

std::string_view to_string(Accel a) { return a == Accel::kKvm ? "kvm" : "tcg"; }

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
  if (s.vcpus < 1 || s.vcpus > 512)
    throw std::invalid_argument(fmt::format("domain spec: vcpus {} is outside 1..512", s.vcpus));
  if (s.memory_mib < 128)
    throw std::invalid_argument(
        fmt::format("domain spec: memory {} MiB is below 128 MiB", s.memory_mib));
  require_path(s.kernel, "kernel");
  require_path(s.initramfs, "initramfs");
  require_path(s.console_log, "console_log");
  require_path(s.agent_socket, "agent_socket");
  require_path(s.disk, "disk");
  if (s.agent_socket.string().size() > 107)
    throw std::invalid_argument(fmt::format(
        "domain spec: agent_socket '{}' is {} bytes, a unix socket path holds at most 107",
        s.agent_socket.string(), s.agent_socket.string().size()));
  if (s.disk_serial.empty() || s.disk_serial.size() > 20)
    throw std::invalid_argument("domain spec: disk_serial must be 1..20 bytes (virtio-blk limit)");

  const bool kvm = s.accel == Accel::kKvm;
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
                                       escape(model));
  }
  // libvirt 9.0 has no element for the arm `pauth` property: pass it to QEMU directly. It
  // applies to `-cpu max` only (the property lives on max-arm-cpu).
  std::string qemu_ns;
  if (!kvm && (s.cpu_model.empty() || s.cpu_model == "max"))
    qemu_ns =
        "  <qemu:commandline>\n"
        "    <qemu:arg value='-global'/>\n"
        "    <qemu:arg value='max-arm-cpu.pauth=off'/>\n"
        "  </qemu:commandline>\n";

  return fmt::format(
      "<domain type='{type}' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>\n"
      "  <name>{name}</name>\n"
      "  <memory unit='MiB'>{mem}</memory>\n"
      "  <vcpu placement='static'>{vcpus}</vcpu>\n"
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
      "    <disk type='file' device='disk'>\n"
      "      <driver name='qemu' type='raw'/>\n"
      "      <source file='{disk}'/>\n"
      "      <target dev='vda' bus='virtio'/>\n"
      "      <serial>{serial}</serial>\n"
      "    </disk>\n"
      "    <controller type='usb' model='none'/>\n"
      "    <serial type='pty'>\n"
      "      <log file='{console}' append='off'/>\n"
      "      <target port='0'/>\n"
      "    </serial>\n"
      "    <console type='pty'>\n"
      "      <target type='serial' port='0'/>\n"
      "    </console>\n"
      "    <channel type='unix'>\n"
      "      <source mode='bind' path='{socket}'/>\n"
      "      <target type='virtio' name='{channel}'/>\n"
      "    </channel>\n"
      "    <memballoon model='none'/>\n"
      "  </devices>\n"
      "{qemu_ns}"
      "</domain>\n",
      fmt::arg("type", kvm ? "kvm" : "qemu"), fmt::arg("name", escape(s.name)),
      fmt::arg("mem", s.memory_mib), fmt::arg("vcpus", s.vcpus),
      fmt::arg("kernel", escape(s.kernel.string())),
      fmt::arg("initrd", escape(s.initramfs.string())), fmt::arg("cmdline", escape(s.cmdline)),
      fmt::arg("cpu", cpu), fmt::arg("disk", escape(s.disk.string())),
      fmt::arg("serial", escape(s.disk_serial)),
      fmt::arg("console", escape(s.console_log.string())),
      fmt::arg("socket", escape(s.agent_socket.string())),
      fmt::arg("channel", kAgentChannel), fmt::arg("qemu_ns", qemu_ns));
}

}  // namespace rlab::vm
