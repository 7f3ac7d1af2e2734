#pragma once
// Applying the kernel's ordered patch list (`patch -p1`), with errors that name the patch
// and the file that did not take it.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::build {

/// A patch that does not apply. what() reads
/// "patch <patch> does not apply to <tree>: <file>: <reason>" followed by patch's output.
struct PatchError : std::runtime_error {
  using std::runtime_error::runtime_error;
  std::filesystem::path patch;  ///< the patch file
  std::string file;             ///< the first file that failed, relative to the tree ("" if unknown)
};

/// The first failing file and its reason in GNU patch output, e.g.
/// {"fs/xfs/xfs_icache.c", "Hunk #1 FAILED at 1872."}, or nullopt when none is reported.
std::optional<std::pair<std::string, std::string>> first_patch_failure(std::string_view output);

/// The files a unified diff touches (the new-side "+++ b/<path>" names, -p1 stripped).
std::vector<std::string> patched_files(std::string_view patch_text);

/// Applies `patches` to `tree` in order. Each is first tried with --dry-run so a failing
/// patch leaves the tree as the previous patch left it. Files a patch touches are first
/// replaced by private copies, so a tree of hard links to a shared pristine tree can be
/// patched without changing the original. Throws PatchError for the first patch that does
/// not apply (rejected hunk, missing file, already applied), std::runtime_error when a patch
/// file cannot be read.
void apply_patches(const std::filesystem::path& tree,
                   const std::vector<std::filesystem::path>& patches);

}  // namespace rlab::build
