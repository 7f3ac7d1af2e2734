// Finding the agent's virtio-serial port by name in sysfs, as the agent does when /init ran
// before QEMU had told the guest the port's name.
#include <gtest/gtest.h>

#include <fstream>

#include "harness.hpp"
#include "serve/links.hpp"

using rlab::agent::virtio_port_device;
using namespace rlab::agent::test;

namespace {
void port(const std::filesystem::path& sys, const std::string& node, const std::string& name) {
  std::filesystem::create_directories(sys / node);
  std::ofstream(sys / node / "name") << name << "\n";
}
}  // namespace

TEST(VirtioPort, FoundByItsNameAmongOtherPorts) {
  TempDir dir;
  port(dir.path, "vport0p0", "");
  port(dir.path, "vport1p1", "org.qemu.guest_agent.0");
  port(dir.path, "vport1p2", "org.rlab.agent.0");
  EXPECT_EQ(virtio_port_device(dir.path.string(), "org.rlab.agent.0"), "vport1p2");
  EXPECT_EQ(virtio_port_device(dir.path.string(), "org.qemu.guest_agent.0"), "vport1p1");
}

TEST(VirtioPort, ANameNotYetArrivedOrNoSysfsIsEmpty) {
  TempDir dir;
  std::filesystem::create_directories(dir.path / "vport1p1");  // probed, name file not there yet
  port(dir.path, "vport1p2", "");                                 // name not arrived
  EXPECT_EQ(virtio_port_device(dir.path.string(), "org.rlab.agent.0"), "");
  EXPECT_EQ(virtio_port_device((dir.path / "missing").string(), "org.rlab.agent.0"), "");
  EXPECT_EQ(virtio_port_device(dir.path.string(), "org.rlab.agent"), "") << "a prefix is not the name";
}
