#include "build/apt_source.hpp"

#include "util/paths.hpp"
#include "build/run_options.hpp"
#include "util/process.hpp"

#include <spdlog/spdlog.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rlab::build {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> out;
  std::istringstream in{std::string(line)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// A release suite: "bookworm", "trixie", "sid", "stable" - not "bookworm-security".
bool plain_suite(const std::string& s) { return !s.empty() && s.find('-') == std::string::npos && s.find('/') == std::string::npos; }

std::string strip_slash(std::string uri) {
  while (!uri.empty() && uri.back() == '/') uri.pop_back();
  return uri;
}

// What the sources say: the first Debian archive, and the first deb entry with a release
// suite of another distribution ("noble at http://.../ubuntu-ports"), for the error.
struct Scan {
  std::string debian;
  std::string other;
};

// Records one deb entry; true once it is a Debian archive.
bool consider(Scan& scan, const std::string& uri, const std::vector<std::string>& suites) {
  for (const auto& s : suites)
    if (plain_suite(s) && is_debian_release_suite(s)) {
      scan.debian = strip_slash(uri);
      return true;
    }
  if (scan.other.empty())
    for (const auto& s : suites)
      if (plain_suite(s)) {
        scan.other = s + " at " + strip_slash(uri);
        break;
      }
  return false;
}

// One-line format: deb [options] uri suite [component...]
void from_one_line(const std::string& text, Scan& scan) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    auto w = words(line);
    if (w.empty() || w[0] != "deb") continue;
    std::size_t i = 1;
    if (i < w.size() && w[i].front() == '[') {
      while (i < w.size() && w[i].back() != ']') ++i;
      ++i;
    }
    if (i + 1 < w.size() && consider(scan, w[i], {w[i + 1]})) return;
  }
}

// deb822 format: stanzas separated by blank lines, fields "Types:", "URIs:", "Suites:".
void from_deb822(const std::string& text, Scan& scan) {
  std::istringstream in(text + "\n\n");
  std::vector<std::string> types, uris, suites;
  bool enabled = true;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '#') continue;
    if (words(line).empty()) {
      bool deb = std::find(types.begin(), types.end(), "deb") != types.end();
      if (enabled && deb && !uris.empty() && consider(scan, uris.front(), suites)) return;
      types.clear(), uris.clear(), suites.clear(), enabled = true;
      continue;
    }
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    std::transform(key.begin(), key.end(), key.begin(), ::tolower);
    auto value = words(line.substr(colon + 1));
    if (key == "types") types = value;
    else if (key == "uris") uris = value;
    else if (key == "suites") suites = value;
    else if (key == "enabled") enabled = !(value.size() == 1 && value[0] == "no");
  }
}

Scan scan_sources(const std::vector<std::pair<std::string, std::string>>& files) {
  Scan scan;
  for (const auto& [name, text] : files) {
    bool deb822 = name.size() >= 8 && name.compare(name.size() - 8, 8, ".sources") == 0;
    if (deb822) from_deb822(text, scan);
    else from_one_line(text, scan);
    if (!scan.debian.empty()) break;
  }
  return scan;
}

// apt's options for the private state under `root` (see PrivateApt).
std::vector<std::string> private_apt_options(const fs::path& root, const std::string& arch) {
  auto r = root.string();
  return {"-o", "Dir::Etc=" + r + "/etc",
          "-o", "Dir::Etc::sourcelist=" + r + "/etc/sources.list",
          "-o", "Dir::Etc::sourceparts=" + r + "/etc/sources.list.d",
          "-o", "Dir::Etc::preferencesparts=" + r + "/etc/preferences.d",
          "-o", "Dir::State=" + r + "/state",
          "-o", "Dir::State::status=" + r + "/state/status",
          "-o", "Dir::Cache=" + r + "/cache",
          "-o", "APT::Architecture=" + arch,
          "-o", "APT::Architectures::=" + arch,
          "-o", "APT::Sandbox::User=root",
          "-o", "Debug::NoLocking=1",
          "-q"};
}

// The "Candidate:" of `apt-cache policy` output; "" when there is none.
std::string candidate_of(const std::string& policy_output) {
  std::istringstream in(policy_output);
  for (std::string line; std::getline(in, line);) {
    auto w = words(line);
    if (w.size() == 2 && w[0] == "Candidate:" && w[1] != "(none)") return w[1];
  }
  return "";
}

bool has_package_lists(const fs::path& root) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root / "state/lists", ec))
    if (e.path().filename().string().find("_Packages") != std::string::npos) return true;
  return false;
}

}  // namespace

bool is_debian_release_suite(const std::string& suite) {
  static const std::set<std::string> kSuites{
      "buster", "bullseye", "bookworm", "trixie", "forky", "duke", "sid",
      "stable", "testing", "unstable", "oldstable", "oldoldstable", "experimental"};
  return kSuites.count(suite) != 0;
}

std::string find_debian_mirror(const std::vector<std::pair<std::string, std::string>>& files) {
  return scan_sources(files).debian;
}

std::string host_debian_mirror(const fs::path& etc_apt) {
  std::vector<std::pair<std::string, std::string>> files;
  if (fs::exists(etc_apt / "sources.list"))
    files.emplace_back("sources.list", util::read_file(etc_apt / "sources.list"));
  std::vector<fs::path> parts;
  if (fs::is_directory(etc_apt / "sources.list.d"))
    for (const auto& e : fs::directory_iterator(etc_apt / "sources.list.d")) {
      auto ext = e.path().extension();
      if (ext == ".list" || ext == ".sources") parts.push_back(e.path());
    }
  std::sort(parts.begin(), parts.end());
  for (const auto& p : parts) files.emplace_back(p.filename().string(), util::read_file(p));
  const Scan scan = scan_sources(files);
  if (!scan.debian.empty()) return scan.debian;
  const std::string read = (etc_apt / "sources.list").string() + ", " +
                           (etc_apt / "sources.list.d").string() + "/*.list, *.sources";
  if (!scan.other.empty())
    throw std::runtime_error(fmt::format(
        "the host's apt sources ({}) have no Debian archive, only another distribution's ({}): "
        "set {} to a Debian mirror's URI (http://<mirror>/debian), which rlab uses for kernel "
        "sources and guest userlands",
        read, scan.other, kDebianMirrorVariable));
  throw std::runtime_error(fmt::format(
      "no Debian mirror found in the host's apt sources ({}): add a `deb` entry for a Debian "
      "release suite, or set {} to a Debian mirror's URI (http://<mirror>/debian)",
      read, kDebianMirrorVariable));
}

namespace {
constexpr std::string_view kSchemes[] = {"http://", "https://", "file:/"};
}  // namespace

std::string select_debian_mirror(const std::optional<std::string>& setting, const fs::path& etc_apt) {
  if (!setting) return host_debian_mirror(etc_apt);
  const std::string& v = *setting;
  const std::string uri = strip_slash(v);
  // A scheme apt fetches from, then something: "http://h/debian", "file:/srv/debian".
  const bool scheme = std::any_of(std::begin(kSchemes), std::end(kSchemes), [&](std::string_view s) {
    return uri.size() > s.size() && uri.compare(0, s.size(), s) == 0;
  });
  // Nothing that would end the URI's field in a sources.list line.
  const bool clean = std::none_of(v.begin(), v.end(), [](unsigned char c) {
    return std::isspace(c) || std::iscntrl(c) || c == '[' || c == ']';
  });
  if (!scheme || !clean)
    throw std::runtime_error(fmt::format(
        "{}='{}' is not a Debian archive's URI: expected http://, https:// or file:/ and no "
        "spaces, e.g. http://<mirror>/debian",
        kDebianMirrorVariable, v));
  return uri;
}

std::string debian_mirror() {
  std::optional<std::string> setting;
  if (const char* v = std::getenv(kDebianMirrorVariable); v && *v) setting = v;
  return select_debian_mirror(setting);
}

PrivateApt::PrivateApt(fs::path root, std::string mirror, std::string suite, std::string arch)
    : root_(std::move(root)), mirror_(std::move(mirror)), suite_(std::move(suite)),
      arch_(std::move(arch)) {
  for (const char* d : {"etc/sources.list.d", "etc/preferences.d", "etc/apt.conf.d",
                        "state/lists/partial", "cache/archives/partial"})
    fs::create_directories(root_ / d);
  if (!fs::exists(root_ / "state/status")) util::write_file_atomic(root_ / "state/status", "");
  // The archive key ring of the host's debian-archive-keyring covers current releases.
  util::write_file_atomic(root_ / "etc/sources.list",
                          "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] " +
                              mirror_ + " " + suite_ + " main\n");
}

std::vector<std::string> PrivateApt::apt_options() const { return private_apt_options(root_, arch_); }

bool PrivateApt::update() {
  std::vector<std::string> argv{"apt-get"};
  auto o = apt_options();
  argv.insert(argv.end(), o.begin(), o.end());
  argv.push_back("update");
  auto r = util::run(argv, run_options(std::chrono::seconds(600)));
  const bool have_lists = has_package_lists(root_);
  if (r.ok() && r.output.find("W: Failed") == std::string::npos && have_lists) return true;
  if (have_lists) {
    spdlog::warn("apt-get update for {} {} failed; using the package lists from an earlier update",
                 mirror_, suite_);
    return false;
  }
  throw std::runtime_error("apt-get update of " + mirror_ + " " + suite_ + " (state in " +
                           root_.string() + ") failed:\n" + util::tail(r.output, 15));
}

std::string PrivateApt::candidate_version(const std::string& package) const {
  std::vector<std::string> argv{"apt-cache"};
  auto o = apt_options();
  argv.insert(argv.end(), o.begin(), o.end());
  argv.insert(argv.end(), {"policy", package});
  if (auto v = candidate_of(util::run_checked(argv).output); !v.empty()) return v;
  throw std::runtime_error("package " + package + " is not in Debian " + suite_ + " (" + mirror_ +
                           ", " + arch_ + ")");
}

fs::path PrivateApt::download(const std::string& package, const std::string& version,
                              const fs::path& dest_dir) const {
  fs::create_directories(dest_dir);
  std::vector<std::string> argv{"apt-get"};
  auto o = apt_options();
  argv.insert(argv.end(), o.begin(), o.end());
  argv.insert(argv.end(), {"download", package + "=" + version});
  util::run_checked(argv, run_options(std::chrono::seconds(1800), dest_dir));
  for (const auto& e : fs::directory_iterator(dest_dir)) {
    auto name = e.path().filename().string();
    if (name.rfind(package + "_", 0) == 0 && e.path().extension() == ".deb") return e.path();
  }
  throw std::runtime_error("apt-get download " + package + "=" + version + " left no .deb in " +
                           dest_dir.string());
}

std::optional<std::string> listed_candidate_version(const fs::path& root, const std::string& arch,
                                                    const std::string& package) {
  if (!has_package_lists(root)) return std::nullopt;
  std::vector<std::string> argv{"apt-cache"};
  auto o = private_apt_options(root, arch);
  argv.insert(argv.end(), o.begin(), o.end());
  // No binary caches: apt-cache would otherwise write them under `root`.
  argv.insert(argv.end(), {"-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache=",
                           "policy", package});
  auto r = util::run(argv, run_options(std::chrono::seconds(120)));
  if (!r.ok()) return std::nullopt;
  auto v = candidate_of(r.output);
  return v.empty() ? std::nullopt : std::optional<std::string>(v);
}

}  // namespace rlab::build
