#include "matrix/pinning.hpp"

#include <algorithm>

namespace rlab::matrix::detail {

void parse_pinning(const Checker& ck, const YAML::Node& g, Guest& guest) {
  const YAML::Node p = g["pinning"];
  if (!p) return;
  ck.check_map(p, "guest.pinning", {"vcpus", "emulator", "host_cpus", "allow_oversubscription"});
  Pinning& out = guest.pinning;
  if (const YAML::Node v = p["vcpus"]) {
    const std::string s = ck.string(v, "guest.pinning.vcpus");
    if (s == "auto") out.vcpus = true;
    else if (s == "none") out.vcpus = false;
    else ck.fail(v, "guest.pinning.vcpus: '" + s + "' is not one of auto, none");
  } else {
    out.vcpus = true;  // a pinning section pins unless told not to
  }
  if (const YAML::Node e = p["emulator"]) {
    const std::string s = ck.string(e, "guest.pinning.emulator");
    if (s == "vcpus") out.emulator = true;
    else if (s == "none") out.emulator = false;
    else ck.fail(e, "guest.pinning.emulator: '" + s + "' is not one of vcpus, none");
  } else {
    out.emulator = out.vcpus;
  }
  if (out.emulator && !out.vcpus)
    ck.fail(p["emulator"], "guest.pinning.emulator: 'vcpus' needs vcpus: auto (the emulator "
                           "threads share the guest's pinned CPUs)");
  if (const YAML::Node h = p["host_cpus"]) {
    ck.check_list(h, "guest.pinning.host_cpus");
    for (std::size_t i = 0; i < h.size(); ++i) {
      auto cpu = static_cast<unsigned>(
          ck.integer(h[i], "guest.pinning.host_cpus[" + std::to_string(i) + "]", 0, 4095));
      if (std::find(out.host_cpus.begin(), out.host_cpus.end(), cpu) != out.host_cpus.end())
        ck.fail(h[i], "guest.pinning.host_cpus: CPU " + std::to_string(cpu) + " appears twice");
      out.host_cpus.push_back(cpu);
    }
  }
  if (const YAML::Node a = p["allow_oversubscription"])
    out.allow_oversubscription = ck.boolean(a, "guest.pinning.allow_oversubscription");
}

}  // namespace rlab::matrix::detail
