// rlab-agent: the guest side of rlab. Serves the agent protocol (docs/protocol.md) on the
// virtio-serial port, a device path or a unix socket; runs prepare (mkfs + mount) and the
// shell1/shell8 load; streams counters. See docs/agent.md.
#include <signal.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "agent.hpp"
#include "links.hpp"
#include "rlab/protocol/codec.hpp"
#include "sysinfo.hpp"

namespace {

constexpr const char* kDefaultDevice = "/dev/virtio-ports/org.rlab.agent.0";

void usage(FILE* out) {
  std::fprintf(out,
               "usage: rlab-agent [--device PATH | --listen unix:PATH] [--poweroff]\n"
               "       rlab-agent --hello | --version\n"
               "  --device PATH       serve on a character device (default %s)\n"
               "  --listen unix:PATH  serve on a unix socket (one host at a time)\n"
               "  --poweroff          power off on shutdown even when not PID 1\n"
               "  --hello             print the hello message and exit\n",
               kDefaultDevice);
}

/// PID 1 must never exit: the kernel would panic. Power off instead.
[[noreturn]] void leave(int code) {
  if (::getpid() == 1) {
    ::sync();
    ::reboot(RB_POWER_OFF);
  }
  std::exit(code);
}

}  // namespace

int main(int argc, char** argv) {
  std::string device = kDefaultDevice, listen;
  rlab::agent::Agent::Options opts;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "rlab-agent: %s needs a value\n", name);
        usage(stderr);
        leave(2);
      }
      return argv[++i];
    };
    if (a == "--device") device = value("--device");
    else if (a == "--listen") listen = value("--listen");
    else if (a == "--poweroff") opts.allow_poweroff = true;
    else if (a == "--version") {
      std::printf("rlab-agent %s (protocol %d)\n", rlab::agent::kAgentVersion, rlab::protocol::kProtocolVersion);
      return 0;
    } else if (a == "--hello") {
      std::fputs(rlab::protocol::encode(rlab::protocol::AgentMessage{rlab::agent::collect_hello()}).c_str(), stdout);
      return 0;
    } else if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "rlab-agent: unknown argument \"%s\"\n", a.c_str());
      usage(stderr);
      leave(2);
    }
  }
  if (!listen.empty() && listen.rfind("unix:", 0) != 0) {
    std::fprintf(stderr, "rlab-agent: --listen: expected unix:PATH, got \"%s\"\n", listen.c_str());
    leave(2);
  }
  // An empty path would bind an unreachable autobind socket; a long one fails bind() with a
  // bare "File name too long". sockaddr_un::sun_path holds 107 bytes and a NUL.
  if (!listen.empty() && (listen.size() == 5 || listen.size() - 5 > sizeof(sockaddr_un{}.sun_path) - 1)) {
    std::fprintf(stderr, "rlab-agent: --listen: unix socket path must be 1..%zu bytes, got %zu in \"%s\"\n",
                 sizeof(sockaddr_un{}.sun_path) - 1, listen.size() - 5, listen.c_str());
    leave(2);
  }

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
