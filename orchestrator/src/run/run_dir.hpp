#pragma once
// Where a run's per-cell files live: console logs, agent sockets, the scratch disks and the
// guest images QEMU boots. QEMU runs as its own user (libvirt's DAC label, e.g.
// libvirt-qemu), so these directories must be reachable by that user: the run directory sits
// next to the results store when every parent is traversable by others, else under
// shared_run_base() (/var/tmp/rlab for root, /var/tmp/rlab-<uid> for any other user).
#include "image/guest_images.hpp"
#include "vm/libvirt.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlab::run {

/// The label of run `run` of store `db`: "<run id>.<6 hex of sha256(absolute store path)>",
/// in its libvirt domain names and its directory's name. Run ids count per store, so the
/// store's tag keeps two stores' runs (their guests, files and cleanup) apart.
std::string run_label(long long run, const std::filesystem::path& db);

/// Where run directories go when the store's directory is not reachable by QEMU's user:
/// /var/tmp/rlab when this process is root, /var/tmp/rlab-<euid> otherwise (a directory that
/// root or another user made first would not be writable).
std::filesystem::path shared_run_base();

/// Per-run directory layout.
class RunDir {
 public:
  /// Chooses and creates the directory of run `run_id`: <dir of results_db>/runs/<label> when
  /// reachable by others, else shared_run_base()/runs/<label> (label: run_label()). `owner`: QEMU's uid/gid; when set
  /// (and we are root), per-cell directories are handed to it.
  RunDir(const std::filesystem::path& results_db, long long run_id,
         std::optional<vm::QemuOwner> owner);
  /// Removes "<run>/images": the staged copies (20–30 MB a kernel) are only needed while this
  /// run's guests boot, and a resumed run stages them again. Consoles and logs stay. Never throws.
  ~RunDir();
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;

  const std::filesystem::path& path() const { return root_; }

  /// Creates (empty) and returns the directory of boot `boot_id`: "<run>/b<boot_id>" (short,
  /// so the agent socket path stays under the 107-byte unix socket limit).
  std::filesystem::path boot_dir(long long boot_id) const;

  /// Copies `images`' kernel and initramfs into "<run>/images/<kernel key>-<image key>/" once
  /// (QEMU cannot read the cache under a private home) and returns the copy's paths.
  image::GuestImages stage(const image::GuestImages& images) const;

 private:
  std::filesystem::path root_;
  std::optional<vm::QemuOwner> owner_;
};

/// Removes the staged Image and initramfs copies ("<run>/images") of run `run` of store `db`,
/// wherever RunDir put them: what a run killed before its RunDir was destroyed leaves. Never
/// throws.
void remove_staged_images(const std::filesystem::path& db, std::int64_t run);

/// Removes the directories of runs `runs` of store `db`, wherever RunDir put them (beside the
/// store, or under shared_run_base()): their consoles, logs and leftovers. Returns how many were
/// there and went; one that cannot be removed is logged and skipped. Never throws.
std::size_t remove_run_dirs(const std::filesystem::path& db, const std::vector<std::int64_t>& runs);

/// Whether every directory from / to `dir` lets others search it (mode o+x), i.e. QEMU's
/// user can reach files below it.
bool reachable_by_others(const std::filesystem::path& dir);

}  // namespace rlab::run
