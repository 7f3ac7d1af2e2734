// rlab-agent-bench: the cost of the agent's instrumentation.
//   loops with sampling every 1 s / loops with sampling off (same machine, alternating A B B A
//   runs of one pass each), the agent's peak RSS, and the cost of one counter snapshot.
// Usage: rlab-agent-bench [--pairs N] [--duration S] [--copies C] [--workdir DIR]
//                         [--connect unix:PATH]   (an agent already serving there)
//                         [--guest]   (boot the 6.12 64K guest from rlab's image cache, or
//                                      $RLAB_GUEST_KERNEL + $RLAB_GUEST_INITRAMFS, under
//                                      qemu-system-aarch64; prepare XFS on its scratch disk)
//                         [--vcpus N] (with --guest, default 2)
//                         [--icount]  (with --guest: -icount shift=0,sleep=off, so guest time
//                                      counts executed instructions and host load drops out)
// Default: start the host-native agent.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "guest/images.hpp"
#include "guest/qemu_guest.hpp"
#include "harness.hpp"
#include "counters/sampler.hpp"

namespace rp = rlab::protocol;
using namespace rlab::agent::test;
using namespace std::chrono_literals;

namespace {

struct Args {
  int pairs = 5;
  double duration = 10;
  std::uint32_t copies = 2;
  std::string workdir;
  std::string connect;
  bool guest = false;
  bool icount = false;
  unsigned vcpus = 2;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (k == "--guest" || k == "--icount") {
      (k == "--guest" ? a.guest : a.icount) = true;
      continue;
    }
    if (i + 1 >= argc) throw std::runtime_error(k + " needs a value");
    std::string v = argv[++i];
    if (k == "--pairs") a.pairs = std::stoi(v);
    else if (k == "--duration") a.duration = std::stod(v);
    else if (k == "--copies") a.copies = static_cast<std::uint32_t>(std::stoul(v));
    else if (k == "--workdir") a.workdir = v;
    else if (k == "--connect") a.connect = v;
    else if (k == "--vcpus") a.vcpus = static_cast<unsigned>(std::stoul(v));
    else throw std::runtime_error("unknown argument " + k);
  }
  if (a.icount && !a.guest) throw std::runtime_error("--icount is a QEMU option: it needs --guest");
  return a;
}

struct RunResult {
  std::uint64_t loops = 0;
  double lpm = 0;
  std::uint64_t rss_kib = 0;
  double agent_cpu_s = 0;  ///< the agent's serving thread, whole run (result.agent_cpu_s)
};

RunResult one_run(Client& c, const Args& a, double interval, rp::RequestId id) {
  rp::Run r;
  r.id = id;
  r.copies = a.copies;
  r.passes = 1;
  r.duration_s = a.duration;
  r.workdir = a.workdir;
  r.sample_interval_s = interval;
  r.pause_s = 0;
  c.send(r);
  for (;;) {
    // Under -icount a guest second is 1e9 instructions per vCPU, many host seconds on a busy host.
    auto line = c.next_line(a.icount ? std::chrono::seconds(3600)
                                     : std::chrono::seconds(static_cast<int>(a.duration) + 120));
    if (!line) throw std::runtime_error("no result from the agent");
    auto m = rp::parse_agent_message(*line);
    if (auto* e = std::get_if<rp::ProtocolError>(&m)) throw std::runtime_error(e->message);
    const auto& msg = std::get<rp::AgentMessage>(m);
    if (auto* err = std::get_if<rp::Error>(&msg)) throw std::runtime_error("agent: " + err->message);
    if (auto* res = std::get_if<rp::Result>(&msg)) {
      if (res->failures) throw std::runtime_error("failed loops: " + res->failure_examples.at(0));
      return {res->passes.at(0).loops, res->passes.at(0).lpm, res->agent_max_rss_kib, res->agent_cpu_s};
    }
  }
}

}  // namespace

int main(int argc, char** argv) try {
  Args a = parse(argc, argv);
  std::unique_ptr<TempDir> tmp;
  std::unique_ptr<Process> agent;
  std::string sock;
  std::unique_ptr<QemuGuest> guest;
  if (a.guest) {
    tmp = std::make_unique<TempDir>();
    GuestSpec spec = guest_spec();
    spec.vcpus = a.vcpus;
    spec.icount = a.icount;
    guest = std::make_unique<QemuGuest>(spec, tmp->path);
    sock = guest->socket().string();
    if (a.workdir.empty()) a.workdir = "/mnt/test/work";
  } else if (a.connect.empty()) {
    tmp = std::make_unique<TempDir>();
    sock = (tmp->path / "agent.sock").string();
    agent = std::make_unique<Process>(std::vector<std::string>{agent_binary(), "--listen", "unix:" + sock});
    if (a.workdir.empty()) a.workdir = (tmp->path / "work").string();
  } else {
    if (a.connect.rfind("unix:", 0) != 0) throw std::runtime_error("--connect expects unix:PATH");
    sock = a.connect.substr(5);
    if (a.workdir.empty()) throw std::runtime_error("--workdir is required with --connect (a path in the guest)");
  }
  Client c = Client::connect_unix(sock, 60s);
  c.send(rp::HelloRequest{1, 1});
  for (;;) {  // the hello reply (a guest may take minutes to boot under TCG)
    auto line = c.next_line(600s);
    if (!line) throw std::runtime_error("no hello from the agent");
    auto m = rp::parse_agent_message(*line);
    if (auto* msg = std::get_if<rp::AgentMessage>(&m))
      if (auto* h = std::get_if<rp::Hello>(msg); h && h->id) {
        std::printf("agent: kernel %s, page size %llu, %u CPUs, tracepoints via %s%s\n", h->kernel_release.c_str(),
                    static_cast<unsigned long long>(h->page_size), h->nr_cpus, h->tracepoint_counting.c_str(),
                    a.icount ? "; QEMU -icount shift=0,sleep=off (guest time = instructions)" : "");
        break;
      }
  }
  if (guest) {
    rp::Prepare p;
    p.id = 2;
    p.serial = "rlab-test";
    p.fs = "xfs";
    p.mountpoint = "/mnt/test";
    c.send(p);
    auto line = c.next_line(600s);
    auto m = rp::parse_agent_message(line.value_or(""));
    auto* msg = std::get_if<rp::AgentMessage>(&m);
    if (!msg || !std::holds_alternative<rp::Prepared>(*msg)) throw std::runtime_error("prepare failed: " + line.value_or(""));
  }
  rp::RequestId id = 100;
  std::uint64_t on = 0, off = 0, rss = 0;
  double cpu_on = 0, cpu_off = 0;
  std::vector<double> ratios;
  for (int p = 0; p < a.pairs; ++p) {
    // A B, then B A: drift in the machine's speed cancels out over pairs.
    const bool on_first = p % 2 == 0;
    RunResult x = one_run(c, a, on_first ? 1.0 : 0.0, id++);
    RunResult y = one_run(c, a, on_first ? 0.0 : 1.0, id++);
    const RunResult& with = on_first ? x : y;
    const RunResult& without = on_first ? y : x;
    on += with.loops;
    off += without.loops;
    rss = std::max({rss, with.rss_kib, without.rss_kib});
    cpu_on += with.agent_cpu_s;
    cpu_off += without.agent_cpu_s;
    ratios.push_back(double(with.loops) / double(without.loops));
    std::printf("pair %d: sampling 1 Hz %llu loops, off %llu loops, ratio %.4f; agent CPU %.3f s / %.3f s\n", p,
                static_cast<unsigned long long>(with.loops), static_cast<unsigned long long>(without.loops),
                ratios.back(), with.agent_cpu_s, without.agent_cpu_s);
    std::fflush(stdout);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("total ratio (1 Hz / off): %.4f over %d pairs of %.0f s, %u copies; median pair ratio %.4f\n",
              double(on) / double(off), a.pairs, a.duration, a.copies, ratios[ratios.size() / 2]);
  // The instrument's own cost without loop quantisation: the agent's extra CPU with sampling.
  const double samples = a.pairs * std::floor(a.duration);
  std::printf("agent CPU (serving thread): sampling 1 Hz %.3f s, off %.3f s; per sample %.2f ms; "
              "%.3f%% of one CPU at 1 Hz\n",
              cpu_on, cpu_off, 1e3 * (cpu_on - cpu_off) / samples, 100 * (cpu_on - cpu_off) / (a.pairs * a.duration));
  std::printf("agent peak RSS: %llu KiB (result.agent_max_rss_kib)\n", static_cast<unsigned long long>(rss));
  if (guest) {
    c.send(rp::Shutdown{9, true});
    (void)c.next_line(60s);
    (void)guest->process().wait(std::chrono::seconds(120));
  }
  if (agent) std::printf("agent VmHWM: %llu KiB\n", static_cast<unsigned long long>(agent->peak_rss_kib()));

  if (a.connect.empty() && !a.guest) {
    // The cost of one sample: every counter source read and parsed once.
    rlab::agent::Sampler sampler(a.workdir);
    constexpr int kN = 200;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kN; ++i) (void)sampler.snapshot();
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kN;
    std::printf("one counter snapshot: %.0f us (tracepoints via %s)\n", us, sampler.tracepoints().method().c_str());
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "rlab-agent-bench: %s\n", e.what());
  return 1;
}
