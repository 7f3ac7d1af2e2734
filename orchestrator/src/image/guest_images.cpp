#include "image/guest_images.hpp"

#include "build/apt_source.hpp"
#include "build/artifact_cache.hpp"
#include "build/kernel_build.hpp"
#include "image/initramfs.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <ctime>

namespace rlab::image {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct InitramfsArtifact {
  fs::path path;
  std::string key;
};

InitramfsArtifact ensure_initramfs(const fs::path& agent_binary, const Progress& progress) {
  auto recipe = load_rootfs_recipe(build::images_dir() / "rootfs");
  const std::string key = image_key(recipe, agent_binary);
  auto [dir, hit] = build::ensure_entry(util::cache_dir(), build::CacheKind::image, key, [&](const fs::path& staging) {
    auto start = std::chrono::steady_clock::now();
    std::string mirror = build::debian_mirror();
    build::report(progress, "initramfs",
                  fmt::format("extracting {} arm64 packages from {} {}", recipe.packages.size(),
                              mirror, recipe.suite));
    extract_userland(recipe, mirror, staging / "root");
    build::report(progress, "initramfs", "packing cpio");
    auto raw = pack_initramfs(recipe, staging / "root", agent_binary, staging / "initramfs.cpio");
    fs::remove_all(staging / "root");
    return json{{"kind", "image"},
                {"key", key},
                {"suite", recipe.suite},
                {"packages", recipe.packages},
                {"mirror", mirror},
                {"agent_binary", fs::absolute(agent_binary).string()},
                {"cpio_bytes", raw},
                {"build_seconds",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()},
                {"created", static_cast<long long>(std::time(nullptr))}};
  });
  build::report(progress, "cache", (hit ? "initramfs cache hit " : "initramfs built: ") + key.substr(0, 16));
  return {dir / "initramfs.cpio", key};
}

}  // namespace

GuestImages ensure_guest_images(const build::KernelSpec& spec, const fs::path& agent_binary,
                                const Progress& progress) {
  if (!fs::is_regular_file(agent_binary))
    throw std::runtime_error("guest agent binary " + agent_binary.string() +
                             " does not exist: build it with `cmake --preset aarch64-agent && "
                             "cmake --build build/aarch64` or set RLAB_AGENT_BINARY");
  auto kernel = build::ensure_kernel(spec, progress);
  auto initramfs = ensure_initramfs(agent_binary, progress);
  GuestImages g;
  g.kernel_image = kernel.image;
  g.initramfs = initramfs.path;
  g.kernel_key = kernel.key;
  g.image_key = initramfs.key;
  g.kernel_release = kernel.release;
  g.source_commit = kernel.source_commit;
  g.config_sha256 = kernel.config_sha256;
  g.page_size_kib = kernel.page_size_kib;
  g.kernel_origin = kernel.origin;
  return g;
}

fs::path default_agent_binary() {
  fs::path p;
  if (const char* e = std::getenv("RLAB_AGENT_BINARY"); e && *e) {
    p = e;
    if (!fs::is_regular_file(p))
      throw std::runtime_error("RLAB_AGENT_BINARY=" + p.string() + " does not exist");
    return p;
  }
  if (const auto prefix = util::installed_prefix()) {
    p = *prefix / "lib/rlab/rlab-agent";  // where `cmake --install` puts a built aarch64 agent
    if (!fs::is_regular_file(p))
      throw std::runtime_error("guest agent binary " + p.string() +
                               " does not exist: build it with `cmake --preset aarch64-agent && cmake --build "
                               "build/aarch64` before `cmake --install build/host`, or set RLAB_AGENT_BINARY");
    return p;
  }
  p = util::source_dir() / "build/aarch64/guest-agent/rlab-agent";
  if (!fs::is_regular_file(p))
    throw std::runtime_error("guest agent binary " + p.string() +
                             " does not exist: build it with `cmake --preset aarch64-agent && "
                             "cmake --build build/aarch64` (or set RLAB_AGENT_BINARY)");
  return p;
}

}  // namespace rlab::image
