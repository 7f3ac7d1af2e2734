#include "stats/random.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace rlab::stats {

std::uint64_t Rng::index(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("stats::Rng::index: n is 0");
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t limit = max - (max % n + 1) % n;  // largest multiple of n, minus 1
  std::uint64_t x = engine_();
  while (x > limit) x = engine_();
  return x % n;
}

double Rng::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double Rng::normal() {
  if (have_spare_) {
    have_spare_ = false;
    return spare_;
  }
  double u = 0, v = 0, s = 0;
  do {
    u = 2 * uniform() - 1;
    v = 2 * uniform() - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  const double f = std::sqrt(-2 * std::log(s) / s);
  spare_ = v * f;
  have_spare_ = true;
  return u * f;
}

}  // namespace rlab::stats
