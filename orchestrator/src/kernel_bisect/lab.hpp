#pragma once
// Where a bisection's samples come from: a Lab measures commits (build, boot, load),
// interleaved, and keeps every sample under a purpose ("ends" for the check of the two ends,
// the commit under test for a step and the ends' boots alongside it); the oracle handed to the
// bisection logic replays a purpose's stored samples first (a resumed session or a repeated
// step measures nothing twice) and asks the lab only for the rest.
#include "bisection/bisect.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rlab::kernel_bisect {

/// The purpose of the ends' own check (steps use the SHA of the commit under test).
inline constexpr const char* kEndsPurpose = "ends";

/// One commit of a lab request: boot `commit` `runs` more times.
struct LabRequest {
  std::string commit;  ///< full SHA
  std::size_t runs = 0;
};

/// What the culprit checks need of one commit's kernel (kernel_bisect/culprit.hpp).
struct KernelFacts {
  std::string text_sha256;          ///< vmlinux's .text; "" when the build predates the hash
  std::set<std::string> sources;    ///< files it compiled or included; empty when unknown
};

/// Measures commits of one session and remembers the samples.
class Lab {
 public:
  virtual ~Lab() = default;
  /// The kernel facts of `commit`, building its kernel when it is not in the cache; nullopt
  /// when it does not build. The default, for a lab that builds nothing: nullopt.
  virtual std::optional<KernelFacts> kernel_facts(const std::string& commit) {
    (void)commit;
    return std::nullopt;
  }
  /// Every sample stored so far for `commit` under `purpose` (lpm, one per finished boot),
  /// in boot order.
  virtual std::vector<double> stored(const std::string& commit, const std::string& purpose) = 0;
  /// Measures the requested commits under `purpose` and stores the samples of the boots that
  /// finished. Every kernel is built first; when one does not build, nothing boots, its
  /// Measurement::kind is Failure::build (failure "build: ...") and the others come back empty
  /// with kind Failure::not_measured. Then boots are interleaved: round k boots every commit that still needs a boot,
  /// starting from request k mod n (A B, B A, ... ; G X B, X B G, B G X, ...). A commit with
  /// fewer samples than runs has kind Failure::boot and a failure naming its last failed boot. Returns one
  /// Measurement per request, in order. Throws for failures of the lab itself (libvirt
  /// unreachable, store not writable).
  virtual std::vector<bisection::Measurement> measure(const std::vector<LabRequest>& requests,
                                                   const std::string& purpose) = 0;
};

/// The bisection oracle over `commits` (index -> SHA) for one purpose: a commit's samples
/// stored under the purpose are handed out first, then the lab measures the rest, interleaved.
/// Failed boots are measured again until every commit has its runs; a build failure, or more
/// than max(2, runs) failed boots of one commit, returns that commit's Measurement::failure
/// (unmeasurable) without samples, and the other commits' samples as far as they got.
class ReplayOracle {
 public:
  ReplayOracle(Lab& lab, std::vector<std::string> commits, std::string purpose);
  /// The bisection::Oracle.
  std::vector<bisection::Measurement> operator()(std::span<const bisection::Request> requests);
  /// Samples measured (not replayed) in this process.
  std::size_t measured() const { return measured_; }

 private:
  /// Fills `out` (one per request) with the stored samples not yet handed out.
  void replay(std::span<const bisection::Request> requests, std::vector<bisection::Measurement>& out);
  Lab& lab_;
  std::vector<std::string> commits_;
  std::string purpose_;
  std::map<std::string, std::size_t> handed_;
  std::size_t measured_ = 0;
};

}  // namespace rlab::kernel_bisect
