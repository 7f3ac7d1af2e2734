#pragma once
// Kernel configuration: allnoconfig + the lab's fragments (or a given full .config + what the
// guest needs), merged with the kernel's own scripts/kconfig/merge_config.sh, then checked:
// every option a fragment asks for must still have that value after olddefconfig, or the build
// stops naming it. Also the checks of a .config rlab did not make (a prebuilt Image's): its page
// size and the options the guest needs (images/kernel/required.config).
#include "build/kernel_spec.hpp"

#include <filesystem>
#include <map>
#include <optional>
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

/// The fragments for `spec`, in merge order: images/kernel/required.config, then
/// images/kernel/base.config unless the spec starts from a full .config (spec.base_config),
/// the page-size fragment images/kernel/<N>k.config, then spec.fragments. `images_dir` is the
/// project's images/ directory. Throws std::invalid_argument when page_size_kib is not 4, 16
/// or 64, and std::runtime_error naming a fragment that does not exist.
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

/// Writes `obj_dir`/.config for the tree at `src_dir`: without `base_config`,
/// `merge_config.sh -n` (allnoconfig base) over `fragments`; with one (a full .config),
/// `merge_config.sh` (alldefconfig) of `fragments` over it. Then `make olddefconfig`, then
/// check_config() of the fragments' options. `make_args` are the ARCH=/CROSS_COMPILE= words;
/// `env` the build environment. Throws ConfigError or util::ProcessError.
void configure_kernel(const std::filesystem::path& src_dir, const std::filesystem::path& obj_dir,
                      const std::vector<std::filesystem::path>& fragments,
                      const std::vector<std::string>& make_args,
                      const std::map<std::string, std::string>& env,
                      const std::filesystem::path& base_config = {});

/// images/kernel/required.config under `images_dir`: the options rlab's guest needs built in.
std::filesystem::path required_config_path(const std::filesystem::path& images_dir);

/// The options of required_config_path(), parsed. Throws std::runtime_error when the file
/// is missing or malformed.
std::vector<ConfigOption> required_options(const std::filesystem::path& images_dir);

/// The base page size in KiB (4, 16 or 64) a .config selects with CONFIG_ARM64_<N>K_PAGES=y;
/// 0 when it selects none or more than one (not an arm64 .config).
unsigned config_page_size_kib(const std::map<std::string, std::string>& config);

/// The options of `required` that `config` (a final .config) does not give the required value,
/// in `required`'s order; a module ("m") does not count as built in. Empty when all are there.
std::vector<ConfigMismatch> missing_required(const std::map<std::string, std::string>& config,
                                             const std::vector<ConfigOption>& required);

/// One line per missing option, "CONFIG_XFS_FS is =m, needs =y (required.config:52)", joined
/// with "; ": the tail of the errors that refuse such a .config.
std::string describe_missing(const std::vector<ConfigMismatch>& missing);

/// An option whose value a configuration step changed.
struct ConfigChange {
  std::string name;  ///< "CONFIG_XFS_FS"
  std::string from;  ///< value in the given .config; "n" when absent or not set
  std::string to;    ///< value in the final .config; "n" when absent or not set
  /// The fragment line that asked for an option of this name (later fragments win), when one
  /// did; nullopt: olddefconfig changed it (a dependency, a default of a symbol the given
  /// .config did not know).
  std::optional<ConfigOption> requested;
};

/// Every option whose value differs between `given` and `final_config` (both parsed
/// .configs), sorted by name; `requested` (fragments in merge order) says which were asked for.
std::vector<ConfigChange> config_changes(const std::map<std::string, std::string>& given,
                                         const std::map<std::string, std::string>& final_config,
                                         const std::vector<ConfigOption>& requested);

/// "CONFIG_XFS_FS m -> y (required.config:52)" or "CONFIG_DEBUG_INFO_BTF y -> n (olddefconfig)":
/// one line of config-changes.txt and of the build's output. Values print as in a .config ("n"
/// as "n").
std::string format_change(const ConfigChange& c);

}  // namespace rlab::build
