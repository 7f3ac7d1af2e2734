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
  EXPECT_NE(xml.find("a=&apos;&lt;&amp;&gt;&apos;"), std::string::npos);
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
