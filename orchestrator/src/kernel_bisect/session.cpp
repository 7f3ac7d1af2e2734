#include "kernel_bisect/session.hpp"
#include "util/usage_error.hpp"

#include <map>
#include <stdexcept>
#include <string_view>

namespace rlab::kernel_bisect {

std::string direction_name(bisection::Direction d) {
  return d == bisection::Direction::regression ? "regression" : "improvement";
}

bisection::Direction parse_direction(const std::string& s) {
  if (s == "regression") return bisection::Direction::regression;
  if (s == "improvement") return bisection::Direction::improvement;
  throw UsageError("direction '" + s + "': expected regression or improvement");
}

namespace {
constexpr SessionState kStates[] = {SessionState::ends, SessionState::bisecting, SessionState::found,
                                    SessionState::hidden_by_skips, SessionState::no_regression,
                                    SessionState::inconclusive_endpoints, SessionState::wrong_direction,
                                    SessionState::endpoint_failed};
}  // namespace

SessionState finished_state(bisection::Status s) {
  switch (s) {
    case bisection::Status::found: return SessionState::found;
    case bisection::Status::hidden_by_skips: return SessionState::hidden_by_skips;
    case bisection::Status::no_regression: return SessionState::no_regression;
    case bisection::Status::inconclusive_endpoints: return SessionState::inconclusive_endpoints;
    case bisection::Status::wrong_direction: return SessionState::wrong_direction;
    case bisection::Status::endpoint_failed: return SessionState::endpoint_failed;
  }
  return SessionState::inconclusive_endpoints;
}

std::string_view state_name(SessionState s) {
  switch (s) {
    case SessionState::ends: return "ends";
    case SessionState::bisecting: return "bisecting";
    case SessionState::found: return bisection::status_name(bisection::Status::found);
    case SessionState::hidden_by_skips: return bisection::status_name(bisection::Status::hidden_by_skips);
    case SessionState::no_regression: return bisection::status_name(bisection::Status::no_regression);
    case SessionState::inconclusive_endpoints: return bisection::status_name(bisection::Status::inconclusive_endpoints);
    case SessionState::wrong_direction: return bisection::status_name(bisection::Status::wrong_direction);
    case SessionState::endpoint_failed: return bisection::status_name(bisection::Status::endpoint_failed);
  }
  return "?";
}

SessionState parse_state(std::string_view name) {
  for (const auto s : kStates)
    if (state_name(s) == name) return s;
  throw store::StoreError("bisect session state '" + std::string(name) + "' is not one rlab writes");
}

SessionDb::SessionDb(const std::filesystem::path& db) : path_(db), store_(store::Store::open(db)) {}

SessionId SessionDb::create(const SessionSpec& s) {
  store::BisectSessionRow row;
  row.tree = s.tree.string();
  row.good_ref = s.good_ref;
  row.bad_ref = s.bad_ref;
  row.good_commit = s.good_commit;
  row.bad_commit = s.bad_commit;
  row.cell_id = s.cell_id;
  row.against_cell_id = s.against_cell_id;
  row.matrix_path = s.matrix_path;
  row.matrix_text = s.matrix_text;
  row.direction = direction_name(s.direction);
  row.alpha = s.alpha;
  row.min_effect = s.min_effect;
  row.initial_boots = static_cast<std::int64_t>(s.initial);
  row.cap_boots = static_cast<std::int64_t>(s.cap);
  row.commit_count = static_cast<std::int64_t>(s.commit_count);
  return store::create_bisect_session(*store_, row);
}

std::optional<Session> SessionDb::get(SessionId id) const {
  auto row = store::bisect_session(*store_, id);
  if (!row) return std::nullopt;
  Session s;
  s.id = row->id;
  s.created_at = row->created_at;
  s.spec.tree = row->tree;
  s.spec.good_ref = row->good_ref;
  s.spec.bad_ref = row->bad_ref;
  s.spec.good_commit = row->good_commit;
  s.spec.bad_commit = row->bad_commit;
  s.spec.cell_id = row->cell_id;
  s.spec.against_cell_id = row->against_cell_id;
  s.spec.matrix_path = row->matrix_path;
  s.spec.matrix_text = row->matrix_text;
  s.spec.direction = parse_direction(row->direction);
  s.spec.alpha = row->alpha;
  s.spec.min_effect = row->min_effect;
  s.spec.initial = static_cast<std::size_t>(row->initial_boots);
  s.spec.cap = static_cast<std::size_t>(row->cap_boots);
  s.spec.commit_count = static_cast<std::size_t>(row->commit_count);
  s.status = parse_state(row->status);
  s.message = row->message;
  s.first_bad = row->first_bad;
  s.candidates = row->candidates;
  s.checks_json = row->checks_json;
  return s;
}

void SessionDb::set_checks(SessionId id, const std::string& checks_json) {
  store::set_bisect_checks(*store_, id, checks_json);
}

void SessionDb::set_status(SessionId id, SessionState status, const std::string& message,
                           const std::string& first_bad, const std::vector<std::string>& candidates) {
  store::set_bisect_status(*store_, id, std::string(state_name(status)), message, first_bad, candidates);
}

void SessionDb::add_batch(SessionId id, const std::string& commit, store::RunId run,
                          const std::string& purpose) {
  store::add_bisect_batch(*store_, id, commit, run, purpose);
}

std::vector<store::RunId> SessionDb::batches(SessionId id, const std::string& commit,
                                             const std::string& purpose) const {
  return store::bisect_batches(*store_, id, commit, purpose);
}

namespace {
/// A cell id after its kernel name ("/xfs-defaults/2vcpu/shell1"): the same cell at any commit.
std::string_view cell_tail(std::string_view id) {
  const auto slash = id.find('/');
  return slash == std::string_view::npos ? std::string_view{} : id.substr(slash);
}
}  // namespace

std::vector<double> SessionDb::samples(SessionId id, const std::string& commit, const std::string& purpose,
                                       const std::string& cell_id) const {
  std::vector<double> out;
  const std::string kernel = commit.substr(0, 12);  // a batch's cells are named by it
  for (auto run : batches(id, commit, purpose))
    for (const auto& b : store_->boot_results(run))
      if (b.kernel == kernel && b.status == store::BootStatus::done && b.score &&
          (cell_id.empty() || cell_tail(b.cell_id) == cell_tail(cell_id)))
        out.push_back(*b.score);
  return out;
}

std::vector<double> SessionDb::statistic(const Session& s, const std::string& commit, const std::string& purpose) const {
  if (!s.spec.gap()) return samples(s.id, commit, purpose);
  std::vector<double> out;
  const std::string kernel = commit.substr(0, 12);
  const auto tail_a = cell_tail(s.spec.cell_id), tail_b = cell_tail(s.spec.against_cell_id);
  for (auto run : batches(s.id, commit, purpose)) {
    std::map<unsigned, double> a, b;  // repeat -> lpm
    for (const auto& r : store_->boot_results(run)) {
      if (r.kernel != kernel || r.status != store::BootStatus::done || !r.score) continue;
      if (cell_tail(r.cell_id) == tail_a) a[r.repeat] = *r.score;
      if (cell_tail(r.cell_id) == tail_b) b[r.repeat] = *r.score;
    }
    for (const auto& [repeat, score] : a)
      if (auto other = b.find(repeat); other != b.end() && other->second > 0) out.push_back(score / other->second);
  }
  return out;
}

std::string SessionDb::last_failure(SessionId id, const std::string& commit) const {
  std::string last;
  const std::string kernel = commit.substr(0, 12);
  for (auto run : batches(id, commit))
    for (const auto& b : store_->boot_results(run))
      if (b.kernel == kernel && b.status == store::BootStatus::failed && !b.failure.empty()) last = b.failure;
  return last;
}

int SessionDb::record_step(SessionId id, const StepRow& r) { return store::record_bisect_step(*store_, id, r); }

std::optional<StepRow> SessionDb::step(SessionId id, const std::string& commit) const {
  return store::bisect_step(*store_, id, commit);
}

std::vector<StepRow> SessionDb::steps(SessionId id) const { return store::bisect_steps(*store_, id); }

}  // namespace rlab::kernel_bisect
