#pragma once
// The kernel git tree of a bisection, driven with argv vectors (`git -C <tree> ...`): refs,
// subjects, and `git bisect` start/good/bad/skip/run/log/reset. The bisection never moves the
// tree's checkout: it starts with `--no-checkout`, so the commit under test is BISECT_HEAD.
#include "bisection/search.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlab::kernel_bisect {

/// A git failure: what() names the tree, the command and git's message.
struct GitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// How a `git bisect` command left the bisection.
struct BisectOutcome {
  bool done = false;                 ///< git named the first bad commit or gave up on skips
  std::string first_bad;             ///< full SHA when git named it
  std::vector<std::string> candidates;  ///< "could be any of" list when skips hide it
};

/// Reads git's bisect output: "<sha> is the first bad commit", or "There are only 'skip'ped
/// commits left to test" followed by the candidate SHAs. Anything else: not done.
BisectOutcome parse_bisect_output(const std::string& output);

/// One repository.
class GitTree {
 public:
  /// Throws GitError when `dir` is not a git repository.
  explicit GitTree(std::filesystem::path dir);
  const std::filesystem::path& dir() const { return dir_; }

  /// Full SHA of `ref` as a commit; throws GitError naming the ref when unknown.
  std::string resolve(const std::string& ref) const;
  /// Whether `ancestor` is an ancestor of (or equal to) `descendant`.
  bool is_ancestor(const std::string& ancestor, const std::string& descendant) const;
  /// `git rev-list --count good..bad`: commits after good up to bad.
  std::size_t count_between(const std::string& good, const std::string& bad) const;
  /// The commit's subject line.
  std::string subject(const std::string& commit) const;
  /// The first parent's SHA, nullopt for a root commit.
  std::optional<std::string> parent(const std::string& commit) const;

  /// Whether a bisection is in progress (`git bisect log` succeeds).
  bool bisecting() const;
  /// `git bisect start --no-checkout <bad> <good>`.
  BisectOutcome start(const std::string& bad, const std::string& good) const;
  /// `git bisect <term> <commit>`, term "good", "bad" or "skip"; when only skipped commits are
  /// left, git exits 2 listing the candidates: returned as done, not thrown.
  BisectOutcome mark(const std::string& term, const std::string& commit) const;
  /// The commit git wants tested: BISECT_HEAD (no-checkout bisection), else HEAD.
  std::string current() const;
  /// `git bisect run <argv...>`, its output appended to `log` and echoed to stderr.
  /// Returns the exit code and how the bisection ended (read from the log's new part).
  std::pair<int, BisectOutcome> run(const std::vector<std::string>& argv,
                                    const std::filesystem::path& log) const;
  /// `git bisect log`.
  std::string log() const;
  /// `git bisect reset` (no-op when not bisecting), and the owner mark removed.
  void reset() const;

  /// The files `commit` changes against `parent` (`git diff --name-only`), repository-relative.
  std::vector<std::string> changed_files(const std::string& parent, const std::string& commit) const;

  /// A commit on top of `onto` that reverts `commit` (its diff against its first parent
  /// applied in reverse), made without touching the checkout or the index: a private index,
  /// `git apply --cached -R`, `git commit-tree`, kept from gc under refs/rlab/reverts/<commit>
  /// and reused from there when it was made on `onto` before (a resumed session). The
  /// new commit's SHA, or nullopt when the reverse diff does not apply on `onto`; `why` then
  /// holds git's first complaint. Throws GitError for a commit without a parent.
  std::optional<std::string> revert_onto(const std::string& commit, const std::string& onto,
                                         std::string& why) const;

  /// Who runs the bisection in progress: rlab marks a bisection it starts with its session and
  /// process (a file in the repository's git directory, removed by reset()).
  struct Owner {
    std::int64_t session = 0;
    long pid = 0;
    bool alive = false;  ///< that process still runs
  };
  /// Marks the bisection in progress as `session`'s, run by this process.
  void mark_owner(std::int64_t session) const;
  /// The mark of the bisection in progress; nullopt when there is none (a bisection started by
  /// hand, or none at all).
  std::optional<Owner> owner() const;

 private:
  std::string git(const std::vector<std::string>& args) const;
  std::filesystem::path owner_file() const;
  std::filesystem::path dir_;
};

/// bisection::Bisecter over a `git bisect` in progress in `git` (the caller started it): state()
/// is what git said last (first bad commit, or only skipped commits left: the candidates) or
/// else the commit it wants tested (BISECT_HEAD); mark() is `git bisect good|bad|skip
/// <commit>`. Throws GitError as GitTree does.
class GitBisecter : public bisection::Bisecter {
 public:
  /// `started`: what `git bisect start` (GitTree::start) said.
  GitBisecter(const GitTree& git, BisectOutcome started) : git_(git), outcome_(std::move(started)) {}
  bisection::SearchState state() override;
  void mark(const std::string& commit, bisection::StepResult result) override;

 private:
  const GitTree& git_;
  BisectOutcome outcome_;
};

}  // namespace rlab::kernel_bisect
