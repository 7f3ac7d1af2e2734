// Store: the rows metrics export (metrics_rows.hpp).
#include "store/metrics_rows.hpp"

#include "store/sqlite.hpp"

namespace rlab::store {
namespace {

using detail::Stmt;

// Columns of a series' labels: kernel, patchset, page_size, fs, mkfs_label, vcpus, copies,
// workload, host_uri, runs.hostname.
constexpr const char* kLabelCols =
    "c.kernel, c.patchset, c.page_size, c.fs, c.mkfs_label, c.vcpus, c.copies, c.workload,"
    " COALESCE(b.host_uri, ''), r.hostname";

CellLabelRow labels_at(const Stmt& q, int c) {
  return {q.text(c),     q.text(c + 1), static_cast<unsigned>(q.i64(c + 2)),
          q.text(c + 3), q.text(c + 4), static_cast<unsigned>(q.i64(c + 5)),
          static_cast<unsigned>(q.i64(c + 6)), q.text(c + 7), q.text(c + 8), q.text(c + 9)};
}

// Cell keys of a run (or of all runs): totals and outcomes are limited to them.
constexpr const char* kScopeSql =
    "(?1 IS NULL OR c.cell_key IN (SELECT cell_key FROM cells WHERE run_id = ?1))";

/// The AG header wait and held totals of a boot's passes (AttributionTotals::ag_header_ns).
std::map<std::string, double> ag_header_totals(sqlite3* db, BootId boot) {
  Stmt q(db, R"SQL(SELECT je.key, SUM(je.value)
FROM passes p, json_each(p.attribution_json, '$.totals') AS je
WHERE p.boot_id = ?1 AND p.attribution_json IS NOT NULL AND json_valid(p.attribution_json)
  AND substr(je.key, 1, 9) = 'agheader.'
  AND (substr(je.key, -8) = '.wait_ns' OR substr(je.key, -8) = '.held_ns')
GROUP BY je.key)SQL");
  q.bind(1, boot);
  std::map<std::string, double> out;
  while (q.step()) out[q.text(0)] = q.real(1);
  return out;
}

std::vector<LatestResult> latest_results(sqlite3* db, std::optional<RunId> run) {
  static const std::string kLatestSql = std::string(R"SQL(
WITH done AS (
  SELECT b.id AS boot_id, c.cell_key AS cell_key, res.recorded_at AS recorded_at,
         )SQL") + kLabelCols + R"SQL(,
         res.score, (julianday(res.recorded_at) - 2440587.5) * 86400.0,
         COALESCE(k.source_commit, ''), COALESCE(k.kernel_release, b.guest_kernel_release, ''),
         c.workload_kind
  FROM results res
  JOIN boots b ON b.id = res.boot_id
  JOIN cells c ON c.id = b.cell_id
  JOIN runs r ON r.id = c.run_id
  LEFT JOIN kernels k ON k.kernel_key = b.kernel_key
  WHERE b.status = 'done' AND (?1 IS NULL OR c.run_id = ?1)),
ranked AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY cell_key
                                        ORDER BY recorded_at DESC, boot_id DESC) AS rn
           FROM done)
SELECT * FROM ranked WHERE rn = 1 ORDER BY cell_key
)SQL";
  std::vector<LatestResult> out;
  Stmt q(db, kLatestSql.c_str());
  q.bind(1, run);
  while (q.step())
    out.push_back({q.i64(0), q.text(1), labels_at(q, 3), q.real(13), q.real(14), q.text(15),
                   q.text(16), q.text(17), std::nullopt, {}, std::nullopt});
  const bool with_attribution = detail::has_column(db, "passes", "attribution_json");  // schema 5
  for (auto& r : out) {
    Stmt ags(db, "SELECT AVG(inode_ags) FROM passes WHERE boot_id = ?1");
    ags.bind(1, r.boot);
    if (ags.step() && !ags.is_null(0)) r.inode_ags = ags.real(0);
    Stmt p(db, "SELECT pass, loops, lpm, latency_json FROM passes WHERE boot_id = ?1 ORDER BY pass");
    p.bind(1, r.boot);
    while (p.step())
      r.passes.push_back({static_cast<unsigned>(p.i64(0)), static_cast<std::uint64_t>(p.i64(1)),
                          p.real(2), p.text(3)});
    if (!with_attribution) continue;
    Stmt a(db, R"SQL(SELECT count(attribution_json),
       SUM(json_extract(attribution_json, '$.totals."lock.wait_ns"')),
       SUM(json_extract(attribution_json, '$.totals."xfs_buf.wait_ns"')),
       SUM(json_extract(attribution_json, '$.totals."xfs_agi.wait_ns"')),
       SUM(json_extract(attribution_json, '$.totals."xfs_agf.wait_ns"')),
       SUM(json_extract(attribution_json, '$.totals."offcpu.D.wait_ns"'))
FROM passes WHERE boot_id = ?1 AND attribution_json IS NOT NULL)SQL");
    a.bind(1, r.boot);
    if (a.step() && a.i64(0) > 0) {
      auto v = [&](int col) { return a.is_null(col) ? 0.0 : a.real(col); };
      r.attribution = AttributionTotals{v(1), v(2), v(3), v(4), v(5), {}};
      r.attribution->ag_header_ns = ag_header_totals(db, r.boot);
    }
  }
  return out;
}

std::vector<CounterTotal> counter_totals(sqlite3* db, std::optional<RunId> run, const char* path) {
  Stmt q(db, (std::string("SELECT c.cell_key, je.key, SUM(je.value) FROM passes p"
                          " JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id,"
                          " json_each(p.counters_json, ?2) AS je"
                          " WHERE b.status = 'done' AND json_valid(p.counters_json) AND ") +
                 kScopeSql + " GROUP BY c.cell_key, je.key").c_str());
  q.bind(1, run).bind(2, std::string_view(path));
  std::vector<CounterTotal> out;
  while (q.step()) out.push_back({q.text(0), q.text(1), q.real(2)});
  return out;
}

void read_boot_rows(sqlite3* db, std::optional<RunId> run, MetricsRows& m) {
  {
    Stmt q(db, (std::string("SELECT c.cell_key, SUM(p.duration_s), SUM(p.loops) FROM passes p"
                            " JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id"
                            " WHERE b.status = 'done' AND ") + kScopeSql + " GROUP BY c.cell_key").c_str());
    q.bind(1, run);
    while (q.step()) m.loads.push_back({q.text(0), q.real(1), static_cast<std::uint64_t>(q.i64(2))});
  }
  m.tracepoints = counter_totals(db, run, "$.tracepoints");
  m.xfs_stats = counter_totals(db, run, "$.xfs_stats");
  {
    Stmt q(db, (std::string("SELECT ") + kLabelCols + ", b.status, c.cell_key, COUNT(*)"
                " FROM boots b JOIN cells c ON c.id = b.cell_id JOIN runs r ON r.id = c.run_id"
                " WHERE b.status IN ('done', 'failed') AND " + kScopeSql +
                " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12").c_str());
    q.bind(1, run);
    while (q.step())
      m.outcomes.push_back({q.text(11), labels_at(q, 0), parse_boot_status(q.text(10)),
                            static_cast<std::uint64_t>(q.i64(12))});
  }
  if (detail::has_column(db, "boots", "boot_s")) {  // schema version 2 and later
    Stmt q(db, (std::string("SELECT ") + kLabelCols + ", c.cell_key, b.boot_s"
                " FROM boots b JOIN cells c ON c.id = b.cell_id JOIN runs r ON r.id = c.run_id"
                " WHERE b.boot_s IS NOT NULL AND b.status IN ('done', 'failed') AND " + kScopeSql +
                " ORDER BY b.id").c_str());
    q.bind(1, run);
    while (q.step()) m.boot_seconds.push_back({q.text(10), labels_at(q, 0), q.real(11)});
  }
}

void read_run_rows(sqlite3* db, std::optional<RunId> run, MetricsRows& m) {
  if (!run) {
    Stmt q(db, "SELECT DISTINCT kind, hostname FROM runs");
    while (q.step()) m.kinds.emplace_back(q.text(0), q.text(1));
  }
  Stmt q(db,
         "SELECT r.id, r.kind, r.hostname, b.status, COUNT(b.id) FROM runs r"
         " LEFT JOIN cells c ON c.run_id = r.id LEFT JOIN boots b ON b.cell_id = c.id"
         " WHERE (?1 IS NULL AND r.status = 'running') OR r.id = ?1"
         " GROUP BY r.id, b.status ORDER BY r.id");
  q.bind(1, run);
  while (q.step()) {
    RunBootCount c{q.i64(0), q.text(1), q.text(2), std::nullopt, static_cast<std::uint64_t>(q.i64(4))};
    if (!q.is_null(3)) c.status = parse_boot_status(q.text(3));
    m.run_boots.push_back(std::move(c));
  }
  if (run) {
    Stmt st(db, "SELECT status FROM runs WHERE id = ?1");
    st.bind(1, run);
    if (st.step()) m.run_status = parse_run_status(st.text(0));
  }
}

}  // namespace

MetricsRows metrics_rows(const Store& st, std::optional<RunId> run) {
  const detail::Locked db(st);
  const detail::ReadTx tx(db.db());  // every query sees the same state of a store being written
  MetricsRows m;
  m.latest = latest_results(db.db(), run);
  read_boot_rows(db.db(), run, m);
  read_run_rows(db.db(), run, m);
  return m;
}

std::vector<NoiseFigures> latest_noise_figures(const Store& st) {
  const detail::Locked db(st);
  if (!detail::has_table(db.db(), "noise_reports")) return {};  // a store from before them
  Stmt q(db.db(),
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
         "               ORDER BY n2.created_at DESC, n2.id DESC LIMIT 1)");
  std::vector<NoiseFigures> out;
  while (q.step())
    out.push_back({q.text(0), q.text(1), q.text(2), static_cast<unsigned>(q.i64(3)), q.text(4),
                   q.opt_real(5), q.opt_real(6), q.opt_real(7), q.opt_real(8), q.opt_real(9),
                   q.opt_real(10), q.opt_real(11), q.opt_real(12), q.opt_real(13), q.opt_real(14),
                   q.opt_real(15), q.opt_real(16)});
  return out;
}

}  // namespace rlab::store
