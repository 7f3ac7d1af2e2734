#include "bisect_driver/lab.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace rlab::bisect_driver {

ReplayOracle::ReplayOracle(Lab& lab, std::vector<std::string> commits)
    : lab_(lab), commits_(std::move(commits)) {}

void ReplayOracle::consumed(const std::string& commit, std::size_t n) { handed_[commit] = n; }

bisect::Measurement ReplayOracle::operator()(std::size_t index, std::size_t runs) {
  if (index >= commits_.size())
    throw std::out_of_range("bisect oracle: commit index " + std::to_string(index) + " of " +
                            std::to_string(commits_.size()));
  const std::string& c = commits_[index];
  bisect::Measurement m;
  auto stored = lab_.stored(c);
  std::size_t& handed = handed_[c];
  while (handed < stored.size() && m.samples.size() < runs) m.samples.push_back(stored[handed++]);
  // Boots that fail now and then (a QEMU that exits while libvirt connects, a guest that
  // never says hello) are measured again; a kernel that does not build, or boots that keep
  // failing, make the commit unmeasurable.
  const std::size_t allowed_misses = std::max<std::size_t>(2, runs);
  std::size_t misses = 0;
  while (m.samples.size() < runs) {
    const std::size_t need = runs - m.samples.size();
    auto fresh = lab_.measure(c, need);
    handed += fresh.samples.size();  // the lab stored them too
    measured_ += fresh.samples.size();
    m.samples.insert(m.samples.end(), fresh.samples.begin(), fresh.samples.end());
    if (fresh.samples.size() >= need) break;
    misses += need - fresh.samples.size();
    const std::string why = fresh.failure.empty() ? "no samples" : fresh.failure;
    if (fresh.failure.rfind("build:", 0) == 0 || misses > allowed_misses) {
      m.failure = fresh.failure.rfind("build:", 0) == 0
                      ? why
                      : fmt::format("{} boots failed while measuring {} more; last: {}", misses,
                                    runs, why);
      m.samples.clear();
      return m;
    }
  }
  return m;
}

}  // namespace rlab::bisect_driver
