#include "build/kernel_build.hpp"
#include "build/cache_budget.hpp"

#include "build/apt_source.hpp"
#include "build/artifact_cache.hpp"
#include "build/build_progress.hpp"
#include "build/kernel_config.hpp"
#include "build/kernel_source.hpp"
#include "build/patches.hpp"
#include "build/prebuilt_kernel.hpp"
#include "build/work_tree.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "build/run_options.hpp"
#include "util/process.hpp"

#include <fmt/format.h>

#include <sstream>

#include <set>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

namespace rlab::build {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kCross = "aarch64-linux-gnu-";

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

unsigned build_jobs() {
  if (const char* j = std::getenv("RLAB_BUILD_JOBS"); j && *j) {
    char* end = nullptr;
    long n = std::strtol(j, &end, 10);
    if (*end != '\0' || n < 1 || n > 1024)
      throw std::runtime_error(fmt::format("RLAB_BUILD_JOBS='{}' is not a job count in [1, 1024]", j));
    return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// The tree to build from: <cache>/kbuild/<key>/src, a hard-linked copy of the pristine tree
// with the patches applied, next to the object directory <cache>/kbuild/<key>/obj. Every
// kernel thus compiles "../src/<file>" from "obj", so ccache (base_dir = the cache) hits
// across kernels for every file that is the same in both trees.
fs::path prepared_tree(const SourceTree& tree, const KernelSpec& spec, const fs::path& build_root,
                       const Progress& progress) {
  auto dir = build_root / "src";
  if (fs::exists(dir / "Makefile")) return dir;
  fs::create_directories(build_root);
  const Staging guard(dir);
  const fs::path& staging = guard.path();
  fs::remove(staging);  // `cp -al` makes it
  report(progress, "patch", "linking " + tree.dir.filename().string() + " into " + dir.string());
  util::run_checked({"cp", "-al", tree.dir.string(), staging.string()},
                    run_options(std::chrono::seconds(1800)));
  for (const auto& p : spec.patches) report(progress, "patch", "applying " + p.filename().string());
  apply_patches(staging, spec.patches);
  fs::rename(staging, dir);
  return dir;
}

// "expecting 2600 steps (from ...)" or "expecting ~2600 steps (estimate from ...)".
std::string expectation(const StepBasis& b) {
  if (b.steps == 0) return b.from;
  return b.estimate ? fmt::format("expecting ~{} steps (estimate from {})", b.steps, b.from)
                    : fmt::format("expecting {} steps (from {})", b.steps, b.from);
}

// A failed `make Image`: the first compiler error (it scrolls out of the tail with parallel
// jobs), then the log's last lines.
[[noreturn]] void throw_build_failure(const KernelSpec& spec, int exit_code, const fs::path& log) {
  const std::string text = util::read_file(log);
  const auto err = std::min(text.find(": error: "), text.find(": fatal error: "));
  std::string first;
  if (err != std::string::npos) {
    const auto begin = text.rfind('\n', err);
    const auto from = begin == std::string::npos ? 0 : begin + 1;
    first = ": " + text.substr(from, text.find('\n', err) - from);
  }
  throw std::runtime_error(fmt::format("kernel {}: make Image failed (exit {}){}; log {}:\n{}", spec.name,
                                       exit_code, first, log.string(), util::tail(text, 30)));
}

KernelArtifact from_manifest(const fs::path& dir, const json& m, bool hit) {
  KernelArtifact a;
  a.image = dir / "Image";
  if (fs::is_regular_file(dir / "config")) a.config = dir / "config";
  a.key = m.at("key").get<std::string>();
  a.release = m.at("kernel_release").get<std::string>();
  a.source_commit = m.at("source_commit").get<std::string>();
  a.config_sha256 = m.at("config_sha256").get<std::string>();
  a.page_size_kib = m.at("page_size_kib").get<unsigned>();
  a.cache_hit = hit;
  a.text_sha256 = m.value("text_sha256", "");
  a.origin = m.value("origin", "");
  if (fs::is_regular_file(dir / "sources.txt")) a.sources = dir / "sources.txt";
  if (fs::is_regular_file(dir / "config-changes.txt")) a.config_changes = dir / "config-changes.txt";
  return a;
}

/// SHA-256 of obj/vmlinux's .text; "" when objcopy cannot extract it.
std::string text_sha256(const fs::path& obj) {
  const fs::path out = obj / "vmlinux.text";
  const auto r = util::run({std::string(kCross) + "objcopy", "-O", "binary", "--only-section=.text",
                            (obj / "vmlinux").string(), out.string()});
  if (!r.ok() || !fs::is_regular_file(out)) return "";
  const std::string h = util::sha256_hex(util::read_file(out));
  fs::remove(out);
  return h;
}

}  // namespace

std::vector<std::string> compiled_sources(const fs::path& obj, const std::string& src_prefix) {
  std::set<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(obj, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto name = it->path().filename().string();
    if (!it->is_regular_file() || name.size() < 5 || name.front() != '.' || name.compare(name.size() - 4, 4, ".cmd") != 0) continue;
    std::istringstream in(util::read_file(it->path()));
    for (std::string line; std::getline(in, line);) {
      std::size_t at = line.find(src_prefix);
      if (at == std::string::npos || line.rfind("savedcmd_", 0) == 0) continue;
      std::size_t end = line.find_first_of(" \t\\", at);
      files.insert(line.substr(at + src_prefix.size(), end == std::string::npos ? std::string::npos : end - at - src_prefix.size()));
    }
  }
  return {files.begin(), files.end()};
}

fs::path images_dir() { return util::source_dir() / "images"; }

std::string kernel_origin(const KernelSpec& spec, const std::string& commit) {
  const auto& src = spec.source;
  const std::string rev = commit.empty() ? "?" : commit;
  std::string out;
  switch (src.kind) {
    case KernelSource::Kind::kDebianPackage:
      out = fmt::format("debian linux-source-{} {} ({})", src.debian_version, rev, src.debian_suite);
      break;
    case KernelSource::Kind::kGitTree:
      out = fmt::format("git {} {}", src.git_tree.string(), rev);
      break;
    case KernelSource::Kind::kPrebuiltImage:
      out = fmt::format("prebuilt Image sha256:{} ({})", util::sha256_hex(util::read_file(src.image)), src.image.string());
      if (!src.image_config.empty())
        out += fmt::format(", .config sha256:{}", util::sha256_hex(util::read_file(src.image_config)));
      break;
  }
  if (!spec.base_config.empty())
    out += fmt::format(", from .config sha256:{} ({})", util::sha256_hex(util::read_file(spec.base_config)),
                       spec.base_config.string());
  return out;
}

std::string cross_toolchain_id() {
  std::string out;
  for (const char* tool : {"gcc", "ld"}) {
    std::string name = std::string(kCross) + tool;
    if (!util::find_program(name))
      throw std::runtime_error(name + " not found: install gcc-aarch64-linux-gnu and "
                               "binutils-aarch64-linux-gnu (scripts/setup.sh)");
    out += first_line(util::run_checked({name, "--version"}).output) + "\n";
  }
  return out;
}

namespace {

// The key inputs of `spec` for a source at (`identity`, `commit`): revision, fragment and
// patch contents, cross toolchain (cross_toolchain_id() throws when it is missing).
KernelKeyInputs key_inputs(const KernelSpec& spec, const std::string& identity, const std::string& commit) {
  KernelKeyInputs in;
  in.source_identity = identity;
  in.source_commit = commit;
  in.page_size_kib = spec.page_size_kib;
  for (const auto& f : fragment_paths(spec, images_dir()))
    in.fragments.emplace_back(f.filename().string(), util::read_file(f));
  for (const auto& p : spec.patches) in.patches.emplace_back(p.filename().string(), util::read_file(p));
  in.toolchain = cross_toolchain_id();
  if (!spec.base_config.empty()) in.base_config = util::read_file(spec.base_config);
  return in;
}

// How make is run for a tree: environment and the ARCH=/CROSS_COMPILE=/CC= words.
struct MakeSetup {
  std::map<std::string, std::string> env;
  std::vector<std::string> args;
};

MakeSetup make_setup(const fs::path& cache_root) {
  fs::create_directories(cache_root / "ccache");
  MakeSetup m;
  m.env = {{"ARCH", "arm64"},
           {"CROSS_COMPILE", kCross},
           {"CCACHE_DIR", (cache_root / "ccache").string()},
           // Paths below the cache are hashed relative to the working directory, so the same
           // file in another tree (a patched copy) or build directory still hits.
           {"CCACHE_BASEDIR", cache_root.string()},
           {"CCACHE_NOHASHDIR", "1"},
           // Depend mode: a miss compiles once, with the dependencies kbuild asks for
           // (-Wp,-MMD) as the key's inputs, instead of running the preprocessor first — a
           // quarter of a cold kernel's compile time (docs/benchmarks.md "Test command").
           // Hits are direct-mode hits, as before.
           {"CCACHE_DEPEND", "1"},
           {"CCACHE_MAXSIZE", std::to_string(ccache_max_bytes(cache_budget(cache_root).bytes) >> 20) + "M"},
           {"KBUILD_BUILD_TIMESTAMP", "1970-01-01 00:00:00 UTC"},
           {"KBUILD_BUILD_USER", "rlab"},
           {"KBUILD_BUILD_HOST", "rlab"},
           {"LC_ALL", "C"}};
  m.args = {"ARCH=arm64", std::string("CROSS_COMPILE=") + kCross};
  if (util::find_program("ccache")) m.args.push_back(std::string("CC=ccache ") + kCross + "gcc");
  return m;
}

// What one `make Image` did.
struct MadeImage {
  double seconds = 0;        ///< wall time of make
  std::size_t steps = 0;     ///< lines make printed
  bool from_scratch = true;  ///< the object directory held no objects of an earlier attempt
  unsigned jobs = 1;
  std::string release;       ///< `make kernelrelease`
};

// Builds obj/arch/arm64/boot/Image (log: obj/build.log), reporting percentage and ETA
// against the cache's earlier builds. Throws with the first error and the log's tail.
MadeImage make_image(const KernelSpec& spec, const fs::path& src, const fs::path& obj,
                     const MakeSetup& ms, const std::string& identity, const Progress& progress) {
  MadeImage out;
  out.jobs = build_jobs();
  out.from_scratch = !fs::exists(obj / "init");
  const auto log = obj / "build.log";
  fs::remove(log);
  // An object directory of an earlier build (a work tree's) makes only what changed: no count to go by.
  const auto basis = out.from_scratch ? choose_step_basis(list_cache(util::cache_dir()), identity,
                                                          util::sha256_hex(util::read_file(obj / ".config")))
                                      : StepBasis{0, true, "incremental: the objects of the last build are kept"};
  std::vector<std::string> make{"make", "-C", src.string(), "O=" + obj.string()};
  make.insert(make.end(), ms.args.begin(), ms.args.end());
  make.insert(make.end(), {"-j" + std::to_string(out.jobs), "Image"});
  report(progress, "build", fmt::format("make -j{} Image in {}, {}", out.jobs, obj.string(), expectation(basis)));
  auto r = run_logged(make, run_options(std::chrono::hours(6), {}, ms.env, log), basis, progress,
                      std::chrono::seconds(5));
  if (!r.result.ok()) throw_build_failure(spec, r.result.exit_code, log);
  out.seconds = r.result.elapsed.count();
  out.steps = r.lines;
  std::vector<std::string> rel{"make", "-s", "-C", src.string(), "O=" + obj.string()};
  rel.insert(rel.end(), ms.args.begin(), ms.args.end());
  rel.push_back("kernelrelease");
  out.release = util::trim_end(util::run_checked(rel, run_options(std::chrono::seconds(300), {}, ms.env)).output);
  if (auto nl = out.release.rfind('\n'); nl != std::string::npos) out.release = out.release.substr(nl + 1);
  return out;
}

// Copies the build's Image, .config, log and source listing into `staging` (a cache entry
// being made) and returns its manifest.
json store_kernel(const fs::path& staging, const fs::path& obj, const KernelSpec& spec,
                  const KernelKeyInputs& in, const std::string& key, const MadeImage& made,
                  const std::vector<ConfigChange>& changes) {
  fs::copy_file(obj / "arch/arm64/boot/Image", staging / "Image");
  fs::copy_file(obj / ".config", staging / "config");
  fs::copy_file(obj / "build.log", staging / "build.log");
  std::string listing;
  for (const auto& f : compiled_sources(obj)) listing += f + "\n";
  util::write_file_atomic(staging / "sources.txt", listing);
  json m{{"kind", "kernel"},
         {"origin", kernel_origin(spec, in.source_commit)},
         {"key", key},
         {"name", spec.name},
         {"source_identity", in.source_identity},
         {"source_commit", in.source_commit},
         {"kernel_release", made.release},
         {"config_sha256", util::sha256_hex(util::read_file(obj / ".config"))},
         {"text_sha256", text_sha256(obj)},
         {"page_size_kib", spec.page_size_kib},
         {"patchset", spec.patchset},
         {"toolchain", in.toolchain},
         {"build_seconds", made.seconds},
         {"build_steps", made.steps},
         {"build_from_scratch", made.from_scratch},
         {"jobs", made.jobs},
         {"created", static_cast<long long>(std::time(nullptr))}};
  for (const auto& f : fragment_paths(spec, images_dir())) m["fragments"].push_back(f.string());
  m["patches"] = json::array();
  for (const auto& p : spec.patches) m["patches"].push_back(p.string());
  if (!spec.base_config.empty()) {
    std::string text;
    for (const auto& c : changes) text += format_change(c) + "\n";
    util::write_file_atomic(staging / "config-changes.txt", text);
    m["base_config"] = {{"path", spec.base_config.string()}, {"sha256", util::sha256_hex(in.base_config)}};
    m["config_changes"] = changes.size();
  }
  return m;
}

// What configuring from spec.base_config changed in it (obj/.config is the final one).
std::vector<ConfigChange> changes_made(const KernelSpec& spec, const std::vector<fs::path>& fragments,
                                       const fs::path& obj) {
  std::vector<ConfigOption> requested;
  for (const auto& f : fragments) {
    auto o = read_fragment(f);
    requested.insert(requested.end(), o.begin(), o.end());
  }
  return config_changes(parse_dot_config(util::read_file(spec.base_config)),
                        parse_dot_config(util::read_file(obj / ".config")), requested);
}

// A prebuilt Image: checked, then copied with its .config into the entry of its SHA-256s.
KernelArtifact ensure_prebuilt(const KernelSpec& spec, const fs::path& cache_root, const Progress& progress) {
  check_prebuilt(spec, images_dir());
  const auto& src = spec.source;
  const std::string image_sha = util::sha256_hex(util::read_file(src.image));
  const std::string config_sha = src.image_config.empty() ? "" : util::sha256_hex(util::read_file(src.image_config));
  const std::string key = prebuilt_kernel_key(image_sha, config_sha, spec.page_size_kib);
  auto [dir, hit] = ensure_entry(cache_root, CacheKind::kernel, key, [&](const fs::path& staging) {
    report(progress, "cache", "copying the prebuilt Image " + src.image.string());
    fs::copy_file(src.image, staging / "Image");
    if (!src.image_config.empty()) fs::copy_file(src.image_config, staging / "config");
    // What was copied is what is keyed: a file changed meanwhile fails here, not at boot.
    if (util::sha256_hex(util::read_file(staging / "Image")) != image_sha ||
        (!config_sha.empty() && util::sha256_hex(util::read_file(staging / "config")) != config_sha))
      throw std::runtime_error("kernel " + spec.name + ": " + src.image.string() + " or its .config changed while being copied");
    return json{{"kind", "kernel"},
                {"key", key},
                {"name", spec.name},
                {"origin", kernel_origin(spec, "sha256:" + image_sha)},
                {"source_identity", source_identity(src)},
                {"source_commit", "sha256:" + image_sha},
                {"kernel_release", image_release(staging / "Image")},
                {"config_sha256", config_sha},
                {"page_size_kib", spec.page_size_kib},
                {"patchset", spec.patchset},
                {"prebuilt", {{"image", src.image.string()}, {"image_sha256", image_sha},
                              {"config", src.image_config.string()}, {"config_sha256", config_sha}}},
                {"created", static_cast<long long>(std::time(nullptr))}};
  });
  report(progress, "cache", (hit ? "prebuilt kernel cache hit " : "prebuilt kernel copied: ") + key.substr(0, 16));
  return from_manifest(dir, json::parse(util::read_file(dir / "manifest.json")), hit);
}


// Where one build compiles: its tree and object directory, and what holds them meanwhile.
struct BuildDirs {
  fs::path src, obj;
  std::optional<WorkTree> work_tree;  ///< a git source's moving tree, when it was free
  bool configure = true;              ///< the configuration must be made (again)
};

// A git source: its work tree moved to the commit (only changed files touched), or, while
// another build holds that tree, an export of the commit beside a fresh object directory.
BuildDirs git_dirs(const KernelSpec& spec, const KernelKeyInputs& in, const fs::path& cache_root,
                   const std::string& key, const Progress& progress) {
  KernelKeyInputs config_only = in;  // the tree serves every commit and patch set of a config
  config_only.source_commit.clear();
  config_only.patches.clear();
  BuildDirs d;
  d.work_tree = WorkTree::try_open(cache_root, spec.source.git_tree, kernel_key(config_only));
  if (d.work_tree) {
    d.configure = d.work_tree->move_to(in.source_commit, spec.patches, progress);
    d.src = d.work_tree->src();
    d.obj = d.work_tree->obj();
    return d;
  }
  report(progress, "checkout", "the tree's work tree is busy with another build: exporting the commit");
  auto tree = fetch_kernel_source(spec.source, cache_root, progress);
  d.src = prepared_tree(tree, spec, cache_root / "kbuild" / key, progress);
  d.obj = cache_root / "kbuild" / key / "obj";
  return d;
}

// ensure_kernel() without its disk-full diagnosis.
KernelArtifact build_or_hit(const KernelSpec& spec, const fs::path& cache_root, const Progress& progress) {
  if (spec.source.kind == KernelSource::Kind::kPrebuiltImage) return ensure_prebuilt(spec, cache_root, progress);
  if (!spec.base_config.empty() && !fs::is_regular_file(spec.base_config))
    throw std::runtime_error("kernel " + spec.name + ": config " + spec.base_config.string() + " does not exist");
  auto fragments = fragment_paths(spec, images_dir());
  for (const auto& p : spec.patches)
    if (!fs::is_regular_file(p))
      throw std::runtime_error("kernel " + spec.name + ": patch " + p.string() + " does not exist");
  // The entry is found from the revision alone (a git source's commit, a Debian source's
  // candidate version); the tree is exported or downloaded only on a miss.
  const bool git = spec.source.kind == KernelSource::Kind::kGitTree;
  const std::string revision =
      git ? git_commit(spec.source) : debian_candidate_version(spec.source, cache_root, progress);
  const KernelKeyInputs in = key_inputs(spec, source_identity(spec.source), revision);
  const std::string key = kernel_key(in);
  bool built = false;
  auto [dir, hit] = ensure_entry(cache_root, CacheKind::kernel, key, [&](const fs::path& staging) {
    keep_within_budget(cache_root, progress);  // room for the build tree first
    touch_used(cache_root / "kbuild" / key);
    BuildDirs d;
    if (git) {
      d = git_dirs(spec, in, cache_root, key, progress);
    } else {
      auto fetched = fetch_kernel_source(spec.source, cache_root, progress, revision);
      d.src = prepared_tree(fetched, spec, cache_root / "kbuild" / key, progress);
      d.obj = cache_root / "kbuild" / key / "obj";
      fetched.in_use.reset();  // the build tree holds its own links to the files now
    }
    const MakeSetup ms = make_setup(cache_root);
    if (d.configure) {
      report(progress, "config", (spec.base_config.empty() ? std::string("allnoconfig") : spec.base_config.string()) +
                                     " + " + std::to_string(fragments.size()) + " fragments");
      configure_kernel(d.src, d.obj, fragments, ms.args, ms.env, spec.base_config);
      if (d.work_tree) d.work_tree->configured();
    } else {
      report(progress, "config", "kept: no Kconfig file changed since it was made");
    }
    std::vector<ConfigChange> changes;
    if (!spec.base_config.empty()) {
      changes = changes_made(spec, fragments, d.obj);
      report(progress, "config", fmt::format("{} option(s) of {} changed (kept in config-changes.txt):",
                                             changes.size(), spec.base_config.string()));
      for (const auto& c : changes) report(progress, "config", "  " + format_change(c));
    }
    const MadeImage made = make_image(spec, d.src, d.obj, ms, in.source_identity, progress);
    built = true;
    report(progress, "cache", fmt::format("kernel {} built in {:.0f} s ({} steps{}): {}", made.release,
                                          made.seconds, made.steps, made.from_scratch ? "" : ", incremental",
                                          key.substr(0, 16)));
    return store_kernel(staging, d.obj, spec, in, key, made, changes);
  });
  if (hit) report(progress, "cache", "kernel cache hit " + key.substr(0, 16));
  else keep_within_budget(cache_root, progress);
  return from_manifest(dir, json::parse(util::read_file(dir / "manifest.json")), !built);
}

}  // namespace

bool says_disk_full(std::string_view message) {
  return message.find("No space left on device") != std::string_view::npos;
}

KernelArtifact ensure_kernel(const KernelSpec& spec, const Progress& progress) {
  const fs::path cache_root = util::cache_dir();
  try {
    KernelArtifact a = build_or_hit(spec, cache_root, progress);
    // Where this kernel comes from now: an entry is keyed by content, so a hit may have been
    // made from another path (the same Image handed in from elsewhere, another clone's tree).
    a.origin = kernel_origin(spec, a.source_commit);
    return a;
  } catch (const std::exception& e) {
    if (!says_disk_full(e.what())) throw;
    std::error_code ec;
    const auto space = fs::space(cache_root, ec);
    throw DiskFullError(fmt::format("kernel {}: the disk of the cache {} is full ({:.2f} GiB free): {}", spec.name,
                                    cache_root.string(), ec ? 0.0 : double(space.available) / (1 << 30), e.what()));
  }
}

namespace {

// The revision plan_kernel() can tell for `src` without fetching, or "" with `note` saying why.
std::string planned_commit(const KernelSource& src, const fs::path& cache_root, std::string& note) {
  if (src.kind == KernelSource::Kind::kGitTree) {
    auto rev = util::run({"git", "-C", src.git_tree.string(), "rev-parse", "--verify", "--quiet",
                          src.git_ref + "^{commit}"});
    if (!rev.ok()) note = "ref '" + src.git_ref + "' is not a commit of " + src.git_tree.string();
    return rev.ok() ? util::trim_end(rev.output) : "";
  }
  const auto lists = cache_root / "apt" / (src.debian_suite + "-arm64");
  auto v = listed_candidate_version(lists, "arm64", "linux-source-" + src.debian_version);
  note = v ? "version from the package lists of the last fetch; a run refreshes them first"
           : "version not known until the first fetch of " + src.debian_suite + "'s package lists";
  return v.value_or("");
}

}  // namespace

KernelPlan plan_kernel(const KernelSpec& spec) {
  const fs::path cache_root = util::cache_dir();
  const auto& src = spec.source;
  KernelPlan p;
  p.prebuilt = src.kind == KernelSource::Kind::kPrebuiltImage;
  if (p.prebuilt)
    p.source = "prebuilt Image " + src.image.string() +
               (src.image_config.empty() ? " (no .config: page size not checked)" : " + .config " + src.image_config.string());
  else
    p.source = src.kind == KernelSource::Kind::kGitTree
                   ? fmt::format("git {} {}", src.git_tree.string(), src.git_ref)
                   : fmt::format("linux-source-{} ({})", src.debian_version, src.debian_suite);
  if (!spec.base_config.empty()) p.source += " + .config " + spec.base_config.string();
  if (!p.prebuilt) {
    p.commit = planned_commit(src, cache_root, p.note);
    if (p.commit.empty()) return p;
  }
  try {
    if (p.prebuilt) {
      check_prebuilt(spec, images_dir());
      const std::string image_sha = util::sha256_hex(util::read_file(src.image));
      p.commit = "sha256:" + image_sha;
      p.key = prebuilt_kernel_key(image_sha, src.image_config.empty() ? "" : util::sha256_hex(util::read_file(src.image_config)),
                                  spec.page_size_kib);
    } else {
      p.key = kernel_key(key_inputs(spec, source_identity(src), p.commit));
    }
    p.origin = kernel_origin(spec, p.commit);
  } catch (const std::exception& e) {
    p.note = e.what();
    return p;
  }
  p.cached = entry_complete(entry_dir(cache_root, CacheKind::kernel, p.key));
  return p;
}

}  // namespace rlab::build
