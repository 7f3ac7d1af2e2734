#pragma once
// How a boot's files reach the host that runs it (`hosts[].files`, docs/matrix.md "hosts"):
// rlab's own paths (the run directory; this machine or a shared mount), or volumes of a
// storage pool on the host (vm/storage.hpp), where nothing of rlab's filesystem is seen.
#include "matrix/matrix.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace rlab::run {

/// How long a host keeps an uploaded kernel or initramfs no run has used (14 days): a nightly
/// lab that builds a kernel a night keeps two weeks of them (~30 MB each) on each remote host.
inline constexpr std::chrono::hours kContentKeep{24 * 14};

/// One host's way of placing boot files. Thread-safe: the boots of a host share it.
class BootFiles {
 public:
  virtual ~BootFiles() = default;
  /// The spec the host opens for `local` (domain_spec()'s, with rlab's paths): its kernel and
  /// initramfs placed (uploaded once per content for volumes), the scratch disk created with
  /// `disk_bytes` (when local.disk is set) and the console log's place. Throws
  /// vm::LibvirtError (the host refused) or std::system_error (a local file).
  virtual vm::DomainSpec prepare(const vm::DomainSpec& local, std::uint64_t disk_bytes) = 0;
  /// After the domain is gone: the console log is at local.console_log (copied back from the
  /// host for volumes), the scratch disk and the agent socket are removed. Never throws (what
  /// cannot be removed is logged; sweep() finds it later).
  virtual void finish(const vm::DomainSpec& local, const vm::DomainSpec& host) = 0;
  /// Removes host-side files of boots whose domain names start with `prefix` (a run killed
  /// outright leaves them); returns how many. Never throws.
  virtual std::size_t sweep(const std::string& prefix) = 0;
  /// After a run: removes what the host keeps for later runs but nobody used for
  /// kContentKeep (volumes: the uploaded kernels and initramfs, StoragePool::thin; paths:
  /// nothing, the cache's budget covers them). Returns how many went. Never throws.
  virtual std::size_t thin() = 0;
  /// "paths" or "volumes of pool <name>" for people.
  virtual std::string describe() const = 0;
};

/// rlab's paths: prepare() creates the sparse disk file and returns `local` unchanged.
std::unique_ptr<BootFiles> path_files();

/// Volumes of `pool` on `conn` (which must outlive it). Throws vm::LibvirtError when the pool
/// cannot be used (vm::StoragePool).
std::unique_ptr<BootFiles> volume_files(vm::Connection& conn, const std::string& pool);

/// The files of matrix host `h` on `conn`.
std::unique_ptr<BootFiles> boot_files(const matrix::Host& h, vm::Connection& conn);

}  // namespace rlab::run
