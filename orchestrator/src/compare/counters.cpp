// inodegc tracepoint changes per 1,000 loops between the two sides of a comparison.
#include "compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace rlab::compare {
namespace {

/// Per event: 1000 * hits / loops over the boots that reported the event.
std::map<std::string, double> per_kloop(const std::vector<const BootData*>& side) {
  std::map<std::string, std::pair<double, double>> sums;  // hits, loops
  for (const BootData* b : side)
    for (const auto& [name, hits] : b->tracepoints) {
      sums[name].first += hits;
      sums[name].second += static_cast<double>(b->loops);
    }
  std::map<std::string, double> out;
  for (const auto& [name, s] : sums)
    if (s.second > 0) out[name] = 1000.0 * s.first / s.second;
  return out;
}

/// Sort key: larger moves first.
double mover_rank(const CounterChange& c) {
  if (!c.base_per_kloop || !c.new_per_kloop) return -1;
  if (c.change) return std::fabs(*c.change);
  return *c.new_per_kloop > 0 ? std::numeric_limits<double>::infinity() : 0;  // rose from 0
}

}  // namespace

std::vector<CounterChange> counter_changes(const std::vector<const BootData*>& base,
                                           const std::vector<const BootData*>& next) {
  const auto a = per_kloop(base), b = per_kloop(next);
  std::map<std::string, CounterChange> all;
  for (const auto& [n, v] : a) all[n].base_per_kloop = v;
  for (const auto& [n, v] : b) all[n].new_per_kloop = v;
  std::vector<CounterChange> out;
  for (auto& [n, c] : all) {
    c.name = n;
    if (c.base_per_kloop && c.new_per_kloop && *c.base_per_kloop > 0)
      c.change = (*c.new_per_kloop - *c.base_per_kloop) / *c.base_per_kloop;
    out.push_back(c);
  }
  auto delta = [](const CounterChange& c) {
    return std::fabs(c.new_per_kloop.value_or(0) - c.base_per_kloop.value_or(0));
  };
  std::stable_sort(out.begin(), out.end(), [&](const CounterChange& x, const CounterChange& y) {
    return std::make_tuple(mover_rank(x), delta(x)) > std::make_tuple(mover_rank(y), delta(y));
  });
  return out;
}

}  // namespace rlab::compare
