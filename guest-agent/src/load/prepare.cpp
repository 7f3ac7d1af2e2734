#include "load/prepare.hpp"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <cstring>

#include "common/fileio.hpp"

namespace rlab::agent {
namespace fs = std::filesystem;

std::optional<std::string> find_disk_by_serial(const std::string& serial, const fs::path& sys_block,
                                               const fs::path& dev_dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sys_block, ec)) {
    auto text = read_file(e.path() / "serial");
    if (!text) continue;
    while (!text->empty() && (text->back() == '\n' || text->back() == ' ' || text->back() == '\0')) text->pop_back();
    if (*text == serial) return (dev_dir / e.path().filename()).string();
  }
  return std::nullopt;
}

MountOptions parse_mount_options(const std::string& options) {
  static const std::pair<const char*, unsigned long> kFlags[] = {
      {"ro", MS_RDONLY},         {"nosuid", MS_NOSUID},         {"nodev", MS_NODEV},
      {"noexec", MS_NOEXEC},     {"sync", MS_SYNCHRONOUS},      {"dirsync", MS_DIRSYNC},
      {"noatime", MS_NOATIME},   {"nodiratime", MS_NODIRATIME}, {"relatime", MS_RELATIME},
      {"strictatime", MS_STRICTATIME}, {"lazytime", MS_LAZYTIME}};
  MountOptions m;
  std::size_t start = 0;
  while (start <= options.size()) {
    auto end = options.find(',', start);
    if (end == std::string::npos) end = options.size();
    const std::string opt = options.substr(start, end - start);
    start = end + 1;
    if (opt.empty() || opt == "rw" || opt == "defaults") continue;
    bool flag = false;
    for (const auto& [name, bit] : kFlags)
      if (opt == name) {
        m.flags |= bit;
        flag = true;
      }
    if (!flag) m.data += (m.data.empty() ? "" : ",") + opt;
  }
  return m;
}

std::string kernel_log_tail(std::size_t lines) {
  // /dev/kmsg: one record per read(2), "<prio>,<seq>,<usec>,<flags>;<text>\n[continuations]".
  int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {};
  std::deque<std::string> last;
  char rec[8192];
  for (;;) {
    ssize_t n = ::read(fd, rec, sizeof rec);
    if (n < 0 && errno == EPIPE) continue;  // overwritten record: skip
    if (n <= 0) break;
    std::string_view r(rec, static_cast<std::size_t>(n));
    auto semi = r.find(';');
    if (semi == std::string_view::npos) continue;
    r.remove_prefix(semi + 1);
    r = r.substr(0, r.find('\n'));
    last.emplace_back(r);
    if (last.size() > lines) last.pop_front();
  }
  ::close(fd);
  std::string out;
  for (const auto& l : last) out += l + "\n";
  return out;
}

PrepareJob::PrepareJob(Children& children, protocol::Prepare req, Done done)
    : children_(children), req_(std::move(req)), done_(std::move(done)) {}

void PrepareJob::fail(const std::string& message) {
  done_(protocol::Error{req_.id, protocol::ErrorCode::failed, message});
}

void PrepareJob::start() {
  t0_ = std::chrono::steady_clock::now();
  if (req_.device) {
    device_ = *req_.device;
  } else {
    auto found = find_disk_by_serial(*req_.serial);
    if (!found) return fail("prepare.serial: no disk in /sys/block has serial \"" + *req_.serial + "\"");
    device_ = *found;
  }
  struct stat st {};
  if (::stat(device_.c_str(), &st) != 0)
    return fail("prepare.device: " + device_ + ": " + std::strerror(errno));
  std::error_code ec;
  fs::create_directories(req_.mountpoint, ec);
  if (ec) return fail("prepare.mountpoint: cannot create " + req_.mountpoint + ": " + ec.message());
  // A previous prepare may have left it mounted; mkfs refuses a mounted device.
  while (::umount2(req_.mountpoint.c_str(), 0) == 0) {
  }

  const std::string tool = req_.fs == "xfs" ? "mkfs.xfs" : "mkfs.ext4";
  SpawnOptions o;
  o.argv = {find_program(tool), req_.fs == "xfs" ? "-f" : "-F"};
  o.argv.insert(o.argv.end(), req_.mkfs_options.begin(), req_.mkfs_options.end());
  o.argv.push_back(device_);
  o.env = {"LANG=C", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"};
  output_ = std::make_unique<MemFile>("rlab-mkfs");
  o.stdout_fd = output_->fd();
  o.stderr_fd = output_->fd();
  try {
    children_.spawn(o, [this](int st) { mkfs_exited(st); });
  } catch (const std::exception& e) {
    fail(std::string("prepare: ") + e.what());
  }
}

void PrepareJob::mkfs_exited(int status) {
  const std::string out = output_->contents();
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
    return fail("prepare: mkfs." + req_.fs + " on " + device_ + " failed (" + describe_status(status) + "):\n" + out);
  const MountOptions m = parse_mount_options(req_.mount_options);
  if (::mount(device_.c_str(), req_.mountpoint.c_str(), req_.fs.c_str(), m.flags,
              m.data.empty() ? nullptr : m.data.c_str()) != 0) {
    const int err = errno;
    return fail("prepare: mount(" + device_ + ", " + req_.mountpoint + ", " + req_.fs + ", \"" + req_.mount_options +
                "\"): " + std::strerror(err) + "; kernel log:\n" + kernel_log_tail(8));
  }
  protocol::Prepared p;
  p.id = req_.id;
  p.device = device_;
  p.fs = req_.fs;
  p.mkfs_output = out;
  p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  done_(std::move(p));
}

}  // namespace rlab::agent
