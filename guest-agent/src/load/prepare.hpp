#pragma once
// `prepare`: find the disk under test, mkfs it, mount it.
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "load/children.hpp"
#include "rlab/protocol/messages.hpp"

namespace rlab::agent {

/// The block device whose /sys/block/<name>/serial equals `serial` (trailing whitespace
/// ignored), as "<dev_dir>/<name>"; nullopt when none. `sys_block` is normally /sys/block.
std::optional<std::string> find_disk_by_serial(const std::string& serial,
                                               const std::filesystem::path& sys_block = "/sys/block",
                                               const std::filesystem::path& dev_dir = "/dev");

/// mount(2) flags and the filesystem-specific data string from a comma separated option
/// list ("noatime,inode64" -> MS_NOATIME, "inode64").
struct MountOptions {
  unsigned long flags = 0;
  std::string data;
};
MountOptions parse_mount_options(const std::string& options);

/// The last `lines` messages of the kernel log (/dev/kmsg), oldest first; empty when
/// unreadable. mount(2) failures carry it: the filesystem explains itself there.
std::string kernel_log_tail(std::size_t lines);

/// Runs one prepare request asynchronously: mkfs (-f for xfs, -F for ext4, then the given
/// options and the device), then mount(2). Reports exactly once through `done`: a Prepared,
/// or an Error (code failed) carrying the tool's own output or the syscall's error.
class PrepareJob {
 public:
  using Done = std::function<void(protocol::AgentMessage)>;
  PrepareJob(Children& children, protocol::Prepare req, Done done);
  /// Starts mkfs; may call `done` synchronously when the request cannot start.
  void start();

 private:
  void mkfs_exited(int status);
  void fail(const std::string& message);
  Children& children_;
  protocol::Prepare req_;
  Done done_;
  std::string device_;
  std::unique_ptr<MemFile> output_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace rlab::agent
