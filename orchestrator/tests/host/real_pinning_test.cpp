// Pinning against the real libvirtd: the host topology libvirt reports, and a transient
// domain whose <cputune> pins take effect (virDomainGetVcpuPinInfo, the live XML).
#include "host/pinning.hpp"
#include "util/process.hpp"
#include "vm/disk.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <libvirt/libvirt.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace rlab;

TEST(RealPinning, TopologyHasEveryOnlineCpu) {
  auto r = util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(r.ok()) << r.output;
  vm::Connection conn("qemu:///system");
  auto topo = host::host_topology(conn);
  EXPECT_EQ(topo.size(), static_cast<std::size_t>(::sysconf(_SC_NPROCESSORS_ONLN)));
}

TEST(RealPinning, VcpuAndEmulatorPinsTakeEffect) {
  auto r = util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(r.ok()) << r.output;
  vm::Connection conn("qemu:///system");
  auto topo = host::host_topology(conn);
  ASSERT_GE(topo.size(), 2u) << "needs two host CPUs to tell a pin from the default";
  const unsigned cpu_a = topo[1].id, cpu_b = topo[0].id;  // reversed: not what libvirt would pick

  fs::path dir = fs::path("/var/tmp") / ("rlab-pin-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::all);
  // Not a kernel: the guest executes garbage, but QEMU starts and libvirt applies the pins.
  std::ofstream(dir / "Image") << std::string(4096, '\0');
  std::ofstream(dir / "initramfs") << "070701";
  vm::create_sparse_disk(dir / "fs.raw", 64ull << 20);
  vm::DomainSpec s;
  s.name = vm::domain_name("pintest" + std::to_string(getpid()), "pins");
  s.vcpus = 2;
  s.memory_mib = 256;
  s.kernel = dir / "Image";
  s.initramfs = dir / "initramfs";
  s.cmdline = "console=ttyAMA0";
  s.console_log = dir / "console.log";
  s.agent_socket = dir / "agent.sock";
  s.disk = dir / "fs.raw";
  s.vcpu_pins = {std::to_string(cpu_a), std::to_string(cpu_b)};
  s.emulator_pin = std::to_string(cpu_a);
  vm::Domain d = conn.create_transient(vm::domain_xml(s));

  virDomainPtr dom = virDomainLookupByName(static_cast<virConnectPtr>(conn.raw()), s.name.c_str());
  ASSERT_NE(dom, nullptr) << vm::last_libvirt_error();
  const int maplen = VIR_CPU_MAPLEN(static_cast<int>(topo.size()) + 64);
  std::vector<unsigned char> maps(2 * maplen, 0);
  ASSERT_EQ(virDomainGetVcpuPinInfo(dom, 2, maps.data(), maplen, VIR_DOMAIN_AFFECT_LIVE), 2)
      << vm::last_libvirt_error();
  for (unsigned cpu = 0; cpu < 64 && cpu / 8 < static_cast<unsigned>(maplen); ++cpu) {
    EXPECT_EQ(VIR_CPU_USABLE(maps.data(), maplen, 0, cpu) != 0, cpu == cpu_a) << "vCPU 0, CPU " << cpu;
    EXPECT_EQ(VIR_CPU_USABLE(maps.data(), maplen, 1, cpu) != 0, cpu == cpu_b) << "vCPU 1, CPU " << cpu;
  }
  char* live = virDomainGetXMLDesc(dom, 0);
  ASSERT_NE(live, nullptr);
  const std::string xml(live);
  std::free(live);
  EXPECT_NE(xml.find("<emulatorpin cpuset='" + std::to_string(cpu_a) + "'/>"), std::string::npos) << xml;
  virDomainFree(dom);
  d.destroy();
  fs::remove_all(dir);
}
