#pragma once
// The host side of each sample the agent streams: read when the sample arrives, differenced
// against the previous sample of the same pass (docs/methodology.md "Host facts per sample").
#include "host/host_load.hpp"
#include "store/store.hpp"
#include "vm/libvirt.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace rlab::host {

/// Where a SampleHostMeter reads the host. A reader left empty (or answering nullopt) leaves
/// its facts NULL.
struct HostReaders {
  std::function<std::optional<HostSnapshot>()> host;         ///< the host's CPU time (its libvirt)
  std::function<std::optional<HostFrequency>()> frequency;   ///< CPU MHz (local host only)
  std::function<std::optional<std::uint64_t>()> vcpu_ns;     ///< the guest's summed vCPU time, ns
  std::function<std::chrono::steady_clock::time_point()> now;  ///< default: steady_clock::now
};

/// Fills the host facts of a boot's samples in the order they arrive (one meter per boot; not
/// thread-safe). Each sample's busy, steal and vCPU share cover the host seconds since the
/// previous sample of the same pass; the first sample of a pass has none (its interval began
/// inside the guest, after the pause and cache drop the host cannot see), only the frequency.
/// Neither has a sample that arrives less than kMinIntervalS after the previous one (the link
/// delivered two at once): the next sample's interval covers both.
class SampleHostMeter {
 public:
  /// Host seconds below which an interval is not measured.
  static constexpr double kMinIntervalS = 0.2;

  /// A meter for a guest of `vcpus` vCPUs reading through `readers`.
  SampleHostMeter(unsigned vcpus, HostReaders readers);

  /// The real readers for domain `domain` on `conn`'s host: the host's CPU time and the
  /// guest's vCPU time from its libvirt (on a connection of the meter's own to conn's URI;
  /// `conn` itself when that cannot be opened), and the frequency from this machine's sysfs
  /// when the URI is local (local_host_uri).
  static SampleHostMeter for_domain(vm::Connection& conn, const std::string& domain, unsigned vcpus);

  /// Reads the host now and sets `s`'s host_s, host_busy, host_steal, host_mhz and
  /// vcpu_share (each nullopt where it cannot be known). Never throws.
  void fill(store::Sample& s);

 private:
  struct Reading {
    unsigned pass = 0;
    std::chrono::steady_clock::time_point at;
    std::optional<HostSnapshot> host;
    std::optional<std::uint64_t> vcpu_ns;
  };
  unsigned vcpus_;
  HostReaders r_;
  std::optional<Reading> last_;
};

}  // namespace rlab::host
