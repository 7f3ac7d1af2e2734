#pragma once
// Where a bisection's samples come from: a Lab measures a commit (build, boot, load) and
// keeps every sample; the oracle handed to the bisection logic replays a commit's stored
// samples first (a resumed session or a repeated step measures nothing twice) and asks the
// lab only for the rest.
#include "bisect/bisect.hpp"

#include <map>
#include <string>
#include <vector>

namespace rlab::bisect_driver {

/// Measures commits of one session and remembers the samples.
class Lab {
 public:
  virtual ~Lab() = default;
  /// Every sample stored so far for `commit` (lpm, one per finished boot), oldest first.
  virtual std::vector<double> stored(const std::string& commit) = 0;
  /// Measures `commit` `runs` more times and stores the samples of the boots that finished.
  /// Measurement::failure names the last failure when fewer than `runs` samples come back;
  /// it starts with "build:" when the kernel does not build (then no boot was tried). Throws
  /// for failures of the lab itself (libvirt unreachable, store not writable).
  virtual bisect::Measurement measure(const std::string& commit, std::size_t runs) = 0;
};

/// The bisection oracle over `commits` (index -> SHA) for one process: a commit's stored
/// samples are handed out first (those marked consumed() excepted: the ends' samples preloaded
/// into bisect::References), then the lab measures the rest. Failed boots are measured again
/// until `runs` samples are there; a build failure, or more than max(2, runs) failed boots,
/// returns Measurement::failure (the commit is unmeasurable) without samples.
class ReplayOracle {
 public:
  ReplayOracle(Lab& lab, std::vector<std::string> commits);
  /// Marks the first `n` stored samples of `commit` as already handed out.
  void consumed(const std::string& commit, std::size_t n);
  /// The bisect::Oracle.
  bisect::Measurement operator()(std::size_t index, std::size_t runs);
  /// Samples measured (not replayed) in this process.
  std::size_t measured() const { return measured_; }

 private:
  Lab& lab_;
  std::vector<std::string> commits_;
  std::map<std::string, std::size_t> handed_;
  std::size_t measured_ = 0;
};

}  // namespace rlab::bisect_driver
