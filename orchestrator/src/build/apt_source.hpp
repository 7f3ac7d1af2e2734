#pragma once
// Debian packages through the mirror the host's apt already uses (or $RLAB_DEBIAN_MIRROR),
// with a private apt state directory (its own sources.list, lists, cache and dpkg status), so
// the host's apt configuration and package lists are never touched.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rlab::build {

/// The environment variable that names the Debian archive rlab's private apt states use
/// (kernel sources, the guest's and the emulated KVM host's userlands), e.g.
/// "http://<a Debian mirror>/debian": needed where the host's apt has no Debian archive
/// (Ubuntu, whose mirrors have no Debian trixie).
inline constexpr const char* kDebianMirrorVariable = "RLAB_DEBIAN_MIRROR";

/// Whether `suite` names a Debian release: a code name from buster (10) to duke (15), sid, or
/// an alias (stable, testing, unstable, oldstable, oldoldstable, experimental). Ubuntu's
/// (jammy, noble, ...) are not.
bool is_debian_release_suite(const std::string& suite);

/// The Debian archive URI the host's apt is configured with: the first `deb` entry, in
/// /etc/apt/sources.list, then sources.list.d/*.list and *.sources (deb822) in name order,
/// that lists a Debian release suite (is_debian_release_suite(); not "-security"/"-updates").
/// `etc_apt` is the apt configuration directory (normally /etc/apt). Throws
/// std::runtime_error naming the files read and RLAB_DEBIAN_MIRROR when none is found; when
/// the entries name another distribution's suites (Ubuntu's "noble"), the message says so.
std::string host_debian_mirror(const std::filesystem::path& etc_apt = "/etc/apt");

/// The same search over given file contents (for tests): `files` are (name, text) pairs,
/// names ending in ".sources" are parsed as deb822, all others as one-line entries.
/// Returns "" when no entry qualifies.
std::string find_debian_mirror(
    const std::vector<std::pair<std::string, std::string>>& files);

/// The Debian archive to use: `setting` when it has a value (RLAB_DEBIAN_MIRROR's; trailing
/// '/' dropped), else host_debian_mirror(etc_apt). Throws std::runtime_error naming
/// RLAB_DEBIAN_MIRROR when `setting` is not an http://, https:// or file:/ URI without
/// spaces or brackets, and host_debian_mirror()'s error when the host has no Debian archive.
std::string select_debian_mirror(const std::optional<std::string>& setting,
                                 const std::filesystem::path& etc_apt = "/etc/apt");

/// select_debian_mirror() with $RLAB_DEBIAN_MIRROR (when set and not empty) and /etc/apt:
/// what every private apt state of rlab is created with.
std::string debian_mirror();

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
  /// `root` is created if needed; `mirror` e.g. from debian_mirror(); `suite` e.g.
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
