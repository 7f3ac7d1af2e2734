// Store: read queries for comparisons and histories (readers.hpp).
#include "store/readers.hpp"

#include "store/environment_columns.hpp"

#include <unordered_map>

namespace rlab::store {

using detail::Locked;
using detail::Stmt;

std::vector<ScoredBoot> scored_boots(const Store& st, RunId run) {
  static const std::string kBoots = R"SQL(
SELECT br.boot_id, br.cell_key, br.kernel, br.fs, br.mkfs_label, br.vcpus, br.workload,
       br.copies, br.repeat, br.score, br.loops, COALESCE(br.source_commit, ''), )SQL" +
                                    detail::env_columns("r") + R"SQL(
FROM boot_results br JOIN results r ON r.boot_id = br.boot_id
WHERE br.run_id = ?1 AND br.status = 'done' AND br.score IS NOT NULL
ORDER BY br.cell_key, br.repeat)SQL";
  static const char* const kPasses = R"SQL(
SELECT p.boot_id, p.loops, p.counters_json, p.attribution_json
FROM passes p JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id
     LEFT JOIN cell_methods m ON m.cell_id = c.id
WHERE c.run_id = ?1 AND b.status = 'done' AND p.pass >= COALESCE(m.warmup_passes, 0)
ORDER BY p.boot_id, p.pass)SQL";
  static const char* const kPlacement = R"SQL(
SELECT p.boot_id, AVG(p.inode_ags)
FROM passes p JOIN boots b ON b.id = p.boot_id JOIN cells c ON c.id = b.cell_id
WHERE c.run_id = ?1 AND b.status = 'done' AND p.inode_ags IS NOT NULL
GROUP BY p.boot_id)SQL";

  const Locked db(st);
  std::vector<ScoredBoot> out;
  std::unordered_map<BootId, std::size_t> pos;
  Stmt boots(db.db(), kBoots.c_str());
  boots.bind(1, run);
  while (boots.step()) {
    ScoredBoot b;
    boots.columns(0, b.boot_id, b.cell_id, b.kernel, b.fs, b.mkfs_label, b.vcpus, b.workload,
                  b.copies, b.repeat, b.score, b.loops, b.source_commit);
    b.env = detail::read_env(boots, 12);
    pos[b.boot_id] = out.size();
    out.push_back(std::move(b));
  }
  Stmt passes(db.db(), kPasses);
  passes.bind(1, run);
  while (passes.step())
    if (auto it = pos.find(passes.i64(0)); it != pos.end()) {
      CountedPass p;
      p.loops = static_cast<std::uint64_t>(passes.i64(1));
      p.counters_json = passes.text(2);
      if (!passes.is_null(3)) p.attribution_json = passes.text(3);
      out[it->second].passes.push_back(std::move(p));
    }
  Stmt placed(db.db(), kPlacement);
  placed.bind(1, run);
  while (placed.step())
    if (auto it = pos.find(placed.i64(0)); it != pos.end()) out[it->second].inode_ags = placed.real(1);
  return out;
}

std::vector<std::string> scored_cell_ids(const Store& st, const std::string& glob,
                                         const std::string& kind) {
  const Locked db(st);
  Stmt q(db.db(), R"SQL(
SELECT DISTINCT br.cell_key FROM boot_results br JOIN runs r ON r.id = br.run_id
WHERE br.score IS NOT NULL AND (?1 = '' OR r.kind = ?1) AND (?2 = '' OR br.cell_key GLOB ?2)
ORDER BY br.cell_key)SQL");
  q.bind(1, kind).bind(2, glob);
  std::vector<std::string> out;
  while (q.step()) out.push_back(q.text(0));
  return out;
}

std::vector<HistoryBoot> cell_history(const Store& st, const std::string& cell_id,
                                      const std::string& kind) {
  static const std::string kSql = R"SQL(
SELECT br.run_id, r.created_at, COALESCE(br.guest_kernel_release, ''),
       COALESCE(br.source_commit, ''), br.score, br.repeat, )SQL" + detail::env_columns("res") + R"SQL(
FROM boot_results br JOIN runs r ON r.id = br.run_id
     LEFT JOIN results res ON res.boot_id = br.boot_id
WHERE br.cell_key = ?1 AND br.score IS NOT NULL AND (?2 = '' OR r.kind = ?2)
ORDER BY r.created_at, br.run_id, br.repeat)SQL";
  const Locked db(st);
  Stmt q(db.db(), kSql.c_str());
  q.bind(1, cell_id).bind(2, kind);
  std::vector<HistoryBoot> out;
  while (q.step())
    out.push_back({q.i64(0), q.text(1), q.text(2), q.text(3), q.real(4), detail::read_env(q, 6),
                   static_cast<unsigned>(q.i64(5))});
  return out;
}

}  // namespace rlab::store
