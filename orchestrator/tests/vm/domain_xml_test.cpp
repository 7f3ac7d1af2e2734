// Domain XML: field checks, and the real libvirt schema (virt-xml-validate) accepts it.
#include "util/process.hpp"
#include "vm/domain_xml.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rlab::vm;

namespace {

DomainSpec sample_spec(Accel accel) {
  DomainSpec s;
  s.name = domain_name("20261130-0900-ab", "6.12+inline-inactivation/xfs agcount=4/2/r0");
  s.accel = accel;
  s.vcpus = 2;
  s.memory_mib = 2048;
  s.kernel = "/var/lib/rlab/k/Image";
  s.initramfs = "/var/lib/rlab/k/initramfs.cpio.zst";
  s.cmdline = "console=ttyAMA0 rdinit=/init panic=-1";
  s.console_log = "/var/lib/rlab/run/c0/console.log";
  s.agent_socket = "/var/lib/rlab/run/c0/agent.sock";
  s.disk = "/var/lib/rlab/run/c0/fs.raw";
  return s;
}

// Runs virt-xml-validate (libvirt-clients) on `xml` as a domain document.
rlab::util::ProcessResult validate(const std::string& xml) {
  fs::path tmp = fs::temp_directory_path() / ("rlab-domain-" + std::to_string(getpid()) + ".xml");
  std::ofstream(tmp) << xml;
  auto r = rlab::util::run({"virt-xml-validate", tmp.string(), "domain"});
  fs::remove(tmp);
  return r;
}

}  // namespace

TEST(DomainName, SanitisedAndPrefixed) {
  EXPECT_EQ(domain_name("r1", "6.12+inline/xfs agcount=4/2"), "rlab-r1-6.12+inline-xfs-agcount-4-2");
  EXPECT_EQ(domain_name("r1", "a//b"), "rlab-r1-a-b");
  EXPECT_LE(domain_name("r", std::string(500, 'x')).size(), 200u);
}

TEST(DomainXml, TcgHasMaxCpuWithPauthOffThroughQemuNamespace) {
  std::string xml = domain_xml(sample_spec(Accel::kTcg));
  EXPECT_NE(xml.find("<domain type='qemu' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>"),
            std::string::npos);
  EXPECT_NE(xml.find("<cpu mode='maximum'"), std::string::npos);
  EXPECT_NE(xml.find("<qemu:arg value='max-arm-cpu.pauth=off'/>"), std::string::npos);
  EXPECT_NE(xml.find("<gic version='3'/>"), std::string::npos);
  EXPECT_NE(xml.find("machine='virt'"), std::string::npos);
  EXPECT_NE(xml.find("<serial>rlab-fs</serial>"), std::string::npos);
  EXPECT_NE(xml.find("<log file='/var/lib/rlab/run/c0/console.log'"), std::string::npos);
  EXPECT_NE(xml.find("name='org.rlab.agent.0'"), std::string::npos);
  EXPECT_NE(xml.find("<vcpu placement='static'>2</vcpu>"), std::string::npos);
}

TEST(DomainXml, KvmUsesHostCpuAndNoPauthOverride) {
  std::string xml = domain_xml(sample_spec(Accel::kKvm));
  EXPECT_NE(xml.find("<domain type='kvm'"), std::string::npos);
  EXPECT_NE(xml.find("host-passthrough"), std::string::npos);
  EXPECT_EQ(xml.find("pauth"), std::string::npos);
}

TEST(DomainXml, EscapesCommandLine) {
  auto s = sample_spec(Accel::kTcg);
  s.cmdline = "a='<&>'";
  std::string xml = domain_xml(s);
  EXPECT_NE(xml.find("a=&#39;&lt;&amp;&gt;&#39;"), std::string::npos);
}

TEST(DomainXml, RejectsBadFieldsNamingThem) {
  auto s = sample_spec(Accel::kTcg);
  s.vcpus = 0;
  EXPECT_THROW(
      {
        try {
          domain_xml(s);
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("vcpus"), std::string::npos);
          throw;
        }
      },
      std::invalid_argument);
  s = sample_spec(Accel::kTcg);
  s.kernel = "Image";
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
  s = sample_spec(Accel::kTcg);
  s.agent_socket = "/" + std::string(120, 's');
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
  s = sample_spec(Accel::kKvm);
  s.cpu_model = "cortex-a57";
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
}

TEST(DomainXml, PassesVirtXmlValidate) {
  for (Accel a : {Accel::kTcg, Accel::kKvm}) {
    auto r = validate(domain_xml(sample_spec(a)));
    EXPECT_TRUE(r.ok()) << to_string(a) << ": " << r.output;
  }
}

TEST(DomainXml, VirtXmlValidateRejectsBrokenDocument) {
  // The validator itself must be able to fail, or the test above proves nothing.
  std::string xml = domain_xml(sample_spec(Accel::kTcg));
  xml.replace(xml.find("<vcpu"), 5, "<vcpux");
  xml.replace(xml.find("</vcpu>"), 7, "</vcpux>");
  EXPECT_FALSE(validate(xml).ok());
}

TEST(DomainXml, CputunePinsEachVcpuAndTheEmulatorAndValidates) {
  DomainSpec s = sample_spec(Accel::kTcg);
  s.vcpu_pins = {"0", "1"};
  s.emulator_pin = "0-1";
  const std::string xml = domain_xml(s);
  EXPECT_NE(xml.find("<vcpupin vcpu='0' cpuset='0'/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<vcpupin vcpu='1' cpuset='1'/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<emulatorpin cpuset='0-1'/>"), std::string::npos) << xml;
  auto r = validate(xml);
  EXPECT_TRUE(r.ok()) << r.output;
  EXPECT_EQ(domain_xml(sample_spec(Accel::kTcg)).find("<cputune>"), std::string::npos)
      << "no pinning asked, no <cputune>";
}

TEST(DomainXml, CputuneRejectsWrongCountAndBadCpuset) {
  DomainSpec s = sample_spec(Accel::kTcg);
  s.vcpu_pins = {"0"};  // 2 vCPUs
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
  s.vcpu_pins = {"0", "1'/><x a='"};
  try {
    domain_xml(s);
    FAIL() << "a cpuset with XML in it was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("vcpu_pins"), std::string::npos) << e.what();
  }
  s.vcpu_pins = {};
  s.emulator_pin = "all";
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
}

TEST(DomainXml, IcountGoesThroughQemuNamespaceAndValidates) {
  DomainSpec s = sample_spec(Accel::kTcg);
  EXPECT_EQ(domain_xml(s).find("-icount"), std::string::npos) << "real time by default";
  EXPECT_EQ(cpu_options(s), "pauth=off");
  s.icount_shift = 3;
  const std::string xml = domain_xml(s);
  const auto arg = xml.find("<qemu:arg value='-icount'/>\n    <qemu:arg value='shift=3,sleep=off'/>");
  EXPECT_NE(arg, std::string::npos) << xml;
  EXPECT_NE(xml.find("max-arm-cpu.pauth=off"), std::string::npos) << "pauth stays off";
  EXPECT_GT(arg, xml.find("<qemu:commandline>"));
  EXPECT_LT(arg, xml.find("</qemu:commandline>"));
  EXPECT_EQ(cpu_options(s), "pauth=off icount=shift=3,sleep=off");
  auto r = validate(xml);
  EXPECT_TRUE(r.ok()) << r.output;
  // A CPU model other than max has no pauth override, but still gets -icount.
  s.cpu_model = "cortex-a57";
  const std::string a57 = domain_xml(s);
  EXPECT_EQ(a57.find("pauth"), std::string::npos);
  EXPECT_NE(a57.find("<qemu:arg value='shift=3,sleep=off'/>"), std::string::npos) << a57;
  EXPECT_EQ(cpu_options(s), "icount=shift=3,sleep=off");
  EXPECT_TRUE(validate(a57).ok());
}

TEST(DomainXml, IcountRefusedUnderKvmAndOutsideQemusRange) {
  DomainSpec s = sample_spec(Accel::kKvm);
  s.icount_shift = 0;
  try {
    domain_xml(s);
    FAIL() << "icount under KVM was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("icount_shift"), std::string::npos) << e.what();
  }
  s = sample_spec(Accel::kTcg);
  s.icount_shift = 10;
  EXPECT_NO_THROW(domain_xml(s));
  s.icount_shift = 11;
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
}

TEST(DomainXml, AgentChannelThroughLibvirtHasNoPathAndValidates) {
  DomainSpec s = sample_spec(Accel::kTcg);
  s.agent_socket.clear();
  s.agent_via_libvirt = true;
  const std::string xml = domain_xml(s);
  EXPECT_NE(xml.find("<channel type='unix'>\n      <source mode='bind'/>\n"
                     "      <target type='virtio' name='org.rlab.agent.0'/>"),
            std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("agent.sock"), std::string::npos);
  auto r = validate(xml);
  EXPECT_TRUE(r.ok()) << r.output;
  // The local default keeps rlab's own path.
  EXPECT_NE(domain_xml(sample_spec(Accel::kTcg)).find("<source mode='bind' path='/var/lib/rlab/run/c0/agent.sock'/>"),
            std::string::npos);
}

TEST(DomainXml, AgentSocketAndLibvirtChannelAreExclusive) {
  DomainSpec s = sample_spec(Accel::kTcg);
  s.agent_via_libvirt = true;  // agent_socket still set
  try {
    domain_xml(s);
    FAIL() << "a path with agent_via_libvirt was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("agent_socket '/var/lib/rlab/run/c0/agent.sock' is set"),
              std::string::npos)
        << e.what();
  }
  s = sample_spec(Accel::kTcg);
  s.agent_socket.clear();  // the socket link needs its path
  try {
    domain_xml(s);
    FAIL() << "no agent socket and no libvirt channel was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("agent_socket is empty"), std::string::npos) << e.what();
  }
}

TEST(DomainXml, AConsoleSocketMakesTheSerialAUnixClientWithoutLibvirtsLog) {
  auto s = sample_spec(Accel::kTcg);
  s.console_socket = "/var/lib/rlab/run/c0/console.sock";
  const auto xml = domain_xml(s);
  EXPECT_NE(xml.find("<serial type='unix'>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<source mode='connect' path='/var/lib/rlab/run/c0/console.sock'/>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("<log "), std::string::npos) << "rlab writes console_log itself: " << xml;
  EXPECT_EQ(xml.find("<console"), std::string::npos) << xml;
  const auto v = validate(xml);
  EXPECT_TRUE(v.ok()) << v.output;
  s.console_socket = "console.sock";
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
  s.console_socket = "/" + std::string(120, 's');
  EXPECT_THROW(domain_xml(s), std::invalid_argument);
}
