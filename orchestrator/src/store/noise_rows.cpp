// Store: host facts around boots, boot timelines and `rlab noise` reports (docs/store.md).
#include "store/sqlite.hpp"
#include "store/store.hpp"

#include <nlohmann/json.hpp>

namespace rlab::store {

using detail::now_iso;
using detail::Stmt;
using detail::Tx;
using Lock = std::lock_guard<std::mutex>;

void Store::record_boot_host(BootId boot, const BootHost& h) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT OR REPLACE INTO boot_host (boot_id, cpus, load1_before, load1_after,"
          " busy_fraction, steal_fraction, seconds, vcpu_pins, emulator_pin)"
          " VALUES (?,?,?,?,?,?,?,?,?)");
  st.bind(1, boot).bind(2, static_cast<std::int64_t>(h.cpus)).bind(3, h.load1_before)
      .bind(4, h.load1_after).bind(5, h.busy_fraction).bind(6, h.steal_fraction)
      .bind(7, h.seconds).bind(8, h.vcpu_pins).bind(9, h.emulator_pin);
  st.run();
}

void Store::record_boot_platform(BootId boot, const BootPlatform& p) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT OR REPLACE INTO boot_platform (boot_id, domain_type, guest_hypervisor, host_page_kib,"
          " vcpu_cpus, emulator_cpus) VALUES (?,?,?,?,?,?)");
  st.bind(1, boot).bind(2, p.domain_type).bind(3, p.guest_hypervisor)
      .bind(4, static_cast<std::int64_t>(p.host_page_kib)).bind(5, p.vcpu_cpus).bind(6, p.emulator_cpus);
  st.run();
}

std::vector<BootPlatformRow> Store::boot_platforms(RunId run) const {
  Lock l(mu_);
  std::vector<BootPlatformRow> out;
  Stmt st(db_,
          "SELECT b.id, c.cell_key, b.repeat, p.domain_type, p.guest_hypervisor, p.host_page_kib,"
          " p.vcpu_cpus, p.emulator_cpus FROM boot_platform p JOIN boots b ON b.id = p.boot_id"
          " JOIN cells c ON c.id = b.cell_id WHERE c.run_id = ? ORDER BY b.id");
  st.bind(1, run);
  while (st.step()) {
    BootPlatformRow r;
    r.boot_id = st.i64(0);
    r.cell_id = st.text(1);
    r.repeat = static_cast<unsigned>(st.i64(2));
    r.platform.domain_type = st.text(3);
    r.platform.guest_hypervisor = st.text(4);
    r.platform.host_page_kib = static_cast<unsigned>(st.i64(5));
    r.platform.vcpu_cpus = st.text(6);
    r.platform.emulator_cpus = st.text(7);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<BootTiming> Store::boot_timings(RunId run) const {
  Lock l(mu_);
  std::vector<BootTiming> out;
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
  st.bind(1, run);
  while (st.step()) {
    BootTiming t;
    t.boot_id = st.i64(0);
    t.cell_id = st.text(1);
    t.repeat = static_cast<unsigned>(st.i64(2));
    t.order_index = st.is_null(3) ? -1 : static_cast<int>(st.i64(3));
    t.status = parse_boot_status(st.text(4));
    t.started_unix_s = st.opt_real(5);
    if (t.status == BootStatus::done) t.score = st.opt_real(6);
    t.warmup_passes = static_cast<unsigned>(st.i64(7));
    if (!st.is_null(8)) {
      BootHost h;
      h.cpus = static_cast<unsigned>(st.i64(8));
      h.load1_before = st.real(9);
      h.load1_after = st.real(10);
      h.busy_fraction = st.real(11);
      h.steal_fraction = st.real(12);
      h.seconds = st.real(13);
      h.vcpu_pins = st.text(14);
      h.emulator_pin = st.text(15);
      t.host = h;
    }
    out.push_back(std::move(t));
  }
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
  if (r.run) st.bind(1, *r.run);
  else st.bind_null(1);
  st.bind(2, r.cell_id).bind(3, r.control_id)
      .bind(4, r.created_at.empty() ? now_iso() : r.created_at)
      .bind(5, static_cast<std::int64_t>(r.boots));
  st.bind(6, r.boot_rel_stddev);
  st.bind(7, r.pass_rel_stddev);
  st.bind(8, r.drift_per_hour);
  st.bind(9, r.drift_ci_low);
  st.bind(10, r.drift_ci_high);
  st.bind(11, r.load_correlation);
  st.bind(12, r.mde_4);
  st.bind(13, r.mde_8);
  st.bind(14, r.mde_16);
  st.bind(15, r.report_json);
  st.bind(16, r.vcpu_share_mean);
  st.bind(17, r.vcpu_share_correlation);
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
    r.id = st.i64(0);
    if (!st.is_null(1)) r.run = st.i64(1);
    r.cell_id = st.text(2);
    r.control_id = st.text(3);
    r.created_at = st.text(4);
    r.boots = static_cast<unsigned>(st.i64(5));
    r.boot_rel_stddev = st.opt_real(6);
    r.pass_rel_stddev = st.opt_real(7);
    r.drift_per_hour = st.opt_real(8);
    r.drift_ci_low = st.opt_real(9);
    r.drift_ci_high = st.opt_real(10);
    r.load_correlation = st.opt_real(11);
    r.mde_4 = st.opt_real(12);
    r.mde_8 = st.opt_real(13);
    r.mde_16 = st.opt_real(14);
    r.report_json = st.text(15);
    r.vcpu_share_mean = st.opt_real(16);
    r.vcpu_share_correlation = st.opt_real(17);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace rlab::store
