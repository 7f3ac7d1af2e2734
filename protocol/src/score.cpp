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

std::optional<double> unixbench_baseline_lpm(std::string_view kind) {
  if (kind == "shell1") return 42.4;
  if (kind == "shell8") return 6.0;
  return std::nullopt;
}

std::optional<double> unixbench_index(std::string_view kind, double lpm) {
  const auto base = unixbench_baseline_lpm(kind);
  if (!base) return std::nullopt;
  return lpm / *base * 10.0;
}

}  // namespace rlab::protocol
