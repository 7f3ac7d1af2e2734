#include "build/kernel_source.hpp"
#include "build/cache_budget.hpp"

#include "build/apt_source.hpp"
#include "build/artifact_cache.hpp"
#include "build/run_options.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <stdexcept>

namespace rlab::build {
namespace fs = std::filesystem;

namespace {

// The lock of source `name` (SourceTree::in_use), taken before the tree is looked at.
std::shared_ptr<CacheLock> hold(const fs::path& cache_root, const std::string& name) {
  return std::make_shared<CacheLock>(cache_root, "source-" + name);
}

PrivateApt private_apt(const KernelSource& src, const fs::path& cache_root) {
  if (src.debian_version.empty())
    throw std::runtime_error("kernel source: Debian source without a version (e.g. \"6.12\")");
  if (src.debian_suite.empty())
    throw std::runtime_error("kernel source linux-source-" + src.debian_version +
                             ": no Debian suite (e.g. \"trixie\")");
  return PrivateApt(cache_root / "apt" / (src.debian_suite + "-arm64"), debian_mirror(), src.debian_suite, "arm64");
}

std::string resolve_debian(const KernelSource& src, const fs::path& cache_root, const Progress& progress) {
  auto apt = private_apt(src, cache_root);
  report(progress, "fetch", "apt-get update (" + src.debian_suite + ", private state)");
  apt.update();
  return apt.candidate_version("linux-source-" + src.debian_version);
}

SourceTree fetch_debian(const KernelSource& src, std::string version, const fs::path& cache_root,
                        const Progress& progress) {
  auto apt = private_apt(src, cache_root);
  if (version.empty()) version = resolve_debian(src, cache_root, progress);
  const std::string package = "linux-source-" + src.debian_version;
  SourceTree tree{cache_root / "sources" / (package + "_" + version), source_identity(src),
                  version, hold(cache_root, package + "_" + version)};
  if (fs::exists(tree.dir / "Makefile")) return tree;

  report(progress, "fetch", fmt::format("downloading {} {}", package, version));
  // Unpacked into `<final>.partial-<pid>` and renamed, so an interrupted unpack never looks done.
  const Staging guard(tree.dir);
  const fs::path& staging = guard.path();
  auto deb = apt.download(package, version, staging / "deb");
  util::run_checked({"dpkg-deb", "-x", deb.string(), (staging / "pkg").string()});
  fs::path tarball;
  for (const auto& e : fs::directory_iterator(staging / "pkg/usr/src"))
    if (e.path().filename().string().rfind(package + ".tar", 0) == 0) tarball = e.path();
  if (tarball.empty())
    throw std::runtime_error(deb.string() + " has no usr/src/" + package + ".tar.*");
  report(progress, "fetch", "unpacking " + tarball.filename().string());
  fs::create_directories(staging / "tree");
  util::run_checked({"tar", "-xf", tarball.string(), "-C", (staging / "tree").string()},
                    run_options(std::chrono::seconds(1800)));
  auto top = staging / "tree" / package;
  if (!fs::exists(top / "Makefile"))
    throw std::runtime_error(tarball.string() + " does not unpack to " + package + "/Makefile");
  fs::create_directories(tree.dir.parent_path());
  fs::rename(top, tree.dir);
  return tree;
}

SourceTree fetch_git(const KernelSource& src, const fs::path& cache_root, const Progress& progress) {
  const std::string commit = git_commit(src);
  SourceTree tree{cache_root / "sources" / ("git-" + commit), source_identity(src), commit,
                  hold(cache_root, "git-" + commit)};
  if (fs::exists(tree.dir / "Makefile")) return tree;
  report(progress, "fetch", "exporting " + src.git_ref + " (" + tree.commit + ")");
  const Staging guard(tree.dir);
  const fs::path& staging = guard.path();
  util::run_checked({"git", "-C", src.git_tree.string(), "archive", "--format=tar",
                     "-o", (staging / "src.tar").string(), tree.commit},
                    run_options(std::chrono::seconds(1800)));
  fs::create_directories(staging / "tree");
  util::run_checked({"tar", "-xf", (staging / "src.tar").string(), "-C", (staging / "tree").string()},
                    run_options(std::chrono::seconds(1800)));
  if (!fs::exists(staging / "tree/Makefile"))
    throw std::runtime_error("git tree " + src.git_tree.string() + " at " + src.git_ref +
                             " has no top-level Makefile: not a kernel tree");
  fs::create_directories(tree.dir.parent_path());
  fs::rename(staging / "tree", tree.dir);
  return tree;
}

}  // namespace

std::string git_commit(const KernelSource& src) {
  if (src.git_tree.empty()) throw std::runtime_error("kernel source: git tree without a path");
  if (src.git_ref.empty())
    throw std::runtime_error("kernel source " + src.git_tree.string() + ": no git ref");
  if (!fs::exists(src.git_tree))
    throw std::runtime_error("kernel source: git tree " + src.git_tree.string() + " does not exist");
  auto rev = util::run({"git", "-C", src.git_tree.string(), "rev-parse", "--verify", "--quiet",
                        src.git_ref + "^{commit}"});
  if (!rev.ok())
    throw std::runtime_error("kernel source " + src.git_tree.string() + ": ref '" + src.git_ref +
                             "' is not a commit");
  return util::trim_end(rev.output);
}

std::string source_identity(const KernelSource& source) {
  if (source.kind == KernelSource::Kind::kDebianPackage)
    return "debian:linux-source-" + source.debian_version + "@" + source.debian_suite;
  if (source.kind == KernelSource::Kind::kPrebuiltImage)
    return "image:" + fs::absolute(source.image).lexically_normal().string();
  return "git:" + fs::absolute(source.git_tree).lexically_normal().string();
}

std::string debian_candidate_version(const KernelSource& source, const fs::path& cache_root,
                                    const Progress& progress) {
  CacheLock lock(cache_root, "source-fetch");
  return resolve_debian(source, cache_root, progress);
}

SourceTree fetch_kernel_source(const KernelSource& source, const fs::path& cache_root,
                               const Progress& progress, const std::string& debian_version) {
  // One fetch at a time per cache: the private apt state and unpacking are not concurrent-safe.
  if (source.kind == KernelSource::Kind::kPrebuiltImage)
    throw std::invalid_argument("kernel source: a prebuilt Image " + source.image.string() + " has no source to fetch");
  CacheLock lock(cache_root, "source-fetch");
  SourceTree tree = source.kind == KernelSource::Kind::kDebianPackage ? fetch_debian(source, debian_version, cache_root, progress)
                                                                       : fetch_git(source, cache_root, progress);
  touch_used(tree.dir);
  return tree;
}

}  // namespace rlab::build
