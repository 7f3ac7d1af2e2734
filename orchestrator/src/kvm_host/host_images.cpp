#include "kvm_host/host_images.hpp"

#include "build/apt_source.hpp"
#include "build/artifact_cache.hpp"
#include "build/kernel_build.hpp"
#include "build/run_options.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>

namespace rlab::kvm_host {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kDiskRecipeVersion = 2;  // 2: etc/apt/sources.list names the mirror, signed-by the keyring
constexpr const char* kDiskSize = "4G";  // sparse; the pool of uploaded kernels and scratch disks lives here

fs::path recipe_dir() { return build::images_dir() / "kvm-host"; }

// Copies the recipe's rootfs/ files and init into `root`.
void install_files(const DiskRecipe& r, const fs::path& root) {
  for (const auto& f : r.files) {
    const fs::path to = root / f.path;
    fs::create_directories(to.parent_path());
    fs::remove(to);
    if (f.symlink) {
      fs::create_symlink(f.data, to);
    } else {
      util::write_file_atomic(to, f.data);
      fs::permissions(to, static_cast<fs::perms>(f.mode));
    }
  }
  const fs::path init = root / "sbin/rlab-host-init";
  fs::create_directories(init.parent_path());
  util::write_file_atomic(init, r.userland.init_script);
  fs::permissions(init, static_cast<fs::perms>(0755));
}

// A fresh ed25519 key pair at `path` (and path.pub); returns the public line.
std::string keygen(const fs::path& path, const std::string& comment) {
  util::run_checked({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path.string()},
                    build::run_options(std::chrono::seconds(60)));
  return util::trim_end(util::read_file(path.string() + ".pub"));
}

}  // namespace

build::KernelSpec host_kernel_spec() {
  build::KernelSpec k;
  k.name = "kvm-host";
  k.source.kind = build::KernelSource::Kind::kDebianPackage;
  k.source.debian_version = "6.12";
  k.source.debian_suite = "trixie";
  k.page_size_kib = 64;
  return k;
}

DiskRecipe load_disk_recipe(const fs::path& dir) {
  DiskRecipe r;
  r.userland = image::load_rootfs_recipe(dir);
  const fs::path top = dir / "rootfs";
  if (!fs::is_directory(top)) throw std::runtime_error(top.string() + " does not exist");
  for (const auto& e : fs::recursive_directory_iterator(top)) {
    if (e.is_directory() && !e.is_symlink()) continue;
    DiskRecipe::File f;
    f.path = e.path().lexically_relative(top).generic_string();  // not relative(): it follows links
    if (e.is_symlink()) {
      f.symlink = true;
      f.data = fs::read_symlink(e.path()).string();
    } else {
      f.data = util::read_file(e.path());
      f.mode = static_cast<unsigned>(fs::status(e.path()).permissions() & fs::perms::mask);
    }
    r.files.push_back(std::move(f));
  }
  std::sort(r.files.begin(), r.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return r;
}

std::string disk_key(const DiskRecipe& r) {
  util::Sha256 h;
  h.update("rlab-kvm-host-disk").update(std::to_string(kDiskRecipeVersion));
  h.update(r.userland.suite).update(std::to_string(r.userland.packages.size()));
  for (const auto& p : r.userland.packages) h.update(p);
  h.update(std::to_string(r.userland.prune.size()));
  for (const auto& p : r.userland.prune) h.update(p);
  if (!r.userland.keep.empty()) {  // none today: the host keeps what prune.txt leaves
    h.update("keep").update(std::to_string(r.userland.keep.size()));
    for (const auto& p : r.userland.keep) h.update(p);
  }
  h.update(r.userland.init_script).update(std::to_string(r.files.size()));
  for (const auto& f : r.files)
    h.update(f.path).update(f.symlink ? "->" : std::to_string(f.mode)).update(f.data);
  return h.hex();
}

HostDisk ensure_host_disk(const build::Progress& progress) {
  const DiskRecipe recipe = load_disk_recipe(recipe_dir());
  const std::string key = disk_key(recipe);
  auto [dir, hit] = build::ensure_entry(util::cache_dir(), build::CacheKind::host_disk, key, [&](const fs::path& staging) {
    const auto start = std::chrono::steady_clock::now();
    const std::string mirror = build::debian_mirror();
    const fs::path root = staging / "root";
    build::report(progress, "host-disk",
                  fmt::format("extracting {} arm64 packages and their dependencies from {} {}",
                              recipe.userland.packages.size(), mirror, recipe.userland.suite));
    image::extract_userland(recipe.userland, mirror, root);
    install_files(recipe, root);
    // apt on the host reads the archive the disk came from, signed by the keyring it unpacked.
    util::write_file_atomic(root / "etc/apt/sources.list",
                            fmt::format("deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] {} {} main\n",
                                        mirror, recipe.userland.suite));
    const std::string host_key = keygen(root / "etc/ssh/ssh_host_ed25519_key", "rlab-kvm-host");
    const std::string client_key = keygen(staging / "id_ed25519", "rlab");
    fs::create_directories(root / "root/.ssh");
    fs::permissions(root / "root/.ssh", static_cast<fs::perms>(0700));
    util::write_file_atomic(root / "root/.ssh/authorized_keys", client_key + "\n");
    fs::permissions(root / "root/.ssh/authorized_keys", static_cast<fs::perms>(0600));
    util::write_file_atomic(staging / "host_key.pub", host_key + "\n");
    build::report(progress, "host-disk", fmt::format("mkfs.ext4 -d into a sparse {} image", kDiskSize));
    util::run_checked({"mkfs.ext4", "-q", "-F", "-L", "rlab-kvm-host", "-E", "root_owner=0:0", "-d",
                       root.string(), (staging / "root.img").string(), kDiskSize},
                      build::run_options(std::chrono::seconds(900)));
    fs::remove_all(root);
    return json{{"kind", "host-disk"},
                {"key", key},
                {"suite", recipe.userland.suite},
                {"packages", recipe.userland.packages},
                {"mirror", mirror},
                {"host_key", host_key},
                {"build_seconds",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()},
                {"created", static_cast<long long>(std::time(nullptr))}};
  });
  build::report(progress, "cache", (hit ? "host disk cache hit " : "host disk built: ") + key.substr(0, 16));
  HostDisk d;
  d.image = dir / "root.img";
  d.client_key = dir / "id_ed25519";
  d.host_key = util::trim_end(util::read_file(dir / "host_key.pub"));
  d.key = key;
  d.cache_hit = hit;
  return d;
}

}  // namespace rlab::kvm_host
