// Host capabilities as the host's libvirt reports them: this x86_64 machine's own answers
// (recorded in data/), a 64K-page arm64 KVM server and an Apple host (shortened by hand).
#include "vm/host_caps.hpp"
#include "vm/xml.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace rlab::vm;

namespace {
std::string data(const std::string& name) {
  return rlab::util::read_file(fs::path(RLAB_SOURCE_DIR) / "orchestrator/tests/vm/data" / name);
}
}  // namespace

TEST(HostCaps, AnX86HostOffersTcgOnlyWithTheVirtMachinesLimit) {
  HostCaps c = parse_capabilities("qemu:///system", data("caps-x86_64-tcg.xml"));
  EXPECT_EQ(c.arch, "x86_64");
  EXPECT_FALSE(c.cpu_vendor.empty());
  ASSERT_TRUE(c.tcg.has_value()) << "qemu-system-aarch64 is installed here";
  EXPECT_FALSE(c.kvm.has_value()) << "no KVM for aarch64 guests on an x86 host";
  EXPECT_EQ(c.tcg->emulator, "/usr/bin/qemu-system-aarch64");
  EXPECT_NE(std::find(c.page_kib.begin(), c.page_kib.end(), 4u), c.page_kib.end());
  EXPECT_EQ(c.granule_64k, Granule64k::kUnknown) << "an x86 host says nothing about arm64 granules";

  const AccelCaps a = parse_domain_caps("tcg", data("domcaps-aarch64-tcg.xml"));
  EXPECT_EQ(a.max_vcpus, 512u);
  EXPECT_TRUE(a.maximum) << "TCG offers -cpu max";
  EXPECT_FALSE(a.host_passthrough);
  EXPECT_TRUE(std::binary_search(a.cpu_models.begin(), a.cpu_models.end(), "cortex-a57"));
  EXPECT_EQ(a.machine.rfind("virt", 0), 0u);
  EXPECT_EQ(a.gic_versions, (std::vector<unsigned>{2, 3})) << "this machine's libvirt lists GICv2 and v3";
}

// The emulated arm64 KVM host's own XML (virsh capabilities and domcapabilities, unedited):
// what a 64K-page Debian arm64 server with KVM answers.
TEST(HostCaps, A64kArmServerOffersKvmWithThe64kGranule) {
  HostCaps c = parse_capabilities("qemu+ssh://arm-01/system", data("caps-aarch64-emulated-kvm-host.xml"));
  EXPECT_EQ(c.arch, "aarch64");
  EXPECT_EQ(c.uuid, "c0b66e8b-53cf-446d-a6bf-da3944838252");
  EXPECT_EQ(c.cpu_model, "") << "QEMU's emulated CPU has no model name libvirt knows";
  EXPECT_EQ(c.page_kib, std::vector<unsigned>{64}) << "the host runs 64K pages itself";
  EXPECT_TRUE(c.kvm.has_value());
  EXPECT_TRUE(c.tcg.has_value());
  EXPECT_EQ(c.granule_64k, Granule64k::kYes);
  const AccelCaps k = parse_domain_caps("kvm", data("domcaps-aarch64-emulated-kvm-host.xml"));
  EXPECT_EQ(k.max_vcpus, 512u);
  EXPECT_EQ(k.machine, "virt-7.2");
  EXPECT_TRUE(k.host_passthrough);
  EXPECT_FALSE(k.cpu_models.empty()) << "bookworm's libvirt lists QEMU's arm CPU models for custom mode";
}

TEST(HostCaps, AnAppleHostLacksThe64kGranule) {
  const HostCaps c = parse_capabilities("qemu:///system", data("caps-aarch64-apple.xml"));
  EXPECT_EQ(c.granule_64k, Granule64k::kNo);
  EXPECT_STREQ(to_string(c.granule_64k), "no");
}

TEST(HostCaps, BadXmlIsAnErrorNamingTheHost) {
  try {
    parse_capabilities("qemu+tcp://h/system", "<capabilities><host>");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("qemu+tcp://h/system"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not well-formed"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_capabilities("u", "<capabilities/>"), std::runtime_error) << "no host arch";
  EXPECT_THROW(parse_domain_caps("d", "<domainCapabilities><vcpu/></domainCapabilities>"), std::runtime_error);
}

TEST(HostCaps, DescribeSaysWhatRuns) {
  HostCaps c = parse_capabilities("x", data("caps-aarch64-emulated-kvm-host.xml"));
  c.kvm = parse_domain_caps("kvm", data("domcaps-aarch64-emulated-kvm-host.xml"));
  c.tcg = parse_domain_caps("tcg", data("domcaps-aarch64-tcg.xml"));
  c.cpus = 80;
  c.memory_kib = 256ull << 20;
  EXPECT_EQ(describe(c), "aarch64 host, 80 CPUs, 256 GiB; KVM up to 512 vCPUs, 64K granule yes; "
                         "TCG up to 512 vCPUs");
  c.cpu_model = "Neoverse-N1";
  EXPECT_EQ(describe(c).rfind("aarch64 host (Neoverse-N1), 80 CPUs", 0), 0u) << describe(c);
  c.kvm.reset();
  c.tcg.reset();
  EXPECT_NE(describe(c).find("no QEMU for aarch64 guests"), std::string::npos);
}

TEST(XmlDoc, TextsNumbersAndBadExpressions) {
  const XmlDoc d("<a><b n='3'>x</b><b n='4'>y</b></a>", "test");
  EXPECT_EQ(d.text("/a/b"), "x");
  EXPECT_EQ(d.texts("/a/b/@n"), (std::vector<std::string>{"3", "4"}));
  EXPECT_EQ(d.number("string(/a/b[2]/@n)"), 4u);
  EXPECT_FALSE(d.number("string(/a/b)").has_value());
  EXPECT_EQ(d.text("/a/c"), "");
  EXPECT_THROW(d.text("/a/["), std::invalid_argument);
}
