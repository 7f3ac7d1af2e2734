#pragma once
// Test support: a libvirtd that shares no filesystem and no network stack with rlab, as a
// host on another machine would: its own network namespace `rlab-iso-<pid>` joined to this
// one by a veth pair on addresses the test creates (10.203.<k>.1 here, .2 there), and its own
// mount namespace (orchestrator/tests/run/data/isolated-libvirtd.sh) where rlab's checkout,
// build, caches, /tmp and /var/tmp are empty. Reached as qemu+tcp://10.203.<k>.2/system
// without authentication. Its storage pool "default" (a directory in its private
// /var/lib/libvirt) is defined by define_pool(). Header-only.
#include "daemon_spawn.hpp"
#include "util/process.hpp"
#include "vm/libvirt.hpp"

#include <libvirt/libvirt.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace rlab::testing {

class IsolatedLibvirtd {
 public:
  /// Creates the namespace, the veth pair and the config under `dir`, and starts the daemon
  /// hiding `hide` (and /tmp, /var/tmp) from it. up() says whether it answers.
  IsolatedLibvirtd(const std::filesystem::path& dir, const std::vector<std::filesystem::path>& hide)
      : dir_(dir), k_(20 + ::getpid() % 200), ns_("rlab-iso-" + std::to_string(::getpid())) {
    const std::string v = "rli" + std::to_string(::getpid() % 100000);
    host_if_ = v + "h";
    std::filesystem::create_directories(dir_ / "etc");
    std::ofstream(dir_ / "etc" / "libvirtd.conf")
        << "listen_tls = 0\nlisten_tcp = 1\nlisten_addr = \"" << address() << "\"\n"
        << "auth_tcp = \"none\"\nunix_sock_dir = \"/run/libvirt\"\n";
    std::ofstream(dir_ / "etc" / "qemu.conf") << "stdio_handler = \"file\"\n";
    const std::string net = "10.203." + std::to_string(k_) + ".";
    for (const auto& cmd : std::vector<std::vector<std::string>>{
             {"ip", "netns", "add", ns_},
             {"ip", "link", "add", host_if_, "type", "veth", "peer", "name", v + "g"},
             {"ip", "link", "set", v + "g", "netns", ns_},
             {"ip", "addr", "add", net + "1/24", "dev", host_if_},
             {"ip", "link", "set", host_if_, "up"},
             {"ip", "netns", "exec", ns_, "ip", "addr", "add", net + "2/24", "dev", v + "g"},
             {"ip", "netns", "exec", ns_, "ip", "link", "set", v + "g", "up"},
             {"ip", "netns", "exec", ns_, "ip", "link", "set", "lo", "up"}}) {
      auto r = util::run(cmd);
      if (!r.ok()) {
        for (const auto& a : cmd) setup_error_ += a + " ";
        setup_error_ += ": " + r.output;
        return;
      }
    }
    std::vector<std::string> argv{"ip", "netns", "exec", ns_, "unshare", "-m", "bash",
                                  (std::filesystem::path(RLAB_SOURCE_DIR) / "orchestrator/tests/run/data/isolated-libvirtd.sh").string(),
                                  (dir_ / "etc").string()};
    for (const auto& h : hide) argv.push_back(h.string());
    pid_ = spawn_logged(argv, dir_ / "libvirtd.log");
    up_ = wait_answering(pid_, uri());
  }
  ~IsolatedLibvirtd() {
    kill_all();
    util::run({"ip", "netns", "del", ns_});  // takes the veth pair with it
    util::run({"ip", "link", "del", host_if_});
  }
  IsolatedLibvirtd(const IsolatedLibvirtd&) = delete;
  IsolatedLibvirtd& operator=(const IsolatedLibvirtd&) = delete;

  bool up() const { return up_; }
  /// Why it is not up: the failed setup command, or the daemon's log.
  std::string why() const { return setup_error_.empty() ? log() : setup_error_; }
  std::string address() const { return "10.203." + std::to_string(k_) + ".2"; }
  std::string uri() const { return "qemu+tcp://" + address() + "/system"; }
  pid_t pid() const { return pid_; }
  std::string log() const {
    std::ifstream in(dir_ / "libvirtd.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  /// Whether `p` exists in the daemon's mount namespace (seen through /proc/<pid>/root).
  bool sees(const std::filesystem::path& p) const {
    std::error_code ec;
    return std::filesystem::exists(std::filesystem::path("/proc") / std::to_string(pid_) / "root" /
                                       p.relative_path(), ec);
  }

  /// Defines and starts the transient directory pool "default" at /var/lib/libvirt/images
  /// (built: created there). Returns libvirt's error, "" on success.
  std::string define_pool() const {
    vm::Connection c(uri());
    const char* xml =
        "<pool type='dir'><name>default</name><target><path>/var/lib/libvirt/images</path></target></pool>";
    virStoragePoolPtr p = virStoragePoolCreateXML(static_cast<virConnectPtr>(c.raw()), xml,
                                                  VIR_STORAGE_POOL_CREATE_WITH_BUILD);
    if (!p) return vm::last_libvirt_error();
    virStoragePoolFree(p);
    return "";
  }

  /// Names of the volumes of pool "default" (refreshed first).
  std::vector<std::string> volumes() const {
    vm::Connection c(uri());
    std::vector<std::string> out;
    virStoragePoolPtr p = virStoragePoolLookupByName(static_cast<virConnectPtr>(c.raw()), "default");
    if (!p) return out;
    virStoragePoolRefresh(p, 0);
    virStorageVolPtr* vols = nullptr;
    const int n = virStoragePoolListAllVolumes(p, &vols, 0);
    for (int i = 0; i < n; ++i) {
      out.emplace_back(virStorageVolGetName(vols[i]));
      virStorageVolFree(vols[i]);
    }
    std::free(vols);
    virStoragePoolFree(p);
    return out;
  }

  /// Active domains of the daemon whose names start with `prefix`.
  std::vector<std::string> domains(const std::string& prefix) const {
    vm::Connection c(uri());
    return c.active_domains(prefix);
  }

  /// SIGKILLs every process of the namespace (the daemon and its QEMU): a host that lost power.
  void kill_all() {
    auto r = util::run({"ip", "netns", "pids", ns_});
    std::istringstream in(r.output);
    for (pid_t p; in >> p;) ::kill(p, SIGKILL);
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  std::filesystem::path dir_;
  int k_;
  std::string ns_;
  std::string host_if_;
  std::string setup_error_;
  pid_t pid_ = -1;
  bool up_ = false;
};

}  // namespace rlab::testing
