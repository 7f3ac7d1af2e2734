#include "changepoint/history.hpp"

#include "stats/descriptive.hpp"

namespace rlab::changepoint {

std::vector<std::string> matching_cells(const compare::ReadOnlyDb& db, const std::string& selector,
                                        const std::string& kind) {
  static const char* const kSql = R"SQL(
SELECT DISTINCT br.cell_key FROM boot_results br JOIN runs r ON r.id = br.run_id
WHERE br.score IS NOT NULL AND (?1 = '' OR r.kind = ?1) AND (?2 = '' OR br.cell_key GLOB ?2)
ORDER BY br.cell_key)SQL";
  std::vector<std::string> out;
  db.query("cells matching '" + selector + "'", kSql, {kind, selector},
           [&](const compare::Row& r) { out.push_back(r.text(0)); });
  return out;
}

CellHistory load_history(const compare::ReadOnlyDb& db, const std::string& cell_id,
                         const std::string& kind) {
  static const std::string kSql = R"SQL(
SELECT br.run_id, r.created_at, COALESCE(br.guest_kernel_release, ''),
       COALESCE(br.source_commit, ''), br.score, )SQL" + store::env_columns("res") + R"SQL(
FROM boot_results br JOIN runs r ON r.id = br.run_id
     LEFT JOIN results res ON res.boot_id = br.boot_id
WHERE br.cell_key = ?1 AND br.score IS NOT NULL AND (?2 = '' OR r.kind = ?2)
ORDER BY r.created_at, br.run_id, br.repeat)SQL";
  CellHistory h{cell_id, {}};
  std::vector<std::vector<double>> scores;
  db.query("history of " + cell_id, kSql.c_str(), {cell_id, kind}, [&](const compare::Row& r) {
    const std::int64_t run = r.i64(0);
    if (h.points.empty() || h.points.back().run != run) {
      h.points.push_back({run, r.text(1), r.text(2), r.text(3), 0, 0, {}});
      for (std::size_t f = 0; f < compare::kEnvFields.size(); ++f)
        h.points.back().env[f] = r.text(5 + static_cast<int>(f));
      scores.emplace_back();
    }
    scores.back().push_back(r.real(4));
  });
  for (std::size_t i = 0; i < h.points.size(); ++i) {
    h.points[i].boots = scores[i].size();
    h.points[i].score = stats::median(scores[i]);
  }
  return h;
}

}  // namespace rlab::changepoint
