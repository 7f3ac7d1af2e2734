// rlab-agent: the guest side of rlab. Serves the agent protocol (docs/protocol.md) on the
// virtio-serial port, a device path or a unix socket; runs prepare (mkfs + mount) and the
// shell1/shell8 load; streams counters. See docs/agent.md.
#include <signal.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/un.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "serve/agent.hpp"
#include "serve/links.hpp"
#include "serve/pid1.hpp"
#include "rlab/protocol/codec.hpp"
#include "serve/sysinfo.hpp"

namespace {

constexpr const char* kDefaultDevice = "/dev/virtio-ports/org.rlab.agent.0";

/// PID 1 must never exit: the kernel would panic. Power off instead.
[[noreturn]] void leave(int code) {
  if (::getpid() == 1) {
    ::sync();
    ::reboot(RB_POWER_OFF);
  }
  std::exit(code);
}

/// `--listen`'s check: unix:PATH with a path a unix socket address holds. An empty path would
/// bind an unreachable autobind socket; a long one fails bind() with a bare "File name too
/// long" (sockaddr_un::sun_path holds 107 bytes and a NUL).
std::string check_listen(const std::string& listen) {
  if (listen.rfind("unix:", 0) != 0) return "expected unix:PATH, got \"" + listen + "\"";
  const std::size_t max = sizeof(sockaddr_un{}.sun_path) - 1;
  if (listen.size() == 5 || listen.size() - 5 > max)
    return "unix socket path must be 1.." + std::to_string(max) + " bytes, got " +
           std::to_string(listen.size() - 5) + " in \"" + listen + "\"";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  std::string device = kDefaultDevice, listen;
  bool hello = false, version = false;
  rlab::agent::Agent::Options opts;
  CLI::App app{"rlab-agent: the guest side of rlab (docs/agent.md)", "rlab-agent"};
  app.add_option("--device", device, "serve on a character device")->capture_default_str();
  app.add_option("--listen", listen, "serve on a unix socket, unix:PATH (one host at a time)")
      ->check([](const std::string& v) { return check_listen(v); });
  app.add_flag("--poweroff", opts.allow_poweroff, "power off on shutdown even when not PID 1");
  app.add_flag("--hello", hello, "print the hello message and exit");
  app.add_flag("--version", version, "print the agent and protocol versions and exit");
  app.get_option("--device")->excludes("--listen");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help (code 0) or the error and usage
    leave(code == 0 ? 0 : 2);
  }
  if (version) {
    std::printf("rlab-agent %s (protocol %d)\n", rlab::agent::kAgentVersion, rlab::protocol::kProtocolVersion);
    return 0;
  }
  if (hello) {
    std::fputs(rlab::protocol::encode(rlab::protocol::AgentMessage{rlab::agent::collect_hello()}).c_str(), stdout);
    return 0;
  }

  rlab::agent::setup_as_init();  // started as the kernel's rdinit: mount what /init would have
  ::signal(SIGPIPE, SIG_IGN);
  // One perf counter per CPU per event when hist triggers are absent: lift the fd limit.
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    rl.rlim_cur = rl.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &rl);
  }

  try {
    boost::asio::io_context io;
    rlab::agent::Children children(io);
    rlab::agent::Agent agent(io, children, opts);
    std::unique_ptr<rlab::agent::UnixServer> unix_server;
    std::unique_ptr<rlab::agent::DeviceServer> device_server;
    if (!listen.empty()) unix_server = std::make_unique<rlab::agent::UnixServer>(io, listen.substr(5), agent);
    else device_server = std::make_unique<rlab::agent::DeviceServer>(io, device, agent);
    io.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rlab-agent: %s\n", e.what());
    leave(1);
  }
  leave(0);
}
