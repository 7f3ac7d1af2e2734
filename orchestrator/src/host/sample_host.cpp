#include "host/sample_host.hpp"

#include "host/vcpu_time.hpp"

#include <spdlog/spdlog.h>

#include <memory>

namespace rlab::host {

SampleHostMeter::SampleHostMeter(unsigned vcpus, HostReaders readers)
    : vcpus_(vcpus), r_(std::move(readers)) {
  if (!r_.now) r_.now = [] { return std::chrono::steady_clock::now(); };
}

SampleHostMeter SampleHostMeter::for_domain(vm::Connection& conn, const std::string& domain,
                                            unsigned vcpus) {
  // A connection of the meter's own: on the boot's connection, whose agent channel stream
  // (agent_link: libvirt) shares its socket, a call was seen to stall for a second now and
  // then, which delays the sample and shifts its interval. The boot's is the fallback.
  std::shared_ptr<vm::Connection> own;
  try {
    own = std::make_shared<vm::Connection>(conn.uri());
  } catch (const vm::LibvirtError& e) {
    spdlog::debug("sample host facts through the boot's connection: {}", e.what());
  }
  auto c = own ? own : std::shared_ptr<vm::Connection>(&conn, [](vm::Connection*) {});
  HostReaders r;
  // Busy and steal from the host's libvirt, local or remote; the frequency only from this
  // machine's sysfs (libvirt reports none that is current).
  r.host = [c]() -> std::optional<HostSnapshot> { return read_host(*c); };
  if (local_host_uri(conn.uri())) r.frequency = [] { return read_host_frequency(); };
  r.vcpu_ns = [c, domain] { return vcpu_time_ns(*c, domain); };
  return SampleHostMeter(vcpus, std::move(r));
}

namespace {
/// Calls `read` (if any); a reader that throws loses only its own fact, never the sample.
template <class F>
auto guarded(const F& read) -> decltype(read()) {
  if (!read) return std::nullopt;
  try {
    return read();
  } catch (const std::exception& e) {
    spdlog::debug("sample host facts: {}", e.what());
    return std::nullopt;
  }
}
}  // namespace

void SampleHostMeter::fill(store::Sample& s) {
  Reading now;
  now.pass = s.pass;
  now.host = guarded(r_.host);
  now.vcpu_ns = guarded(r_.vcpu_ns);
  now.at = r_.now();
  if (auto f = guarded(r_.frequency)) s.host_mhz = f->mhz;
  if (last_ && last_->pass == s.pass) {
    const double dt = std::chrono::duration<double>(now.at - last_->at).count();
    // Two samples delivered together: no interval worth a share. The next sample covers both.
    if (dt < kMinIntervalS) return;
    s.host_s = dt;
    if (last_->host && now.host) {
      const store::BootHost h = host_between(*last_->host, *now.host);
      if (now.host->cpu.total > last_->host->cpu.total) {  // some tick passed
        s.host_busy = h.busy_fraction;
        s.host_steal = h.steal_fraction;
      }
    }
    if (last_->vcpu_ns && now.vcpu_ns) s.vcpu_share = vcpu_share(*last_->vcpu_ns, *now.vcpu_ns, vcpus_, dt);
  }
  last_ = std::move(now);
}

}  // namespace rlab::host
