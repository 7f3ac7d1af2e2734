#pragma once
// Files of a boot on a host that shares no filesystem with rlab, through the host's libvirt
// storage: one directory-backed pool (type dir, fs or netfs: QEMU opens the kernel and the
// console log as files) holds rlab's volumes. Kernel and initramfs are uploaded once per
// content (virStorageVolUpload, named by their SHA-256) and reused by every later boot and
// run; each boot's scratch disk and console log are volumes of their own, created before the
// domain and deleted after it. Volume names start with kVolumePrefix, so a sweep can find
// what a dead run left.
#include "vm/libvirt.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::vm {

/// Prefix of every volume rlab creates ("rlab-").
inline constexpr std::string_view kVolumePrefix = "rlab-";

/// One storage pool on one host. Thread-safe (uploads of the same content are made once, also
/// across rlab processes on this machine: a lock file per host, pool and volume in
/// $TMPDIR/rlab-volume-locks-<uid>).
class StoragePool {
 public:
  /// Looks up the pool `name` on `conn` (which must outlive this). Throws LibvirtError naming
  /// the host and the pool when it does not exist (with the virsh commands that define one,
  /// `-c <uri>` included), is not active, is not directory-backed (its type named), or its
  /// directory cannot be read (a refresh fails).
  StoragePool(Connection& conn, std::string name);

  const std::string& name() const { return name_; }
  /// The pool's directory on the host (`<target><path>`).
  const std::filesystem::path& dir() const { return dir_; }

  /// The host path of a volume holding the bytes of local file `file`: the volume
  /// "rlab-<first 24 hex of sha256(content)>-<file name>", uploaded when the pool does not
  /// hold it yet at the file's size (an upload cut short is replaced). Throws LibvirtError
  /// (the host's refusal, a broken stream) or std::system_error (the local file).
  std::filesystem::path upload(const std::filesystem::path& file);

  /// Creates volume `name` (kVolumePrefix first) of `bytes` capacity, raw and sparse, replacing
  /// one of that name left behind; returns its host path. Throws LibvirtError.
  std::filesystem::path create(const std::string& name, std::uint64_t bytes);

  /// Copies volume `name`'s content to local file `to` (truncated first). Throws LibvirtError
  /// when the volume does not exist or the download fails, std::system_error for `to`.
  void download(const std::string& name, const std::filesystem::path& to);

  /// Deletes volume `name`; false when there is none. Throws LibvirtError when it exists and
  /// cannot be deleted.
  bool remove(const std::string& name);

  /// Names of the pool's volumes starting with `prefix` (after a refresh of the pool).
  std::vector<std::string> volumes(std::string_view prefix);

  /// Deletes the content volumes (upload()'s, each with its ".ok" marker) last used more than
  /// `unused_for` ago — the marker's mtime on the host, renewed by every upload() that finds
  /// the volume — except those this object uploaded or found. Returns how many content
  /// volumes went. Throws LibvirtError when the pool cannot be listed; a volume that cannot
  /// be deleted is logged and kept.
  std::size_t thin(std::chrono::seconds unused_for);

  /// Bytes uploaded by this object so far (files found already uploaded count 0).
  std::uint64_t uploaded_bytes() const;

 private:
  Connection& conn_;
  std::string name_;
  std::filesystem::path dir_;
  mutable std::mutex mu_;
  std::uint64_t uploaded_ = 0;
  std::set<std::string> used_;  ///< content volumes upload() returned
};

/// The volume name upload() gives `file`: "rlab-<24 hex of sha256(content)>-<file name>",
/// the file name cut to 64 bytes and anything outside [A-Za-z0-9._-] made '_'.
std::string content_volume_name(const std::filesystem::path& file);

}  // namespace rlab::vm
