#include "bisect_driver/lab.hpp"

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
  if (m.samples.size() == runs) return m;
  auto fresh = lab_.measure(c, runs - m.samples.size());
  // The lab stored them too: count them as handed out.
  handed += fresh.samples.size();
  measured_ += fresh.samples.size();
  m.samples.insert(m.samples.end(), fresh.samples.begin(), fresh.samples.end());
  if (m.samples.empty()) m.failure = fresh.failure.empty() ? "no samples" : fresh.failure;
  return m;
}

}  // namespace rlab::bisect_driver
