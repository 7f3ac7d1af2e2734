#include "compare/boots.hpp"

#include <unordered_map>

namespace rlab::compare {

std::vector<BootData> load_boots(const ReadOnlyDb& db, std::int64_t run) {
  static const std::string kBoots = R"SQL(
SELECT br.boot_id, br.cell_key, br.kernel, br.fs, br.mkfs_label, br.vcpus, br.workload,
       br.copies, br.repeat, br.score, br.loops, COALESCE(br.source_commit, ''), )SQL" +
                                    store::env_columns("r") + R"SQL(
FROM boot_results br JOIN results r ON r.boot_id = br.boot_id
WHERE br.run_id = ?1 AND br.status = 'done' AND br.score IS NOT NULL
ORDER BY br.cell_key, br.repeat)SQL";
  static const char* const kTracepoints = R"SQL(
SELECT p.boot_id, t.key, SUM(t.value)
FROM passes p JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id,
     json_each(p.counters_json, '$.tracepoints') t
WHERE c.run_id = ?1 AND b.status = 'done'
GROUP BY p.boot_id, t.key)SQL";
  static const char* const kPlacement = R"SQL(
SELECT p.boot_id, AVG(p.inode_ags)
FROM passes p JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id
WHERE c.run_id = ?1 AND b.status = 'done' AND p.inode_ags IS NOT NULL
GROUP BY p.boot_id)SQL";

  std::vector<BootData> out;
  std::unordered_map<std::int64_t, std::size_t> pos;
  db.query("boots of run " + std::to_string(run), kBoots.c_str(), {run}, [&](const Row& r) {
    BootData b;
    b.boot_id = r.i64(0);
    b.cell_id = r.text(1);
    b.kernel = r.text(2);
    b.fs = r.text(3);
    b.mkfs_label = r.text(4);
    b.vcpus = static_cast<unsigned>(r.i64(5));
    b.workload = r.text(6);
    b.copies = static_cast<unsigned>(r.i64(7));
    b.repeat = static_cast<unsigned>(r.i64(8));
    b.score = r.real(9);
    b.loops = static_cast<std::uint64_t>(r.i64(10));
    b.source_commit = r.text(11);
    for (std::size_t i = 0; i < kEnvFields.size(); ++i) b.env[i] = r.text(12 + static_cast<int>(i));
    pos[b.boot_id] = out.size();
    out.push_back(std::move(b));
  });
  db.query("tracepoints of run " + std::to_string(run), kTracepoints, {run}, [&](const Row& r) {
    auto it = pos.find(r.i64(0));
    if (it != pos.end() && !r.is_null(2)) out[it->second].tracepoints[r.text(1)] = r.real(2);
  });
  db.query("placement of run " + std::to_string(run), kPlacement, {run}, [&](const Row& r) {
    if (auto it = pos.find(r.i64(0)); it != pos.end()) out[it->second].inode_ags = r.real(1);
  });
  return out;
}

bool run_exists(const ReadOnlyDb& db, std::int64_t run) {
  bool found = false;
  db.query("run " + std::to_string(run), "SELECT 1 FROM runs WHERE id = ?1", {run},
           [&](const Row&) { found = true; });
  return found;
}

std::int64_t latest_run(const ReadOnlyDb& db) {
  std::int64_t id = 0;
  db.query("latest run", "SELECT COALESCE(MAX(id), 0) FROM runs", {},
           [&](const Row& r) { id = r.i64(0); });
  return id;
}

}  // namespace rlab::compare
