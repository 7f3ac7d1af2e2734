#include "compare/drift.hpp"

#include "matrix/matrix.hpp"
#include "stats/descriptive.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>

namespace rlab::compare {

std::string resolve_control(const std::vector<BootData>& boots, const std::string& selector) {
  std::set<std::string> cells;
  for (const auto& b : boots) cells.insert(b.cell_id);
  try {
    return matrix::select_cell_id({cells.begin(), cells.end()}, selector);
  } catch (const UsageError& e) {
    throw UsageError(std::string("--control: ") + e.what());
  }
}

std::vector<BootData> control_boots(const std::vector<BootData>& boots, const std::string& control) {
  std::vector<BootData> out;
  for (const auto& b : boots)
    if (b.cell_id == control) out.push_back(b);
  return out;
}

std::size_t correct_side(std::vector<BootData>& side, const std::vector<BootData>& control_boots,
                         const std::string& control, double reference) {
  std::map<unsigned, std::vector<double>> by_repeat;
  for (const auto& c : control_boots)
    if (c.score > 0) by_repeat[c.repeat].push_back(c.score);
  std::vector<BootData> kept;
  std::size_t dropped = 0;
  for (auto& b : side) {
    if (b.cell_id == control) continue;
    auto it = by_repeat.find(b.repeat);
    if (it == by_repeat.end()) {
      ++dropped;
      continue;
    }
    b.score *= reference / stats::median(it->second);
    kept.push_back(std::move(b));
  }
  side = std::move(kept);
  return dropped;
}

}  // namespace rlab::compare
