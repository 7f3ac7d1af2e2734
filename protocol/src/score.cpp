#include "rlab/protocol/score.hpp"

#include <algorithm>
#include <cmath>

namespace rlab::protocol {

double unixbench_score(std::vector<double> lpm) {
  if (lpm.empty()) return 0;
  std::sort(lpm.begin(), lpm.end());
  const std::size_t drop = lpm.size() / 3;
  double log_sum = 0;
  for (std::size_t i = drop; i < lpm.size(); ++i) {
    if (!(lpm[i] > 0)) return 0;
    log_sum += std::log(lpm[i]);
  }
  return std::exp(log_sum / static_cast<double>(lpm.size() - drop));
}

}  // namespace rlab::protocol
