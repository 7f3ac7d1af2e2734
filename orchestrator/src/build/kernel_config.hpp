#pragma once
// Kernel configuration: allnoconfig + the lab's fragments, merged with the kernel's own
// scripts/kconfig/merge_config.sh, then checked: every option a fragment asks for must still
// have that value after olddefconfig, or the build stops naming it.
#include "build/kernel_spec.hpp"

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::build {

/// One `CONFIG_X=value` or `# CONFIG_X is not set` line of a fragment.
struct ConfigOption {
  std::string name;   ///< "CONFIG_XFS_FS"
  std::string value;  ///< "y", "m", "n" (for "is not set"), a number or a quoted string
  std::filesystem::path fragment;  ///< the fragment file it came from
  int line = 0;                    ///< 1-based line in that file
};

/// A requested option whose final value differs from the request.
struct ConfigMismatch {
  ConfigOption requested;
  std::string actual;  ///< final value, "n" when absent or not set
};

/// Raised when options did not survive olddefconfig; what() names every one, its fragment
/// and line, and the value it ended up with.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
  std::vector<ConfigMismatch> mismatches;
};

/// The fragments for `spec`, in merge order: images/kernel/base.config, the page-size
/// fragment images/kernel/<N>k.config, then spec.fragments. `images_dir` is the project's
/// images/ directory. Throws std::invalid_argument when page_size_kib is not 4, 16 or 64,
/// and std::runtime_error naming a fragment that does not exist.
std::vector<std::filesystem::path> fragment_paths(const KernelSpec& spec,
                                                  const std::filesystem::path& images_dir);

/// Parses fragment `text` (named `path` in errors). Blank lines and other comments are
/// skipped; anything else that is not an option line throws std::runtime_error "path:line: ...".
std::vector<ConfigOption> parse_fragment(std::string_view text, const std::filesystem::path& path);

/// Reads and parses a fragment file.
std::vector<ConfigOption> read_fragment(const std::filesystem::path& path);

/// A final .config as name -> value ("is not set" lines map to "n").
std::map<std::string, std::string> parse_dot_config(std::string_view text);

/// Requested options (later fragments override earlier ones, as merge_config.sh does) whose
/// value in `final_config` differs. An "n" request is met by an absent option.
std::vector<ConfigMismatch> check_config(const std::vector<ConfigOption>& requested,
                                         const std::map<std::string, std::string>& final_config);

/// Throws ConfigError for a non-empty `mismatches` list.
void throw_if_mismatched(const std::vector<ConfigMismatch>& mismatches);

/// Writes `obj_dir`/.config for the tree at `src_dir`: `merge_config.sh -n` (allnoconfig
/// base) over `fragments`, then `make olddefconfig`, then check_config(). `make_args` are the
/// ARCH=/CROSS_COMPILE= words; `env` the build environment. Throws ConfigError or
/// util::ProcessError.
void configure_kernel(const std::filesystem::path& src_dir, const std::filesystem::path& obj_dir,
                      const std::vector<std::filesystem::path>& fragments,
                      const std::vector<std::string>& make_args,
                      const std::map<std::string, std::string>& env);

}  // namespace rlab::build
