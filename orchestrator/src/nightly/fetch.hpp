#pragma once
// The night's `git fetch`es (matrix `nightly.fetch`): before the run resolves refs such as
// `origin/linux-6.6.y`, and before a bisection looks for its commits, every configured remote
// is fetched in the bisection tree and in every kernel's git tree. docs/nightly.md.
#include "matrix/matrix.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace rlab::nightly {

/// One `git -C <tree> fetch --prune --quiet -- <remote>`.
struct FetchResult {
  std::filesystem::path tree;
  std::string remote;
  bool ok = false;
  std::string message;  ///< "" when ok; else git's last line, or why git could not run
  double seconds = 0;   ///< wall time
};

/// Fetches every remote of `m.nightly.fetch` in every tree of matrix::fetch_trees(m) (with
/// `tree`, the night's bisection tree, when it differs from the matrix's), one after another,
/// each killed after `timeout`. Never throws: a failure (network down, no such remote, not a
/// git repository) is a FetchResult with ok false, and the night goes on with the refs as they
/// are.
std::vector<FetchResult> fetch_remotes(const matrix::Matrix& m, const std::filesystem::path& tree,
                                       std::chrono::seconds timeout = std::chrono::minutes(30));

/// "fetch origin in /srv/rlab/linux-stable: failed: <message>" (or "... : ok in 3 s").
std::string describe(const FetchResult& f);

}  // namespace rlab::nightly
