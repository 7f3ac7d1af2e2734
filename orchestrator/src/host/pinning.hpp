#pragma once
// vCPU and emulator-thread pinning (matrix `guest.pinning`, docs/matrix.md "Pinning"): the
// host's CPU topology from libvirt's capabilities, the CPUs a host pins to (refusing
// oversubscription unless the matrix allows it), and a pool handing distinct CPUs to the
// guests running at the same time.
#include "matrix/matrix.hpp"
#include "vm/libvirt.hpp"
#include "util/usage_error.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace rlab::host {

/// One host CPU as libvirt reports it (`<topology><cells><cell id>...<cpu id socket_id
/// core_id>`).
struct HostCpu {
  unsigned id = 0;
  unsigned numa_cell = 0;
  unsigned socket = 0;
  unsigned core = 0;
};

/// The CPUs of a capabilities document in topology order: NUMA cell, socket, core, then id
/// (the hardware threads of a core are adjacent, so a guest's vCPUs fill whole cores and stay
/// in one NUMA node). Throws std::runtime_error when it lists no CPU.
std::vector<HostCpu> parse_topology(const std::string& capabilities_xml);

/// parse_topology() of the host behind `conn` (virConnectGetCapabilities). Throws
/// vm::LibvirtError or std::runtime_error.
std::vector<HostCpu> host_topology(vm::Connection& conn);

/// The host CPUs guests are pinned to on one host: `pinning.host_cpus` (each must be one of
/// the host's) or every CPU in topology order. Throws UsageError naming the host,
/// the figures and the matrix key when a host CPU is unknown, or, unless
/// `pinning.allow_oversubscription`, when the host's vCPU budget or the largest cell's vCPUs
/// exceed those CPUs (pinned guests would share CPUs).
std::vector<unsigned> pinning_cpus(const matrix::Pinning& pinning, const std::vector<HostCpu>& topology,
                                   const std::string& host_uri, unsigned vcpu_budget,
                                   unsigned largest_cell_vcpus);

/// Hands host CPUs to the guests running on one host. acquire(n) returns n CPUs, each the
/// least used at that moment (ties: the earlier in the pool's order), so guests that fit the
/// budget never share a CPU; with oversubscription the sharing is spread evenly. Thread-safe.
class CpuPool {
 public:
  explicit CpuPool(std::vector<unsigned> cpus);
  std::vector<unsigned> acquire(unsigned n);
  void release(const std::vector<unsigned>& cpus);

 private:
  std::mutex mu_;
  std::vector<unsigned> cpus_;
  std::vector<unsigned> use_;
};

/// Libvirt cpuset of `cpus` in the given order, comma-separated ("0,1"); "" for none.
std::string cpuset(const std::vector<unsigned>& cpus);

}  // namespace rlab::host
