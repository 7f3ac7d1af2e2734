#include "compare/drift.hpp"

#include "stats/descriptive.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>

namespace rlab::compare {

std::string resolve_control(const std::vector<BootData>& boots, const std::string& selector) {
  std::set<std::string> cells, matches;
  for (const auto& b : boots) cells.insert(b.cell_id);
  if (cells.count(selector)) return selector;
  for (const auto& c : cells)
    if (c.find(selector) != std::string::npos) matches.insert(c);
  if (matches.size() == 1) return *matches.begin();
  throw std::invalid_argument(fmt::format("--control '{}' {} (cells: {})", selector,
                                          matches.empty() ? "matches no cell" : "matches several cells",
                                          fmt::join(matches.empty() ? cells : matches, ", ")));
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
