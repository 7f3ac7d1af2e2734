// Store: host facts around boots, boot timelines and `rlab noise` reports (docs/store.md).
#include "store/sqlite.hpp"
#include "store/store.hpp"

#include <nlohmann/json.hpp>

namespace rlab::store {

using detail::now_iso;
using detail::Stmt;
using detail::Tx;
using detail::Lock;

void Store::record_boot_host(BootId boot, const BootHost& h) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT OR REPLACE INTO boot_host (boot_id, cpus, load1_before, load1_after,"
          " busy_fraction, steal_fraction, seconds, vcpu_pins, emulator_pin)"
          " VALUES (?,?,?,?,?,?,?,?,?)");
  st.binds(boot, h.cpus, h.load1_before, h.load1_after, h.busy_fraction, h.steal_fraction,
           h.seconds, h.vcpu_pins, h.emulator_pin);
  st.run();
}

void Store::record_boot_platform(BootId boot, const BootPlatform& p) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT OR REPLACE INTO boot_platform (boot_id, domain_type, guest_hypervisor, host_page_kib,"
          " vcpu_cpus, emulator_cpus) VALUES (?,?,?,?,?,?)");
  st.binds(boot, p.domain_type, p.guest_hypervisor, p.host_page_kib, p.vcpu_cpus, p.emulator_cpus);
  st.run();
}

std::vector<BootPlatformRow> Store::boot_platforms(RunId run) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT b.id, c.cell_key, b.repeat, p.domain_type, p.guest_hypervisor, p.host_page_kib,"
          " p.vcpu_cpus, p.emulator_cpus FROM boot_platform p JOIN boots b ON b.id = p.boot_id"
          " JOIN cells c ON c.id = b.cell_id WHERE c.run_id = ? ORDER BY b.id");
  return st.bind(1, run).rows<BootPlatformRow>([](const Stmt& row) {
    BootPlatformRow r;
    BootPlatform& p = r.platform;
    row.columns(0, r.boot_id, r.cell_id, r.repeat, p.domain_type, p.guest_hypervisor,
                p.host_page_kib, p.vcpu_cpus, p.emulator_cpus);
    return r;
  });
}

std::vector<BootTiming> Store::boot_timings(RunId run) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT b.id, c.cell_key, b.repeat, b.order_index, b.status,"
          " (julianday(b.started_at) - 2440587.5) * 86400.0, r.score,"
          " COALESCE(m.warmup_passes, 0),"
          " h.cpus, h.load1_before, h.load1_after, h.busy_fraction, h.steal_fraction,"
          " h.seconds, h.vcpu_pins, h.emulator_pin"
          " FROM boots b JOIN cells c ON c.id = b.cell_id"
          " LEFT JOIN results r ON r.boot_id = b.id"
          " LEFT JOIN cell_methods m ON m.cell_id = c.id"
          " LEFT JOIN boot_host h ON h.boot_id = b.id"
          " WHERE c.run_id = ? ORDER BY b.order_index IS NULL, b.order_index, b.id");
  auto out = st.bind(1, run).rows<BootTiming>([](const Stmt& row) {
    BootTiming t;
    row.columns(0, t.boot_id, t.cell_id, t.repeat);
    t.order_index = row.is_null(3) ? -1 : static_cast<int>(row.i64(3));
    t.status = parse_boot_status(row.text(4));
    row.columns(5, t.started_unix_s);
    if (t.status == BootStatus::done) row.columns(6, t.score);
    row.columns(7, t.warmup_passes);
    if (!row.is_null(8)) {
      BootHost h;
      row.columns(8, h.cpus, h.load1_before, h.load1_after, h.busy_fraction, h.steal_fraction,
                  h.seconds, h.vcpu_pins, h.emulator_pin);
      t.host = h;
    }
    return t;
  });
  for (auto& t : out) {
    // The pass's vCPU share and host steal: its samples' figures weighted by the host
    // seconds they cover.
    Stmt p(db_,
           "SELECT p.lpm, (SELECT SUM(s.vcpu_share * s.host_s) / SUM(s.host_s) FROM samples s"
           "   WHERE s.boot_id = p.boot_id AND s.pass = p.pass AND s.vcpu_share IS NOT NULL"
           "   AND s.host_s > 0),"
           " (SELECT SUM(s.host_steal * s.host_s) / SUM(s.host_s) FROM samples s"
           "   WHERE s.boot_id = p.boot_id AND s.pass = p.pass AND s.host_steal IS NOT NULL"
           "   AND s.host_s > 0)"
           " FROM passes p WHERE p.boot_id = ? ORDER BY p.pass");
    p.bind(1, t.boot_id);
    while (p.step()) {
      t.pass_lpm.push_back(p.real(0));
      t.pass_vcpu_share.push_back(p.opt_real(1));
      t.pass_host_steal.push_back(p.opt_real(2));
    }
  }
  return out;
}

std::int64_t Store::add_noise_report(const NoiseReportRow& r) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT INTO noise_reports (run_id, cell_key, control_key, created_at, boots,"
          " boot_rel_stddev, pass_rel_stddev, drift_per_hour, drift_ci_low, drift_ci_high,"
          " load_correlation, mde_4, mde_8, mde_16, report_json, vcpu_share_mean,"
          " vcpu_share_correlation) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  st.binds(r.run, r.cell_id, r.control_id,
           r.created_at.empty() ? now_iso() : r.created_at, r.boots, r.boot_rel_stddev,
           r.pass_rel_stddev, r.drift_per_hour, r.drift_ci_low, r.drift_ci_high, r.load_correlation,
           r.mde_4, r.mde_8, r.mde_16, r.report_json, r.vcpu_share_mean, r.vcpu_share_correlation);
  st.run();
  return sqlite3_last_insert_rowid(db_);
}

std::vector<NoiseReportRow> Store::noise_reports(const std::string& glob, std::size_t limit) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT id, run_id, cell_key, control_key, created_at, boots, boot_rel_stddev,"
          " pass_rel_stddev, drift_per_hour, drift_ci_low, drift_ci_high, load_correlation,"
          " mde_4, mde_8, mde_16, report_json, vcpu_share_mean, vcpu_share_correlation"
          " FROM noise_reports"
          " WHERE ? = '' OR cell_key GLOB ? ORDER BY created_at DESC, id DESC LIMIT ?");
  st.bind(1, glob).bind(2, glob).bind(3, static_cast<std::int64_t>(limit));
  std::vector<NoiseReportRow> out;
  while (st.step()) {
    NoiseReportRow r;
    st.columns(0, r.id, r.run, r.cell_id, r.control_id, r.created_at, r.boots, r.boot_rel_stddev,
               r.pass_rel_stddev, r.drift_per_hour, r.drift_ci_low, r.drift_ci_high,
               r.load_correlation, r.mde_4, r.mde_8, r.mde_16, r.report_json, r.vcpu_share_mean,
               r.vcpu_share_correlation);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace rlab::store
