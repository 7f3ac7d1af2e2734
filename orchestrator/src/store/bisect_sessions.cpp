// Store: the tables of bisect sessions (bisect_sessions.hpp; schema in schema.cpp).
#include "store/bisect_sessions.hpp"

#include "store/sqlite.hpp"

#include <nlohmann/json.hpp>

namespace rlab::store {
namespace {

using detail::Locked;
using detail::Stmt;

constexpr const char* kStepCols =
    "seq, commit_sha, result, samples, median, change_vs_good, p_vs_good, p_vs_bad, reason,"
    " good_median, bad_median, reference_samples, ends_differ";

BisectStepRow step_from(const Stmt& s) {
  BisectStepRow r;
  std::string result;
  std::int64_t ends_differ = 1;
  s.columns(0, r.seq, r.commit, result, r.samples, r.median, r.change_vs_good, r.p_vs_good,
            r.p_vs_bad, r.reason, r.good_median, r.bad_median, r.reference_samples, ends_differ);
  try {
    r.result = bisection::step_result_from_name(result);
  } catch (const std::invalid_argument& e) {
    throw StoreError(std::string("bisect_steps: ") + e.what());
  }
  r.ends_differ = ends_differ != 0;
  return r;
}

std::vector<BisectStepRow> steps_where(sqlite3* db, const char* where, BisectSessionId id,
                                       const std::string& commit) {
  Stmt st(db, (std::string("SELECT ") + kStepCols + " FROM bisect_steps WHERE " + where).c_str());
  st.bind(1, id);
  if (!commit.empty()) st.bind(2, commit);
  std::vector<BisectStepRow> out;
  while (st.step()) out.push_back(step_from(st));
  return out;
}

}  // namespace

BisectSessionId create_bisect_session(Store& store, const BisectSessionRow& s) {
  const Locked db(store);
  Stmt st(db.db(),
          "INSERT INTO bisect_sessions (created_at, tree, good_ref, bad_ref, good_commit, bad_commit,"
          " cell_id, matrix_path, matrix_text, direction, alpha, min_effect, initial_boots, cap_boots,"
          " commit_count, against_cell_id, status) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'ends')");
  st.bind(1, detail::now_iso()).bind(2, s.tree).bind(3, s.good_ref).bind(4, s.bad_ref);
  st.bind(5, s.good_commit).bind(6, s.bad_commit).bind(7, s.cell_id).bind(8, s.matrix_path);
  st.bind(9, s.matrix_text).bind(10, s.direction).bind(11, s.alpha).bind(12, s.min_effect);
  st.bind(13, s.initial_boots).bind(14, s.cap_boots).bind(15, s.commit_count).bind(16, s.against_cell_id);
  st.run();
  return detail::last_insert_id(db.db());
}

std::optional<BisectSessionRow> bisect_session(const Store& store, BisectSessionId id) {
  const Locked db(store);
  Stmt st(db.db(),
          "SELECT id, created_at, tree, good_ref, bad_ref, good_commit, bad_commit, cell_id,"
          " matrix_path, matrix_text, direction, alpha, min_effect, initial_boots, cap_boots,"
          " commit_count, status, message, first_bad, candidates_json, checks_json, against_cell_id"
          " FROM bisect_sessions WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return BisectSessionRow{st.i64(0),  st.text(1),  st.text(2),  st.text(3),  st.text(4),
                       st.text(5),  st.text(6),  st.text(7),  st.text(8),  st.text(9),
                       st.text(10), st.real(11), st.real(12), st.i64(13), st.i64(14),
                       st.i64(15),  st.text(16), st.text(17), st.text(18),
                       nlohmann::json::parse(st.text(19)).get<std::vector<std::string>>(), st.text(20), st.text(21)};
}

std::vector<BisectSessionId> unfinished_bisect_sessions(const Store& store, const std::string& matrix_path) {
  const Locked db(store);
  Stmt st(db.db(), "SELECT id FROM bisect_sessions WHERE status IN ('ends', 'bisecting') AND matrix_path = ?"
                   " ORDER BY id");
  st.bind(1, matrix_path);
  std::vector<BisectSessionId> out;
  while (st.step()) out.push_back(st.i64(0));
  return out;
}

void set_bisect_checks(Store& store, BisectSessionId id, const std::string& checks_json) {
  const Locked db(store);
  Stmt st(db.db(), "UPDATE bisect_sessions SET checks_json = ? WHERE id = ?");
  st.bind(1, checks_json).bind(2, id);
  st.run();
  if (detail::changes(db.db()) != 1)
    throw StoreError(store.path().string() + ": no bisect session " + std::to_string(id));
}

void set_bisect_status(Store& store, BisectSessionId id, const std::string& status,
                       const std::string& message, const std::string& first_bad,
                       const std::vector<std::string>& candidates) {
  const Locked db(store);
  Stmt st(db.db(),
          "UPDATE bisect_sessions SET status = ?, message = ?, first_bad = ?, candidates_json = ?"
          " WHERE id = ?");
  st.bind(1, status).bind(2, message).bind(3, first_bad);
  st.bind(4, nlohmann::json(candidates).dump()).bind(5, id);
  st.run();
  if (detail::changes(db.db()) != 1)
    throw StoreError(store.path().string() + ": no bisect session " + std::to_string(id));
}

void add_bisect_batch(Store& store, BisectSessionId id, const std::string& commit, RunId run,
                      const std::string& purpose) {
  const Locked db(store);
  Stmt st(db.db(), "INSERT INTO bisect_batch_commits (session_id, run_id, commit_sha, purpose) VALUES (?,?,?,?)");
  st.bind(1, id).bind(2, run).bind(3, commit).bind(4, purpose);
  st.run();
}

std::vector<RunId> bisect_batches(const Store& store, BisectSessionId id, const std::string& commit,
                                  const std::string& purpose) {
  const Locked db(store);
  Stmt st(db.db(),
          "SELECT run_id FROM bisect_batch_commits WHERE session_id = ? AND commit_sha = ?"
          " AND (? = '' OR purpose = ?) ORDER BY run_id");
  st.bind(1, id).bind(2, commit).bind(3, purpose).bind(4, purpose);
  std::vector<RunId> out;
  while (st.step()) out.push_back(st.i64(0));
  return out;
}

int record_bisect_step(Store& store, BisectSessionId id, const BisectStepRow& r) {
  const Locked db(store);
  detail::Tx tx(db.db());
  int seq = 0;
  if (auto old = steps_where(db.db(), "session_id = ? AND commit_sha = ?", id, r.commit); !old.empty()) {
    seq = old.front().seq;
  } else {
    Stmt n(db.db(), "SELECT COALESCE(MAX(seq), 0) + 1 FROM bisect_steps WHERE session_id = ?");
    n.bind(1, id);
    n.step();
    seq = static_cast<int>(n.i64(0));
  }
  Stmt st(db.db(),
          "INSERT OR REPLACE INTO bisect_steps (session_id, seq, commit_sha, result, samples, median,"
          " change_vs_good, p_vs_good, p_vs_bad, reason, answered_at, good_median, bad_median,"
          " reference_samples, ends_differ) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  st.bind(1, id).bind(2, static_cast<std::int64_t>(seq)).bind(3, r.commit)
      .bind(4, std::string(bisection::step_result_name(r.result)));
  st.bind(5, static_cast<std::int64_t>(r.samples)).bind(6, r.median).bind(7, r.change_vs_good);
  st.bind(8, r.p_vs_good).bind(9, r.p_vs_bad).bind(10, r.reason).bind(11, detail::now_iso());
  st.bind(12, r.good_median).bind(13, r.bad_median).bind(14, static_cast<std::int64_t>(r.reference_samples));
  st.bind(15, static_cast<std::int64_t>(r.ends_differ ? 1 : 0));
  st.run();
  tx.commit();
  return seq;
}

std::optional<BisectStepRow> bisect_step(const Store& store, BisectSessionId id, const std::string& commit) {
  const Locked db(store);
  auto rows = steps_where(db.db(), "session_id = ? AND commit_sha = ?", id, commit);
  if (rows.empty()) return std::nullopt;
  return rows.front();
}

std::vector<BisectStepRow> bisect_steps(const Store& store, BisectSessionId id) {
  const Locked db(store);
  return steps_where(db.db(), "session_id = ? ORDER BY seq", id, "");
}

}  // namespace rlab::store
