#include "run/lab_host.hpp"

#include "run/host_fit.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace rlab::run {

std::string LabHost::cell_refusal(const matrix::Cell& cell) const {
  if (!files_error.empty()) return files_error;
  if (!guest) return refusal;
  return run::cell_refusal(cell, *guest, caps);
}

LabHost open_lab_host(const matrix::Host& h, const matrix::Guest& guest) {
  LabHost out;
  out.config = h;
  out.conn = std::make_unique<vm::Connection>(h.uri);
  out.running = std::make_unique<RunningGuests>(h.vcpu_budget);
  out.caps = vm::read_host_caps(*out.conn);
  const GuestFit fit = fit_guest(guest, out.caps);
  if (fit.accel) {
    out.guest = guest_settings(guest, *fit.accel);
    out.guest->timeouts.hello_s = h.hello_timeout_s;
    out.guest->timeouts.hello_retries = h.hello_retries;
    out.guest->timeouts.quiet_s = out.guest->timeouts.probe_s = h.liveness_timeout_s;
  } else out.refusal = fit.refusal;
  try {
    out.files = boot_files(h, *out.conn);
  } catch (const vm::LibvirtError& e) {
    out.files_error = e.what();
  }
  spdlog::info("host {}: {}; files: {}", h.uri, vm::describe(out.caps),
               out.files ? out.files->describe() : out.files_error);
  return out;
}

void refuse_unrunnable(const std::vector<matrix::Cell>& cells, const std::vector<const LabHost*>& hosts,
                       const std::vector<UnreachableHost>& unreachable) {
  std::string config;
  for (const auto* h : hosts)
    if (!h->files_error.empty()) config += fmt::format("\n  {}", h->files_error);
  if (!config.empty())
    throw UsageError("the matrix's hosts cannot take boot files (nothing booted; fix the pool or "
                     "hosts[].pool/files):" + config);
  std::string msg;
  std::size_t bad = 0;
  for (const auto& c : cells) {
    std::string why;
    bool ok = false;
    for (const auto& h : hosts) {
      const std::string r = h->cell_refusal(c);
      if (r.empty()) {
        ok = true;
        break;
      }
      why += fmt::format("\n    {}: {}", h->uri(), r);
    }
    if (ok) continue;
    for (const auto& u : unreachable) why += fmt::format("\n    {}: unreachable ({})", u.uri, u.reason);
    if (++bad <= 20) msg += fmt::format("\n  cell {}: no host can run it:{}", c.id, why);
  }
  if (!bad) return;
  if (bad > 20) msg += fmt::format("\n  ... and {} more cells", bad - 20);
  throw UsageError(fmt::format("{} of {} cells can run on none of the matrix's hosts (nothing booted; "
                               "`rlab run --dry-run` shows each host's capabilities):{}",
                               bad, cells.size(), msg));
}

std::vector<std::pair<std::string, std::string>> same_machines(const std::vector<const LabHost*>& hosts) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t j = 0; j < hosts.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (!hosts[j]->caps.uuid.empty() && hosts[i]->caps.uuid == hosts[j]->caps.uuid)
        out.emplace_back(hosts[i]->uri(), hosts[j]->uri());
  return out;
}

std::optional<std::size_t> first_fitting_host(const std::vector<const LabHost*>& hosts,
                                              const std::vector<matrix::Cell>& cells) {
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    bool fits = hosts[i]->files_error.empty();
    for (const auto& c : cells) fits = fits && hosts[i]->cell_refusal(c).empty();
    if (fits) return i;
  }
  return std::nullopt;
}

}  // namespace rlab::run
