#include "metrics/noise_families.hpp"

#include <prometheus/gauge.h>
#include <sqlite3.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace rlab::metrics {
namespace {

struct Db {
  sqlite3* db = nullptr;
  ~Db() { sqlite3_close_v2(db); }
};
struct Stmt {
  sqlite3_stmt* st = nullptr;
  ~Stmt() { sqlite3_finalize(st); }
};

constexpr const char* kQuery =
    "SELECT c.kernel, c.fs, c.mkfs_label, c.vcpus, c.workload, n.boot_rel_stddev,"
    " n.pass_rel_stddev, n.mde_4, n.mde_8, n.mde_16, n.drift_per_hour, n.load_correlation,"
    " (julianday(n.created_at) - 2440587.5) * 86400.0,"
    // From the report's JSON, not the version-3 columns: a store is read without migrating it.
    " json_extract(n.report_json, '$.figures.mean_vcpu_share'),"
    " json_extract(n.report_json, '$.figures.vcpu_share_correlation'),"
    " json_extract(n.report_json, '$.figures.mean_host_steal'),"
    " json_extract(n.report_json, '$.figures.host_steal_correlation')"
    " FROM noise_reports n JOIN cells c ON c.run_id = n.run_id AND c.cell_key = n.cell_key"
    " WHERE n.id = (SELECT n2.id FROM noise_reports n2 WHERE n2.cell_key = n.cell_key"
    "               ORDER BY n2.created_at DESC, n2.id DESC LIMIT 1)";

}  // namespace

void add_noise_families(prometheus::Registry& reg, const std::filesystem::path& path) {
  auto& sd = prometheus::BuildGauge().Name("rlab_cell_noise_rel_stddev")
      .Help("Relative stddev of the cell's score between boots or between passes of a boot "
            "(newest rlab noise report; fraction)").Register(reg);
  auto& mde = prometheus::BuildGauge().Name("rlab_cell_noise_min_detectable_effect")
      .Help("Smallest relative change a two-sided comparison with this many boots a side "
            "detects at alpha 0.01 with power 0.9 (fraction)").Register(reg);
  auto& drift = prometheus::BuildGauge().Name("rlab_cell_noise_drift_per_hour")
      .Help("Least-squares slope of the cell's score over the noise run (fraction per hour)").Register(reg);
  auto& corr = prometheus::BuildGauge().Name("rlab_cell_noise_load_correlation")
      .Help("Pearson r of the cell's score and the host's busy CPU share over each boot").Register(reg);
  auto& vshare = prometheus::BuildGauge().Name("rlab_cell_noise_vcpu_share")
      .Help("Mean share of its vCPUs' time the host ran the guest over the counted passes "
            "(fraction; 1 - the guest's steal)").Register(reg);
  auto& vcorr = prometheus::BuildGauge().Name("rlab_cell_noise_vcpu_share_correlation")
      .Help("Pearson r of the counted passes' lpm and their vCPU share").Register(reg);
  auto& steal = prometheus::BuildGauge().Name("rlab_cell_noise_host_steal")
      .Help("Mean stolen share of the host's own CPU time over the counted passes: what the "
            "host's hypervisor gave its other guests (fraction)").Register(reg);
  auto& scorr = prometheus::BuildGauge().Name("rlab_cell_noise_host_steal_correlation")
      .Help("Pearson r of the counted passes' lpm and the host's steal over them").Register(reg);
  auto& ts = prometheus::BuildGauge().Name("rlab_cell_noise_report_timestamp_seconds")
      .Help("When the newest noise report of the cell was made (Unix time)").Register(reg);

  Db d;
  if (sqlite3_open_v2(path.c_str(), &d.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK)
    throw std::runtime_error(path.string() + ": cannot open: " + (d.db ? sqlite3_errmsg(d.db) : "out of memory"));
  sqlite3_busy_timeout(d.db, 10000);
  Stmt s;
  if (sqlite3_prepare_v2(d.db, kQuery, -1, &s.st, nullptr) != SQLITE_OK) {
    const std::string msg = sqlite3_errmsg(d.db);
    if (msg.find("no such table") != std::string::npos) return;  // a store from before noise reports
    throw std::runtime_error(path.string() + ": reading noise reports: " + msg);
  }
  auto text = [&](int col) {
    auto* t = sqlite3_column_text(s.st, col);
    return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
  };
  auto set = [&](prometheus::Family<prometheus::Gauge>& fam, prometheus::Labels labels, int col) {
    if (sqlite3_column_type(s.st, col) != SQLITE_NULL)
      fam.Add(labels).Set(sqlite3_column_double(s.st, col));
  };
  int rc;
  while ((rc = sqlite3_step(s.st)) == SQLITE_ROW) {
    const prometheus::Labels cell{{"kernel", text(0)}, {"fs", text(1)}, {"mkfs", text(2)},
                                  {"vcpus", text(3)}, {"workload", text(4)}};
    auto with = [&](const char* k, const char* v) {
      auto l = cell;
      l[k] = v;
      return l;
    };
    set(sd, with("between", "boots"), 5);
    set(sd, with("between", "passes"), 6);
    set(mde, with("boots_per_side", "4"), 7);
    set(mde, with("boots_per_side", "8"), 8);
    set(mde, with("boots_per_side", "16"), 9);
    set(drift, cell, 10);
    set(corr, cell, 11);
    set(ts, cell, 12);
    set(vshare, cell, 13);
    set(vcorr, cell, 14);
    set(steal, cell, 15);
    set(scorr, cell, 16);
  }
  if (rc != SQLITE_DONE) throw std::runtime_error(path.string() + ": reading noise reports: " + sqlite3_errmsg(d.db));
}

}  // namespace rlab::metrics
