#include "kernel_bisect/lab.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace rlab::kernel_bisect {

ReplayOracle::ReplayOracle(Lab& lab, std::vector<std::string> commits, std::string purpose)
    : lab_(lab), commits_(std::move(commits)), purpose_(std::move(purpose)) {}

void ReplayOracle::replay(std::span<const bisection::Request> requests,
                          std::vector<bisection::Measurement>& out) {
  for (std::size_t k = 0; k < requests.size(); ++k) {
    if (requests[k].index >= commits_.size())
      throw std::out_of_range(fmt::format("bisect oracle: commit index {} of {}", requests[k].index,
                                          commits_.size()));
    const std::string& c = commits_[requests[k].index];
    auto stored = lab_.stored(c, purpose_);
    std::size_t& handed = handed_[c];
    while (handed < stored.size() && out[k].samples.size() < requests[k].runs)
      out[k].samples.push_back(stored[handed++]);
  }
}

std::vector<bisection::Measurement> ReplayOracle::operator()(std::span<const bisection::Request> requests) {
  const std::size_t n = requests.size();
  std::vector<bisection::Measurement> out(n);
  std::vector<std::size_t> misses(n, 0);
  replay(requests, out);
  // Boots that fail now and then (a QEMU that exits while libvirt connects, a guest that
  // never says hello) are measured again; a kernel that does not build, or boots that keep
  // failing, make the commit unmeasurable.
  while (true) {
    std::vector<LabRequest> ask;
    std::vector<std::size_t> slot;
    for (std::size_t k = 0; k < n; ++k) {
      if (!out[k].failure.empty() || out[k].samples.size() >= requests[k].runs) continue;
      ask.push_back({commits_[requests[k].index], requests[k].runs - out[k].samples.size()});
      slot.push_back(k);
    }
    if (ask.empty()) return out;
    auto fresh = lab_.measure(ask, purpose_);
    if (fresh.size() != ask.size())
      throw std::runtime_error(fmt::format("bisect lab: {} answers to {} requests", fresh.size(), ask.size()));
    bool built = true;
    for (std::size_t j = 0; j < ask.size(); ++j) {
      auto& m = out[slot[j]];
      const auto& f = fresh[j];
      handed_[ask[j].commit] += f.samples.size();  // the lab stored them too
      measured_ += f.samples.size();
      m.samples.insert(m.samples.end(), f.samples.begin(), f.samples.end());
      if (f.samples.size() >= ask[j].runs) continue;
      if (f.kind == bisection::Failure::build) {
        m.failure = f.failure;
        m.kind = f.kind;
        m.samples.clear();
        continue;
      }
      if (f.kind == bisection::Failure::not_measured) {  // another commit of the request did not build
        built = false;
        continue;
      }
      const std::size_t runs = requests[slot[j]].runs;
      misses[slot[j]] += ask[j].runs - f.samples.size();
      if (misses[slot[j]] > std::max<std::size_t>(2, runs)) {
        m.failure = fmt::format("{} boots failed while measuring {} more; last: {}", misses[slot[j]],
                                runs, f.failure);
        m.kind = bisection::Failure::boot;
        m.samples.clear();
      }
    }
    if (!built) {  // the caller learns of the build failure; the rest is not measured
      for (std::size_t k = 0; k < n; ++k)
        if (out[k].failure.empty() && out[k].samples.size() < requests[k].runs) {
          out[k].failure = "not measured: another kernel of the request did not build";
          out[k].kind = bisection::Failure::not_measured;
          out[k].samples.clear();
        }
      return out;
    }
  }
}

}  // namespace rlab::kernel_bisect
