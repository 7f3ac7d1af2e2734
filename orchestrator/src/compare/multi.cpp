#include "compare/multi.hpp"

#include <fmt/format.h>

namespace rlab::compare {

MultiComparison compare_runs(const store::Store& st, const std::vector<std::int64_t>& runs,
                             const CompareOptions& opt) {
  if (runs.size() < 2)
    throw UsageError(fmt::format("compare needs at least two runs (the base and one more), got {}", runs.size()));
  MultiComparison m;
  for (std::size_t i = 1; i < runs.size(); ++i) m.pairs.push_back(compare_runs(st, runs[0], runs[i], opt));
  return m;
}

MultiComparison compare_kernels(const store::Store& st, std::int64_t run,
                                const std::vector<std::string>& kernels, const CompareOptions& opt) {
  if (kernels.size() < 2)
    throw UsageError(fmt::format("--kernels needs at least two kernels (the base and one more), got {}",
                                 kernels.size()));
  MultiComparison m;
  for (std::size_t i = 1; i < kernels.size(); ++i)
    m.pairs.push_back(compare_kernels(st, run, kernels[0], kernels[i], opt));
  return m;
}

std::string side_name(Mode mode, const Side& s) {
  return mode == Mode::runs ? fmt::format("run {}", s.run) : fmt::format("kernel {}", s.kernel);
}

bool any_refused(const MultiComparison& m) {
  for (const auto& p : m.pairs)
    for (const auto& c : p.cells)
      if (c.status == RowStatus::refused) return true;
  return false;
}

bool any_regression(const MultiComparison& m) {
  for (const auto& p : m.pairs)
    for (const auto& c : p.cells)
      if (c.regression()) return true;
  return false;
}

}  // namespace rlab::compare
