#include "build/kernel_build.hpp"

#include "build/artifact_cache.hpp"
#include "build/kernel_config.hpp"
#include "build/kernel_source.hpp"
#include "build/patches.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "build/run_options.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
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

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

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
  auto staging = build_root / ("src.partial-" + std::to_string(::getpid()));
  fs::remove_all(staging);
  fs::create_directories(build_root);
  report(progress, "patch", "linking " + tree.dir.filename().string() + " into " + dir.string());
  util::run_checked({"cp", "-al", tree.dir.string(), staging.string()},
                    run_options(std::chrono::seconds(1800)));
  try {
    for (const auto& p : spec.patches) report(progress, "patch", "applying " + p.filename().string());
    apply_patches(staging, spec.patches);
  } catch (...) {
    fs::remove_all(staging);
    throw;
  }
  fs::rename(staging, dir);
  return dir;
}

// Runs make with output to `log`, reporting the newest output line every few seconds.
util::ProcessResult run_logged(const std::vector<std::string>& argv, const util::ProcessOptions& opts,
                               const Progress& progress) {
  std::atomic<bool> done{false};
  util::ProcessResult result;
  std::exception_ptr error;
  std::thread worker([&] {
    try {
      result = util::run(argv, opts);
    } catch (...) {
      error = std::current_exception();
    }
    done = true;
  });
  std::size_t lines = 0;
  std::streamoff offset = 0;
  std::string last;
  auto start = std::chrono::steady_clock::now();
  auto next = start;
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (!progress) continue;
    if (std::chrono::steady_clock::now() < next) continue;
    next = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    std::ifstream in(opts.log_file);
    in.seekg(offset);
    for (std::string line; std::getline(in, line);) {
      if (in.eof()) break;  // partial last line: read it next time
      offset += static_cast<std::streamoff>(line.size() + 1);
      ++lines;
      if (!line.empty()) last = line;
    }
    auto secs = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start);
    report(progress, "build", fmt::format("[{:>4}s, {} steps] {}", secs.count(), lines, trim(last)));
  }
  worker.join();
  if (error) std::rethrow_exception(error);
  return result;
}

KernelArtifact from_manifest(const fs::path& dir, const json& m, bool hit) {
  KernelArtifact a;
  a.image = dir / "Image";
  a.config = dir / "config";
  a.key = m.at("key").get<std::string>();
  a.release = m.at("kernel_release").get<std::string>();
  a.source_commit = m.at("source_commit").get<std::string>();
  a.config_sha256 = m.at("config_sha256").get<std::string>();
  a.page_size_kib = m.at("page_size_kib").get<unsigned>();
  a.cache_hit = hit;
  return a;
}

}  // namespace

fs::path images_dir() { return util::source_dir() / "images"; }

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

KernelArtifact ensure_kernel(const KernelSpec& spec, const Progress& progress) {
  const fs::path cache_root = util::cache_dir();
  auto fragments = fragment_paths(spec, images_dir());
  for (const auto& p : spec.patches)
    if (!fs::is_regular_file(p))
      throw std::runtime_error("kernel " + spec.name + ": patch " + p.string() + " does not exist");

  KernelKeyInputs in;
  auto tree = fetch_kernel_source(spec.source, cache_root, progress);
  in.source_identity = tree.identity;
  in.source_commit = tree.commit;
  in.page_size_kib = spec.page_size_kib;
  for (const auto& f : fragments) in.fragments.emplace_back(f.filename().string(), util::read_file(f));
  for (const auto& p : spec.patches) in.patches.emplace_back(p.filename().string(), util::read_file(p));
  in.toolchain = cross_toolchain_id();
  const std::string key = kernel_key(in);
  const fs::path dir = entry_dir(cache_root, "kernel", key);

  if (entry_complete(dir)) {
    report(progress, "cache", "kernel cache hit " + key.substr(0, 16));
    return from_manifest(dir, json::parse(util::read_file(dir / "manifest.json")), true);
  }
  CacheLock lock(cache_root, "kernel-" + key);
  if (entry_complete(dir))
    return from_manifest(dir, json::parse(util::read_file(dir / "manifest.json")), true);

  auto src = prepared_tree(tree, spec, cache_root / "kbuild" / key, progress);
  auto obj = cache_root / "kbuild" / key / "obj";
  fs::create_directories(cache_root / "ccache");
  std::map<std::string, std::string> env{
      {"ARCH", "arm64"},
      {"CROSS_COMPILE", kCross},
      {"CCACHE_DIR", (cache_root / "ccache").string()},
      // Paths below the cache are hashed relative to the working directory, so the same
      // file in another tree (a patched copy) or build directory still hits.
      {"CCACHE_BASEDIR", cache_root.string()},
      {"CCACHE_NOHASHDIR", "1"},
      {"KBUILD_BUILD_TIMESTAMP", "1970-01-01 00:00:00 UTC"},
      {"KBUILD_BUILD_USER", "rlab"},
      {"KBUILD_BUILD_HOST", "rlab"},
      {"LC_ALL", "C"}};
  std::vector<std::string> make_args{"ARCH=arm64", std::string("CROSS_COMPILE=") + kCross};
  if (util::find_program("ccache")) make_args.push_back(std::string("CC=ccache ") + kCross + "gcc");

  report(progress, "config", "allnoconfig + " + std::to_string(fragments.size()) + " fragments");
  configure_kernel(src, obj, fragments, make_args, env);

  unsigned jobs = build_jobs();
  auto log = obj / "build.log";
  fs::remove(log);
  std::vector<std::string> make{"make", "-C", src.string(), "O=" + obj.string()};
  make.insert(make.end(), make_args.begin(), make_args.end());
  make.insert(make.end(), {"-j" + std::to_string(jobs), "Image"});
  report(progress, "build", fmt::format("make -j{} Image in {}", jobs, obj.string()));
  auto r = run_logged(make, run_options(std::chrono::hours(6), {}, env, log), progress);
  if (!r.ok()) {
    // With parallel jobs the first error scrolls out of the log's tail: name it first.
    const std::string text = util::read_file(log);
    const auto err = std::min(text.find(": error: "), text.find(": fatal error: "));
    std::string first;
    if (err != std::string::npos) {
      const auto begin = text.rfind('\n', err);
      first = ": " + text.substr(begin == std::string::npos ? 0 : begin + 1,
                                 text.find('\n', err) - (begin == std::string::npos ? 0 : begin + 1));
    }
    throw std::runtime_error(fmt::format("kernel {}: make Image failed (exit {}){}; log {}:\n{}",
                                         spec.name, r.exit_code, first, log.string(),
                                         util::tail(text, 30)));
  }
  std::vector<std::string> rel{"make", "-s", "-C", src.string(), "O=" + obj.string()};
  rel.insert(rel.end(), make_args.begin(), make_args.end());
  rel.push_back("kernelrelease");
  std::string release = trim(util::run_checked(rel, run_options(std::chrono::seconds(300), {}, env)).output);
  if (auto nl = release.rfind('\n'); nl != std::string::npos) release = release.substr(nl + 1);

  auto staging = dir;
  staging += ".partial-" + std::to_string(::getpid());
  fs::remove_all(staging);
  fs::create_directories(staging);
  fs::copy_file(obj / "arch/arm64/boot/Image", staging / "Image");
  fs::copy_file(obj / ".config", staging / "config");
  fs::copy_file(log, staging / "build.log");
  json m{{"kind", "kernel"},
         {"key", key},
         {"name", spec.name},
         {"source_identity", tree.identity},
         {"source_commit", tree.commit},
         {"kernel_release", release},
         {"config_sha256", util::sha256_hex(util::read_file(obj / ".config"))},
         {"page_size_kib", spec.page_size_kib},
         {"patchset", spec.patchset},
         {"toolchain", in.toolchain},
         {"build_seconds", r.elapsed.count()},
         {"jobs", jobs},
         {"created", static_cast<long long>(std::time(nullptr))}};
  for (const auto& f : fragments) m["fragments"].push_back(f.string());
  m["patches"] = json::array();
  for (const auto& p : spec.patches) m["patches"].push_back(p.string());
  util::write_file_atomic(staging / "manifest.json", m.dump(2) + "\n");
  fs::remove_all(dir);
  fs::rename(staging, dir);
  report(progress, "cache", fmt::format("kernel {} built in {:.0f} s: {}", release, r.elapsed.count(),
                                        key.substr(0, 16)));
  return from_manifest(dir, m, false);
}

}  // namespace rlab::build
