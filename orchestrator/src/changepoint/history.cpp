#include "changepoint/history.hpp"

#include "stats/descriptive.hpp"

namespace rlab::changepoint {

std::vector<std::string> matching_cells(const store::Store& st, const std::string& selector,
                                        const std::string& kind) {
  return store::scored_cell_ids(st, selector, kind);
}

CellHistory load_history(const store::Store& st, const std::string& cell_id,
                         const std::string& kind) {
  CellHistory h{cell_id, {}};
  std::vector<std::vector<double>> scores;
  for (auto& b : store::cell_history(st, cell_id, kind)) {
    if (h.points.empty() || h.points.back().run != b.run) {
      h.points.push_back({b.run, b.created_at, b.kernel_release, b.source_commit, 0, 0, std::move(b.env)});
      scores.emplace_back();
    }
    scores.back().push_back(b.score);
  }
  for (std::size_t i = 0; i < h.points.size(); ++i) {
    h.points[i].boots = scores[i].size();
    h.points[i].score = stats::median(scores[i]);
  }
  return h;
}

}  // namespace rlab::changepoint
