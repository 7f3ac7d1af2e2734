#pragma once
// Test support: the small matrix of the tests on the emulated arm64 KVM host (docs/kvm-host.md).
#include "real_lab.hpp"

namespace rlab::testing {

/// SmallMatrix's defaults with the guest and host of matrices/kvm-host.yaml: `accel: kvm`,
/// `cpu: host`, real time, 512 MiB, a 1 GiB disk, 64 KiB host pages, vCPUs and emulator
/// threads pinned, one 10 s pass; the host named by ${RLAB_KVM_HOST_URI} (budget 2 vCPUs,
/// files as volumes, a 300 s hello timeout and one retry: its nested guests boot slowly).
inline SmallMatrix kvm_host_matrix() {
  SmallMatrix m;
  m.duration_s = 10;
  m.guest = "{memory_mib: 512, cpu: host, accel: kvm, clock: realtime, disk_gib: 1, host_page_size: 64k, "
            "pinning: {vcpus: auto, emulator: vcpus}}";
  m.hosts = {{"${RLAB_KVM_HOST_URI}", 2, ""}};
  m.remote_files = "volumes";
  m.hello_timeout_s = 300;
  m.hello_retries = 1;
  return m;
}

}  // namespace rlab::testing
