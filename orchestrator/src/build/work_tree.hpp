#pragma once
// A git kernel repository's files kept checked out for building, moved from commit to commit
// so that make rebuilds only what a move changed (a bisection's steps, a nightly tree whose
// tip moves): <cache>/kbuild/tree-<key>/{src,obj,index,state.json}.
//
// The move is `git read-tree --reset -u <commit>` against the tree's own index file
// (GIT_INDEX_FILE; the repository is only read): files that differ between the checked-out
// commit and the new one are rewritten (new mtime, so make rebuilds what includes them),
// files that do not are left alone (mtime kept), files the new commit lacks are removed, and
// files a patch changed are restored first. The configuration is redone only when it may
// have changed: a Kconfig file differs from the commit it was made at, the patches differ, or
// there is no .config. A move interrupted anywhere (killed, disk full) is repaired by the next
// one: the reset rewrites whatever differs from the index, and the state records a
// configuration only after it succeeded.
#include "build/artifact_cache.hpp"
#include "build/progress.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlab::build {

/// One work tree, held (its cache lock "kernel-tree-<key>") for the object's life.
class WorkTree {
 public:
  /// The work tree of `repo` (a git repository; its .git folder or a bare one) for builds whose
  /// configuration inputs hash to `config_key` (fragments, page size, toolchain), made empty
  /// on first use; nullopt when another build holds it now (the caller builds another way).
  /// Throws std::runtime_error when `repo` is not a git repository.
  static std::optional<WorkTree> try_open(const std::filesystem::path& cache_root,
                                          const std::filesystem::path& repo, const std::string& config_key);

  /// Checks out `commit` (a full SHA of the repository) and applies `patches` in order.
  /// Returns whether the object directory's configuration must be made again before
  /// building (see the file comment). Throws util::ProcessError when git fails, PatchError
  /// when a patch does not apply, std::runtime_error saying "No space left on device" when the
  /// checkout failed on a full disk (the tree's files are then removed).
  bool move_to(const std::string& commit, const std::vector<std::filesystem::path>& patches,
               const Progress& progress);

  /// Records that obj/.config was made for the current commit and patches.
  void configured();

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path src() const { return dir_ / "src"; }
  std::filesystem::path obj() const { return dir_ / "obj"; }
  /// The commit the objects were last built from before this move; "" for a new tree.
  const std::string& previous_commit() const { return previous_; }

 private:
  WorkTree(std::filesystem::path dir, std::filesystem::path git_dir, util::FileLock lock)
      : dir_(std::move(dir)), git_dir_(std::move(git_dir)), lock_(std::move(lock)) {}
  /// After a failed checkout: when the cache's disk has less than kFullBelowBytes free, removes
  /// what the tree holds (the next move starts afresh) and throws saying "No space left on
  /// device" (git's own message does not); returns otherwise.
  void give_back_if_full(const std::exception& e);
  static constexpr std::uintmax_t kFullBelowBytes = 256ull << 20;
  /// `git <args>` on the repository with this tree's work tree and index; throws on failure.
  std::string git(std::vector<std::string> args) const;

  std::filesystem::path dir_, git_dir_;
  util::FileLock lock_;
  std::string previous_;
  std::string patches_;  ///< hash of the patches move_to() applied
};

/// Whether a change to the tree-relative path `path` can change what allnoconfig and the
/// fragments make: a Kconfig file ("fs/xfs/Kconfig", "arch/arm64/Kconfig.platforms").
bool affects_config(const std::string& path);

}  // namespace rlab::build
