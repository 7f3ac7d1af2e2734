// Which cells a host can run, from its capabilities: accel per host, vCPU limits, the 64K
// granule under KVM, memory and CPU models; and the refusal of a matrix none of whose hosts
// can run a cell.
#include "run/host_fit.hpp"
#include "run/lab_host.hpp"
#include "util/usage_error.hpp"

#include <gtest/gtest.h>

using namespace rlab;

namespace {

vm::AccelCaps accel(unsigned max_vcpus, bool kvm) {
  vm::AccelCaps a;
  a.emulator = "/usr/bin/qemu-system-aarch64";
  a.machine = "virt-7.2";
  a.max_vcpus = max_vcpus;
  a.maximum = true;
  a.host_passthrough = kvm;
  if (!kvm) a.cpu_models = {"cortex-a57", "cortex-a72", "neoverse-n1"};
  return a;
}

vm::HostCaps x86_tcg() {
  vm::HostCaps c;
  c.uri = "qemu:///system";
  c.arch = "x86_64";
  c.tcg = accel(512, false);
  c.memory_kib = 24ull << 20;
  c.cpus = 2;
  return c;
}

vm::HostCaps arm_kvm(vm::Granule64k g, unsigned kvm_max = 512) {
  vm::HostCaps c;
  c.uri = "qemu+ssh://arm-01/system";
  c.arch = "aarch64";
  c.cpu_vendor = "Apple";
  c.tcg = accel(512, false);
  c.kvm = accel(kvm_max, true);
  c.granule_64k = g;
  c.memory_kib = 256ull << 20;
  c.cpus = 80;
  return c;
}

matrix::Cell cell(unsigned vcpus, unsigned page = 65536) {
  matrix::Cell c;
  c.id = "6.12-xfs-v" + std::to_string(vcpus);
  c.vcpus = vcpus;
  c.page_size = page;
  return c;
}

/// The settings a host gives `g`, as open_lab_host resolves them.
run::GuestSettings settings(const matrix::Guest& g, const vm::HostCaps& caps) {
  const auto fit = run::fit_guest(g, caps);
  EXPECT_TRUE(fit.accel.has_value()) << fit.refusal;
  return run::guest_settings(g, fit.accel.value_or(matrix::Accel::kTcg));
}

}  // namespace

TEST(HostFit, AutoIsKvmWhereTheHostHasItAndTcgElsewhere) {
  matrix::Guest g;
  EXPECT_EQ(run::fit_guest(g, x86_tcg()).accel, matrix::Accel::kTcg);
  EXPECT_EQ(run::fit_guest(g, arm_kvm(vm::Granule64k::kYes)).accel, matrix::Accel::kKvm);
  EXPECT_EQ(settings(g, arm_kvm(vm::Granule64k::kYes)).cpu_model, "host");
  EXPECT_EQ(settings(g, x86_tcg()).cpu_model, "max");
}

TEST(HostFit, AnAcceleratorTheHostLacksIsRefusedWithWhy) {
  matrix::Guest g;
  g.accel = matrix::Accel::kKvm;
  const auto f = run::fit_guest(g, x86_tcg());
  EXPECT_FALSE(f.accel.has_value());
  EXPECT_NE(f.refusal.find("no KVM for aarch64 guests (an x86_64 host)"), std::string::npos) << f.refusal;
  vm::HostCaps bare = x86_tcg();
  bare.tcg.reset();
  g.accel = matrix::Accel::kAuto;
  EXPECT_NE(run::fit_guest(g, bare).refusal.find("no QEMU for aarch64"), std::string::npos);
}

TEST(HostFit, DeterministicModeOnAKvmHostNeedsAccelTcg) {
  matrix::Guest g;
  g.clock = matrix::GuestClock::kIcount;
  const auto f = run::fit_guest(g, arm_kvm(vm::Granule64k::kYes));
  EXPECT_FALSE(f.accel.has_value());
  EXPECT_NE(f.refusal.find("set 'accel: tcg'"), std::string::npos) << f.refusal;
  g.accel = matrix::Accel::kTcg;
  EXPECT_EQ(run::fit_guest(g, arm_kvm(vm::Granule64k::kYes)).accel, matrix::Accel::kTcg);
}

TEST(HostFit, CellsBeyondTheHostsLimitsAreRefused) {
  matrix::Guest g;
  const auto kvm = arm_kvm(vm::Granule64k::kNo, 128);
  const auto s = settings(g, kvm);
  EXPECT_EQ(run::cell_refusal(cell(64, 4096), s, kvm), "");
  EXPECT_EQ(run::cell_refusal(cell(144, 4096), s, kvm), "144 vCPUs, but KVM on machine virt-7.2 allows at most 128");
  EXPECT_NE(run::cell_refusal(cell(2), s, kvm).find("lacks the 64K granule"), std::string::npos);
  // TCG emulates the granule whatever the host CPU.
  matrix::Guest tcg = g;
  tcg.accel = matrix::Accel::kTcg;
  EXPECT_EQ(run::cell_refusal(cell(2), settings(tcg, kvm), kvm), "");
  // Memory: the RAM disk counts.
  matrix::Guest big = g;
  big.memory_mib = 300 * 1024;
  EXPECT_NE(run::cell_refusal(cell(2, 4096), settings(big, kvm), kvm).find("but the host has 262144 MiB"),
            std::string::npos);
}

TEST(HostFit, CpuModelsMustBeOfferedByTheHostsQemu) {
  matrix::Guest g;
  g.accel = matrix::Accel::kTcg;
  g.cpu_model = "neoverse-n1";
  EXPECT_EQ(run::cell_refusal(cell(1), settings(g, x86_tcg()), x86_tcg()), "");
  g.cpu_model = "cortex-x9000";
  EXPECT_NE(run::cell_refusal(cell(1), settings(g, x86_tcg()), x86_tcg())
                .find("'cortex-x9000', which the host's QEMU (/usr/bin/qemu-system-aarch64) does not offer (it has max, cortex-a57, cortex-a72, neoverse-n1)"),
            std::string::npos);
  g.cpu_model = "host";
  EXPECT_NE(run::cell_refusal(cell(1), settings(g, x86_tcg()), x86_tcg()).find("TCG's is 'max'"), std::string::npos);
  matrix::Guest k;
  k.accel = matrix::Accel::kKvm;
  k.cpu_model = "cortex-a72";
  const auto kvm = arm_kvm(vm::Granule64k::kYes);
  EXPECT_NE(run::cell_refusal(cell(1), settings(k, kvm), kvm).find("under KVM (only 'host' is)"), std::string::npos);
}

TEST(HostFit, AMatrixNoHostCanRunIsRefusedNamingCellAndHosts) {
  matrix::Guest g;
  std::vector<run::LabHost> hosts(2);
  hosts[0].config.uri = "qemu:///system";
  hosts[0].caps = x86_tcg();
  hosts[0].guest = settings(g, hosts[0].caps);
  hosts[1].config.uri = "qemu+ssh://arm-01/system";
  hosts[1].caps = arm_kvm(vm::Granule64k::kYes, 64);
  hosts[1].guest = settings(g, hosts[1].caps);
  const std::vector<const run::LabHost*> both{&hosts[0], &hosts[1]};
  // 8 vCPUs: both can; 144: only the x86 host under TCG (512); 600: neither.
  EXPECT_NO_THROW(run::refuse_unrunnable({cell(8), cell(144)}, both, {}));
  try {
    run::refuse_unrunnable({cell(8), cell(600)}, both, {{"qemu+tcp://arm-02/system", "connection refused"}});
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("1 of 2 cells"), std::string::npos) << m;
    EXPECT_NE(m.find("cell 6.12-xfs-v600: no host can run it"), std::string::npos) << m;
    EXPECT_NE(m.find("qemu:///system: 600 vCPUs, but TCG on machine virt-7.2 allows at most 512"), std::string::npos) << m;
    EXPECT_NE(m.find("qemu+ssh://arm-01/system: 600 vCPUs, but KVM"), std::string::npos) << m;
    EXPECT_NE(m.find("qemu+tcp://arm-02/system: unreachable (connection refused)"), std::string::npos) << m;
    EXPECT_EQ(m.find("v8:"), std::string::npos) << "a runnable cell is not listed: " << m;
  }
  // A host whose guest cannot run at all refuses every cell with its reason.
  hosts[1].guest.reset();
  hosts[1].refusal = "accel kvm: no KVM";
  EXPECT_EQ(hosts[1].cell_refusal(cell(1)), "accel kvm: no KVM");
}

TEST(HostFit, OneHostRunsABisectionOrNoiseTheFirstThatCanRunEveryCell) {
  matrix::Guest g;
  g.accel = matrix::Accel::kKvm;
  std::vector<run::LabHost> hosts(3);
  hosts[0].config.uri = "qemu:///system";  // x86 TCG first in the matrix: no KVM
  hosts[0].caps = x86_tcg();
  const auto fit = run::fit_guest(g, hosts[0].caps);
  ASSERT_FALSE(fit.accel.has_value());
  hosts[0].refusal = fit.refusal;
  hosts[1].config.uri = "qemu+ssh://arm-01/system";  // KVM, but its pool is unusable
  hosts[1].caps = arm_kvm(vm::Granule64k::kYes);
  hosts[1].guest = settings(g, hosts[1].caps);
  hosts[1].files_error = "qemu+ssh://arm-01/system: pool rlab is not active";
  hosts[2].config.uri = "qemu+ssh://arm-02/system";
  hosts[2].caps = arm_kvm(vm::Granule64k::kYes, 64);
  hosts[2].guest = settings(g, hosts[2].caps);
  const std::vector<const run::LabHost*> all{&hosts[0], &hosts[1], &hosts[2]};
  EXPECT_EQ(run::first_fitting_host(all, {cell(8)}), 2u) << "TCG host and pool-less host passed over";
  EXPECT_EQ(run::first_fitting_host(all, {cell(8), cell(144)}), std::nullopt) << "arm-02 allows 64 vCPUs";
  hosts[1].files_error.clear();
  EXPECT_EQ(run::first_fitting_host(all, {cell(8), cell(144)}), 1u);
  EXPECT_EQ(run::first_fitting_host({}, {cell(8)}), std::nullopt);
}

TEST(HostFit, AKvmHostWithoutGicV3IsRefusedWithTheVersionsItOffers) {
  matrix::Guest g;
  auto caps = arm_kvm(vm::Granule64k::kYes);
  caps.kvm->gic_versions = {2};
  const auto s = settings(g, caps);
  EXPECT_EQ(run::cell_refusal(cell(8), s, caps), "the guest's GICv3, but KVM there offers GIC version 2 only");
  caps.kvm->gic_versions = {2, 3};
  EXPECT_EQ(run::cell_refusal(cell(8), s, caps), "");
  caps.kvm->gic_versions.clear();  // libvirt did not say: not refused
  EXPECT_EQ(run::cell_refusal(cell(8), s, caps), "");
}

TEST(HostFit, AHostOfAnotherPageSizeThanTheMatrixAsksForIsRefused) {
  matrix::Guest g;
  g.host_page_kib = 64;
  auto host = arm_kvm(vm::Granule64k::kYes);
  host.page_kib = {4, 2048, 1048576};  // a 4K-page arm64 host: its huge pages do not count
  const auto s = settings(g, host);
  EXPECT_EQ(run::cell_refusal(cell(2), s, host),
            "host pages of 4 KiB, but the matrix asks for 64 KiB host pages (guest.host_page_size)");
  host.page_kib = {64, 524288};
  EXPECT_EQ(run::cell_refusal(cell(2), s, host), "");
  // Without the key, any host.
  host.page_kib = {4};
  EXPECT_EQ(run::cell_refusal(cell(2), settings(matrix::Guest{}, host), host), "");
}

namespace rlab {
namespace {

// Two URIs of one machine (e.g. qemu:///system and qemu+ssh://itself/system) report the same
// host UUID; a host without one (some remote drivers) is never paired.
TEST(SameMachines, HostsWithOneUuidArePairedInMatrixOrder) {
  std::vector<run::LabHost> hosts(4);
  const char* uris[] = {"qemu:///system", "qemu+ssh://arm-01/system", "qemu+ssh://self/system", "qemu+ssh://x/system"};
  const char* uuids[] = {"11111111-aaaa", "22222222-bbbb", "11111111-aaaa", ""};
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    hosts[i].config.uri = uris[i];
    hosts[i].caps.uuid = uuids[i];
  }
  const std::vector<const run::LabHost*> all{&hosts[0], &hosts[1], &hosts[2], &hosts[3]};
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(run::same_machines(all), (Pairs{{"qemu:///system", "qemu+ssh://self/system"}}));
  hosts[1].caps.uuid = "";
  hosts[3].caps.uuid = "";
  EXPECT_EQ(run::same_machines({&hosts[1], &hosts[3]}), Pairs{}) << "no UUID, no pair";
}

}  // namespace
}  // namespace rlab
