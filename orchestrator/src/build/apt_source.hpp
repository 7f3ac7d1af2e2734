#pragma once
// Debian packages through the mirror the host's apt already uses, with a private apt state
// directory (its own sources.list, lists, cache and dpkg status), so the host's apt
// configuration and package lists are never touched.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rlab::build {

/// The Debian archive URI the host's apt is configured with: the first `deb` entry, in
/// /etc/apt/sources.list, then sources.list.d/*.list and *.sources (deb822) in name order,
/// that lists a plain release suite (no "-security"/"-updates" suffix). `etc_apt` is the
/// apt configuration directory (normally /etc/apt). Throws std::runtime_error naming the
/// files read when none is found.
std::string host_debian_mirror(const std::filesystem::path& etc_apt = "/etc/apt");

/// The same search over given file contents (for tests): `files` are (name, text) pairs,
/// names ending in ".sources" are parsed as deb822, all others as one-line entries.
/// Returns "" when no entry qualifies.
std::string find_debian_mirror(
    const std::vector<std::pair<std::string, std::string>>& files);

/// The candidate version of `package` in the package lists an earlier PrivateApt::update()
/// left under `root` (for architecture `arch`), read without updating or writing anything;
/// nullopt when there are no lists there or they do not have the package. A later update may
/// find a newer version.
std::optional<std::string> listed_candidate_version(const std::filesystem::path& root,
                                                    const std::string& arch,
                                                    const std::string& package);

/// A private apt state for one (mirror, suite, architecture) under `root`.
class PrivateApt {
 public:
  /// `root` is created if needed; `mirror` e.g. from host_debian_mirror(); `suite` e.g.
  /// "trixie"; `arch` a Debian architecture ("arm64"; "all" packages are always visible).
  PrivateApt(std::filesystem::path root, std::string mirror, std::string suite,
             std::string arch);
  /// Refreshes the package lists (`apt-get update`). When the mirror cannot be reached but
  /// lists from an earlier update exist, keeps those and returns false; throws
  /// std::runtime_error when there are none.
  bool update();
  /// The candidate version of `package` (e.g. "6.12.57-1"); throws std::runtime_error
  /// naming the package and suite when the suite does not have it.
  std::string candidate_version(const std::string& package) const;
  /// Downloads `package`=`version` into `dest_dir` and returns the .deb's path.
  std::filesystem::path download(const std::string& package, const std::string& version,
                                 const std::filesystem::path& dest_dir) const;
  const std::string& suite() const { return suite_; }

 private:
  std::vector<std::string> apt_options() const;
  std::filesystem::path root_;
  std::string mirror_, suite_, arch_;
};

}  // namespace rlab::build
