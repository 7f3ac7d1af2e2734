// rlab-agent-bench: the cost of the agent's instrumentation.
//   loops with sampling every 1 s / loops with sampling off (same machine, alternating A B B A
//   runs of one pass each), the agent's peak RSS, and the cost of one counter snapshot.
// Usage: rlab-agent-bench [--pairs N] [--duration S] [--copies C] [--workdir DIR]
//                         [--connect unix:PATH]   (default: start the host-native agent)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "harness.hpp"
#include "sampler.hpp"

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
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (i + 1 >= argc) throw std::runtime_error(k + " needs a value");
    std::string v = argv[++i];
    if (k == "--pairs") a.pairs = std::stoi(v);
    else if (k == "--duration") a.duration = std::stod(v);
    else if (k == "--copies") a.copies = static_cast<std::uint32_t>(std::stoul(v));
    else if (k == "--workdir") a.workdir = v;
    else if (k == "--connect") a.connect = v;
    else throw std::runtime_error("unknown argument " + k);
  }
  return a;
}

struct RunResult {
  std::uint64_t loops = 0;
  double lpm = 0;
  std::uint64_t rss_kib = 0;
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
    auto line = c.next_line(std::chrono::seconds(static_cast<int>(a.duration) + 120));
    if (!line) throw std::runtime_error("no result from the agent");
    auto m = rp::parse_agent_message(*line);
    if (auto* e = std::get_if<rp::ProtocolError>(&m)) throw std::runtime_error(e->message);
    const auto& msg = std::get<rp::AgentMessage>(m);
    if (auto* err = std::get_if<rp::Error>(&msg)) throw std::runtime_error("agent: " + err->message);
    if (auto* res = std::get_if<rp::Result>(&msg)) {
      if (res->failures) throw std::runtime_error("failed loops: " + res->failure_examples.at(0));
      return {res->passes.at(0).loops, res->passes.at(0).lpm, res->agent_max_rss_kib};
    }
  }
}

}  // namespace

int main(int argc, char** argv) try {
  Args a = parse(argc, argv);
  std::unique_ptr<TempDir> tmp;
  std::unique_ptr<Process> agent;
  std::string sock;
  if (a.connect.empty()) {
    tmp = std::make_unique<TempDir>();
    sock = (tmp->path / "agent.sock").string();
    agent = std::make_unique<Process>(std::vector<std::string>{agent_binary(), "--listen", "unix:" + sock});
    if (a.workdir.empty()) a.workdir = (tmp->path / "work").string();
  } else {
    if (a.connect.rfind("unix:", 0) != 0) throw std::runtime_error("--connect expects unix:PATH");
    sock = a.connect.substr(5);
    if (a.workdir.empty()) throw std::runtime_error("--workdir is required with --connect (a path in the guest)");
  }
  Client c = Client::connect_unix(sock, 30s);
  c.send(rp::HelloRequest{1, 1});
  rp::RequestId id = 100;
  std::uint64_t on = 0, off = 0, rss = 0;
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
    ratios.push_back(double(with.loops) / double(without.loops));
    std::printf("pair %d: sampling 1 Hz %llu loops, off %llu loops, ratio %.4f\n", p,
                static_cast<unsigned long long>(with.loops), static_cast<unsigned long long>(without.loops),
                ratios.back());
    std::fflush(stdout);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("total ratio (1 Hz / off): %.4f over %d pairs of %.0f s, %u copies; median pair ratio %.4f\n",
              double(on) / double(off), a.pairs, a.duration, a.copies, ratios[ratios.size() / 2]);
  std::printf("agent peak RSS: %llu KiB (getrusage ru_maxrss)\n", static_cast<unsigned long long>(rss));
  if (agent) std::printf("agent VmHWM: %llu KiB\n", static_cast<unsigned long long>(agent->peak_rss_kib()));

  if (a.connect.empty()) {
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
