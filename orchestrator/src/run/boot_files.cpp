#include "run/boot_files.hpp"

#include "vm/console_sink.hpp"
#include "vm/disk.hpp"
#include "vm/storage.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <mutex>
#include <tuple>

namespace rlab::run {
namespace fs = std::filesystem;

namespace {

void remove_quietly(const fs::path& p) {
  std::error_code ec;
  if (!p.empty()) fs::remove(p, ec);
}

class PathFiles final : public BootFiles {
 public:
  vm::DomainSpec prepare(const vm::DomainSpec& local, std::uint64_t disk_bytes) override {
    if (!local.disk.empty()) vm::create_sparse_disk(local.disk, disk_bytes);
    if (::geteuid() == 0) return local;
    // Not root: the console log libvirt's log daemon would write is root's (mode 0600), so
    // rlab collects the console itself (vm/console_sink.hpp) from a socket beside the log.
    vm::DomainSpec host = local;
    host.console_socket = local.console_log.parent_path() / "console.sock";
    auto sink = std::make_unique<vm::ConsoleSink>(host.console_socket, local.console_log);
    std::lock_guard lock(mu_);
    sinks_[local.name] = std::move(sink);
    return host;
  }
  void finish(const vm::DomainSpec& local, const vm::DomainSpec&) override {
    {
      std::unique_ptr<vm::ConsoleSink> sink;  // destroyed outside the lock: it waits for QEMU's end
      std::lock_guard lock(mu_);
      if (auto it = sinks_.find(local.name); it != sinks_.end()) sink = std::move(it->second), sinks_.erase(it);
    }
    // A QEMU that was killed (not stopped) leaves its agent socket behind.
    remove_quietly(local.disk);
    remove_quietly(local.agent_socket);
  }
  std::size_t sweep(const std::string&) override { return 0; }  // in the run directory
  std::size_t thin() override { return 0; }                     // the cache's budget
  std::string describe() const override { return "paths"; }

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<vm::ConsoleSink>> sinks_;  ///< by domain name, while it runs
};

class VolumeFiles final : public BootFiles {
 public:
  VolumeFiles(vm::Connection& conn, const std::string& pool) : pool_(conn, pool) {}

  vm::DomainSpec prepare(const vm::DomainSpec& local, std::uint64_t disk_bytes) override {
    vm::DomainSpec host = local;
    host.kernel = placed(local.kernel);
    host.initramfs = placed(local.initramfs);
    if (!local.disk.empty()) host.disk = pool_.create(local.name + "-fs.raw", disk_bytes);
    host.console_log = pool_.create(local.name + "-console.log", 0);
    return host;
  }

  void finish(const vm::DomainSpec& local, const vm::DomainSpec& host) override {
    const std::string console = local.name + "-console.log";
    try {
      if (host.console_log != local.console_log) pool_.download(console, local.console_log);
    } catch (const std::exception& e) {
      spdlog::warn("{}: console log not copied back: {}", local.name, e.what());
    }
    for (const auto& name : {console, local.name + "-fs.raw"}) {
      try {
        pool_.remove(name);
      } catch (const std::exception& e) {
        spdlog::warn("{}: {}", local.name, e.what());
      }
    }
  }

  std::size_t sweep(const std::string& prefix) override {
    std::size_t n = 0;
    try {
      for (const auto& v : pool_.volumes(prefix)) n += pool_.remove(v) ? 1 : 0;
    } catch (const std::exception& e) {
      spdlog::warn("pool {}: {}", pool_.name(), e.what());
    }
    return n;
  }

  std::size_t thin() override {
    try {
      return pool_.thin(kContentKeep);
    } catch (const std::exception& e) {
      spdlog::warn("pool {}: {}", pool_.name(), e.what());
      return 0;
    }
  }

  std::string describe() const override {
    return fmt::format("volumes of pool {} ({})", pool_.name(), pool_.dir().string());
  }

 private:
  /// The host path of local file `f`, uploaded once per (path, size, mtime) in this process.
  fs::path placed(const fs::path& f) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0) throw std::system_error(errno, std::generic_category(), f.string());
    const auto key = std::make_tuple(f.string(), std::uint64_t(st.st_size), std::int64_t(st.st_mtim.tv_sec),
                                     std::int64_t(st.st_mtim.tv_nsec));
    {
      std::lock_guard lock(mu_);
      if (auto it = known_.find(key); it != known_.end()) return it->second;
    }
    fs::path p = pool_.upload(f);
    std::lock_guard lock(mu_);
    return known_[key] = p;
  }

  vm::StoragePool pool_;
  std::mutex mu_;
  std::map<std::tuple<std::string, std::uint64_t, std::int64_t, std::int64_t>, fs::path> known_;
};

}  // namespace

std::unique_ptr<BootFiles> path_files() { return std::make_unique<PathFiles>(); }

std::unique_ptr<BootFiles> volume_files(vm::Connection& conn, const std::string& pool) {
  return std::make_unique<VolumeFiles>(conn, pool);
}

std::unique_ptr<BootFiles> boot_files(const matrix::Host& h, vm::Connection& conn) {
  if (h.files == matrix::HostFiles::kVolumes) return volume_files(conn, h.pool);
  return path_files();
}

}  // namespace rlab::run
