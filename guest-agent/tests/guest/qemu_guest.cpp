#include "guest/qemu_guest.hpp"

#include <fstream>
#include <stdexcept>

namespace rlab::agent::test {
namespace fs = std::filesystem;

QemuGuest::QemuGuest(const GuestSpec& s, const fs::path& dir) : dir_(dir) {
  const fs::path disk = dir / "disk.img";
  { std::ofstream(disk).close(); }
  fs::resize_file(disk, s.disk_bytes);
  qemu_ = std::make_unique<Process>(std::vector<std::string>{
      "qemu-system-aarch64", "-machine", "virt,gic-version=3", "-cpu", "max,pauth=off", "-accel", "tcg",
      "-smp", std::to_string(s.vcpus), "-m", std::to_string(s.memory_mib), "-display", "none", "-monitor", "none",
      "-no-reboot", "-serial", "file:" + console_log().string(), "-kernel", s.kernel.string(), "-initrd",
      s.initramfs.string(), "-append", "console=ttyAMA0 panic=-1", "-device", "virtio-serial-pci", "-chardev",
      "socket,id=agent,path=" + socket().string() + ",server=on,wait=off", "-device",
      "virtserialport,chardev=agent,name=org.rlab.agent.0", "-drive",
      "file=" + disk.string() + ",if=none,id=test,format=raw,cache=unsafe", "-device",
      "virtio-blk-pci,drive=test,serial=" + s.disk_serial});
}

GuestSpec guest_spec_from_env() {
  GuestSpec s;
  const char* k = std::getenv("RLAB_GUEST_KERNEL");
  const char* i = std::getenv("RLAB_GUEST_INITRAMFS");
  if (!k) throw std::runtime_error("RLAB_GUEST_KERNEL (an arm64 Image) is not set");
  if (!i) throw std::runtime_error("RLAB_GUEST_INITRAMFS (an initramfs with rlab-agent as /init's agent) is not set");
  s.kernel = k;
  s.initramfs = i;
  return s;
}

}  // namespace rlab::agent::test
