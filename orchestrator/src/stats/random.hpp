#pragma once
// A seeded random source whose stream is the same on every platform and standard library:
// std::mt19937_64's output sequence is fixed by the C++ standard, while the standard
// distributions are not, so bounded integers and uniforms are derived here.
#include <cstdint>
#include <random>

namespace rlab::stats {

/// Reproducible pseudo-random numbers (64-bit Mersenne Twister, Matsumoto & Nishimura 1998).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform integer in [0, n) by rejection (no modulo bias). n must be > 0.
  std::uint64_t index(std::uint64_t n);
  /// Uniform double in [0, 1) with 53 random bits.
  double uniform();
  /// Standard normal variate (Marsaglia polar method).
  double normal();
  /// Raw 64 random bits.
  std::uint64_t bits() { return engine_(); }

 private:
  std::mt19937_64 engine_;
  bool have_spare_ = false;
  double spare_ = 0;
};

}  // namespace rlab::stats
