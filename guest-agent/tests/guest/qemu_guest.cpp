#include "guest/qemu_guest.hpp"

#include <fstream>

namespace rlab::agent::test {
namespace fs = std::filesystem;

QemuGuest::QemuGuest(const GuestSpec& s, const fs::path& dir) : dir_(dir) {
  const fs::path disk = dir / "disk.img";
  { std::ofstream(disk).close(); }
  fs::resize_file(disk, s.disk_bytes);
  std::vector<std::string> argv{
      "qemu-system-aarch64", "-machine", "virt,gic-version=3", "-cpu", "max,pauth=off", "-accel",
      s.icount ? "tcg,thread=single" : "tcg", "-smp", std::to_string(s.vcpus), "-m", std::to_string(s.memory_mib),
      "-display", "none", "-monitor", "none",
      "-no-reboot", "-serial", "file:" + console_log().string(), "-kernel", s.kernel.string(), "-initrd",
      s.initramfs.string(), "-append", "console=ttyAMA0 panic=-1", "-device", "virtio-serial-pci", "-chardev",
      "socket,id=agent,path=" + socket().string() + ",server=on,wait=off", "-device",
      "virtserialport,chardev=agent,name=org.rlab.agent.0", "-drive",
      "file=" + disk.string() + ",if=none,id=test,format=raw,cache=unsafe", "-device",
      "virtio-blk-pci,drive=test,serial=" + s.disk_serial};
  if (s.icount) argv.insert(argv.end(), {"-icount", "shift=0,sleep=off"});
  qemu_ = std::make_unique<Process>(argv);
}

}  // namespace rlab::agent::test
