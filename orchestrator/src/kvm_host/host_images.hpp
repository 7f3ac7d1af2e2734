#pragma once
// What the emulated arm64 KVM host boots (docs/kvm-host.md): the guests' own 64 KiB-page 6.12
// kernel (images/kernel/base.config has what a KVM host needs), and an ext4 root filesystem
// image of Debian arm64 userland (libvirt, QEMU, sshd; images/kvm-host/) with the ssh keys
// rlab reaches it with. Both are content-addressed cache entries under util::cache_dir().
#include "build/kernel_spec.hpp"
#include "build/progress.hpp"
#include "image/initramfs.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace rlab::kvm_host {

/// The host kernel: Debian's linux-source-6.12 (trixie), 64 KiB pages, base.config +
/// 64k.config — the default matrix's "6.12" guest kernel, so both share one cache entry
/// (base.config carries KVM, networking, cgroup v2 cpusets and seccomp for the host).
build::KernelSpec host_kernel_spec();

/// The recipe of the root filesystem image, read from images/kvm-host/: packages.txt (suite
/// and packages), prune.txt, init (installed as /sbin/rlab-host-init) and the files under
/// rootfs/ copied over the extracted userland (relative path, mode and contents, or a
/// symlink's target, in path order).
struct DiskRecipe {
  image::RootfsRecipe userland;  ///< suite, packages, prune list and init, as the guest's
  struct File {
    std::string path;     ///< relative to the root, '/'-separated
    unsigned mode = 0644; ///< permission bits; ignored for symlinks
    std::string data;     ///< contents, or the symlink's target
    bool symlink = false;
  };
  std::vector<File> files;
};

/// Reads the recipe from `dir` (images/kvm-host). Throws std::runtime_error naming the file
/// when one is missing or malformed (packages.txt as the guest's, image/initramfs.hpp).
DiskRecipe load_disk_recipe(const std::filesystem::path& dir);

/// The disk's cache key: SHA-256 of the recipe version, suite, packages, prune list, init
/// and every rootfs/ file (path, mode, contents). 64 hex digits.
std::string disk_key(const DiskRecipe& recipe);

/// A built root filesystem in the cache (<cache>/host-disks/<key>/).
struct HostDisk {
  std::filesystem::path image;        ///< root.img: raw ext4, booted read-only (snapshot=on)
  std::filesystem::path client_key;   ///< id_ed25519: the private key root's authorized_keys accepts
  std::string host_key;               ///< the sshd host key's public line ("ssh-ed25519 AAAA...")
  std::string key;                    ///< cache key (disk_key())
  bool cache_hit = false;
};

/// Returns the host disk, making it on a cache miss: `mmdebstrap --variant=extract` of the
/// packages from the host's Debian mirror, the prune list, rootfs/ and init copied in, a
/// fresh ed25519 host key and client key (`ssh-keygen`), then `mkfs.ext4 -d` into a sparse
/// 4 GiB image. Throws std::runtime_error naming the failing step.
HostDisk ensure_host_disk(const build::Progress& progress = {});

}  // namespace rlab::kvm_host
