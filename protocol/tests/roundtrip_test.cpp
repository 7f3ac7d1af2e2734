// Every message survives encode -> frame -> parse unchanged.
#include <gtest/gtest.h>

#include "rlab/protocol/protocol.hpp"

namespace rp = rlab::protocol;

namespace {

template <class Msg, class Variant>
Msg round_trip(const Msg& in) {
  const std::string line = rp::encode(Variant{in});
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one message, one line";
  rp::LineFramer framer;
  auto frames = framer.feed(line);
  EXPECT_EQ(frames.size(), 1u);
  const auto& text = std::get<std::string>(frames.at(0));
  if constexpr (std::is_same_v<Variant, rp::HostMessage>) {
    auto r = rp::parse_host_message(text);
    if (auto* e = std::get_if<rp::ProtocolError>(&r)) ADD_FAILURE() << e->message;
    return std::get<Msg>(std::get<rp::HostMessage>(r));
  } else {
    auto r = rp::parse_agent_message(text);
    if (auto* e = std::get_if<rp::ProtocolError>(&r)) ADD_FAILURE() << e->message;
    return std::get<Msg>(std::get<rp::AgentMessage>(r));
  }
}

rp::Counters sample_counters() {
  rp::Counters c;
  c.tracepoints = {{"xfs:xfs_inodegc_queue", 1234}, {"xfs:xfs_inodegc_worker", 0}};
  c.xfs_stats = {{"ig.0", 812}, {"vnodes.1", 40}};
  c.cpu = {{"user", 120}, {"system", 80}, {"idle", 3}};
  c.ctxt = 52000;
  c.forks = 3100;
  c.pressure = {{"cpu.some", 81234}};
  c.vmstat = {{"pgfault", 812345}, {"nr_free_pages", -120}};
  return c;
}

bool operator_eq(const rp::Counters& a, const rp::Counters& b) {
  return a.tracepoints == b.tracepoints && a.xfs_stats == b.xfs_stats && a.cpu == b.cpu && a.ctxt == b.ctxt &&
         a.forks == b.forks && a.pressure == b.pressure && a.vmstat == b.vmstat;
}

}  // namespace

TEST(RoundTrip, HostRequests) {
  auto h = round_trip<rp::HelloRequest, rp::HostMessage>({7, 1});
  EXPECT_EQ(h.id, 7u);
  EXPECT_EQ(h.protocol, 1);

  rp::Prepare p;
  p.id = 8;
  p.serial = "rlab-test";
  p.fs = "xfs";
  p.mkfs_options = {"-d", "agcount=4"};
  p.mount_options = "noatime,inode64";
  p.mountpoint = "/mnt/test";
  auto p2 = round_trip<rp::Prepare, rp::HostMessage>(p);
  EXPECT_EQ(p2.id, 8u);
  EXPECT_FALSE(p2.device.has_value());
  EXPECT_EQ(p2.serial, "rlab-test");
  EXPECT_EQ(p2.mkfs_options, p.mkfs_options);
  EXPECT_EQ(p2.mount_options, p.mount_options);
  EXPECT_EQ(p2.mountpoint, p.mountpoint);

  rp::Run r;
  r.id = 9;
  r.workload = "shell8";
  r.copies = 144;
  r.passes = 5;
  r.duration_s = 2.5;
  r.scripts_per_loop = 8;
  r.workdir = "/mnt/test/work";
  r.sample_interval_s = 0;
  r.pause_s = 0.25;
  r.drop_caches = true;
  auto r2 = round_trip<rp::Run, rp::HostMessage>(r);
  EXPECT_EQ(r2.id, 9u);
  EXPECT_EQ(r2.workload, "shell8");
  EXPECT_EQ(r2.copies, 144u);
  EXPECT_EQ(r2.passes, 5u);
  EXPECT_DOUBLE_EQ(r2.duration_s, 2.5);
  EXPECT_EQ(r2.scripts_per_loop, 8u);
  EXPECT_EQ(r2.workdir, r.workdir);
  EXPECT_DOUBLE_EQ(r2.sample_interval_s, 0);
  EXPECT_DOUBLE_EQ(r2.pause_s, 0.25);
  EXPECT_TRUE(r2.drop_caches);

  auto s = round_trip<rp::Shutdown, rp::HostMessage>({10, false});
  EXPECT_EQ(s.id, 10u);
  EXPECT_FALSE(s.poweroff);
}

TEST(RoundTrip, AgentMessages) {
  rp::Hello h;
  h.id = 3;
  h.agent_version = "0.1.0";
  h.kernel_release = "6.12.0-rlab";
  h.page_size = 65536;
  h.nr_cpus = 2;
  h.mem_total_kib = 2000000;
  h.tracepoints = {"xfs:xfs_inodegc_queue", "xfs:xfs_inodegc_worker"};
  h.hist_triggers = true;
  h.tracepoint_counting = "hist";
  h.xfs_stats = true;
  h.pid1 = true;
  auto h2 = round_trip<rp::Hello, rp::AgentMessage>(h);
  EXPECT_EQ(h2.id, 3u);
  EXPECT_EQ(h2.page_size, 65536u);
  EXPECT_EQ(h2.tracepoints, h.tracepoints);
  EXPECT_TRUE(h2.hist_triggers && h2.xfs_stats && h2.pid1);
  EXPECT_EQ(h2.tracepoint_counting, "hist");
  EXPECT_FALSE(h2.init_uptime_s || h2.agent_uptime_s || h2.uptime_s) << "absent: an agent that does not say";
  h.init_uptime_s = 0.81;
  h.agent_uptime_s = 0.84;
  h.uptime_s = 0.93;
  h2 = round_trip<rp::Hello, rp::AgentMessage>(h);
  EXPECT_DOUBLE_EQ(h2.init_uptime_s.value_or(-1), 0.81);
  EXPECT_DOUBLE_EQ(h2.agent_uptime_s.value_or(-1), 0.84);
  EXPECT_DOUBLE_EQ(h2.uptime_s.value_or(-1), 0.93);
  h.id.reset();
  EXPECT_FALSE((round_trip<rp::Hello, rp::AgentMessage>(h).id.has_value()));

  rp::Sample s{5, 1, 2.5, 17, 1, sample_counters()};
  auto s2 = round_trip<rp::Sample, rp::AgentMessage>(s);
  EXPECT_EQ(s2.pass, 1u);
  EXPECT_EQ(s2.loops, 17u);
  EXPECT_TRUE(operator_eq(s2.counters, s.counters));

  rp::PassReport p;
  p.id = 5;
  p.pass = 2;
  p.loops = 300;
  p.duration_s = 3.0;
  p.lpm = 6000;
  p.latency = {{0.01, 0.1}, {1, 2, 3}, 4.5, 0.3};
  p.counters = sample_counters();
  p.caches_dropped = true;
  rp::Result res;
  res.id = 5;
  res.workload = "shell1";
  res.score = 5999.5;
  res.passes = {p, p};
  res.failures = 2;
  res.failure_examples = {"sort: cannot read: sort.src: No such file or directory\n"};
  res.agent_max_rss_kib = 4096;
  res.agent_cpu_s = 0.125;
  auto res2 = round_trip<rp::Result, rp::AgentMessage>(res);
  ASSERT_EQ(res2.passes.size(), 2u);
  EXPECT_EQ(res2.passes[1].latency.counts, p.latency.counts);
  EXPECT_EQ(res2.passes[1].latency.bounds_s, p.latency.bounds_s);
  EXPECT_TRUE(operator_eq(res2.passes[1].counters, p.counters));
  EXPECT_DOUBLE_EQ(res2.score, 5999.5);
  EXPECT_EQ(res2.failure_examples, res.failure_examples);
  EXPECT_EQ(res2.agent_max_rss_kib, 4096u);
  EXPECT_EQ(res2.agent_cpu_s, 0.125);
  auto p2 = round_trip<rp::PassReport, rp::AgentMessage>(p);
  EXPECT_DOUBLE_EQ(p2.lpm, 6000);
  EXPECT_TRUE(p2.caches_dropped);
  EXPECT_TRUE(res2.passes[0].caches_dropped);

  auto e = round_trip<rp::Error, rp::AgentMessage>({11, rp::ErrorCode::busy, "a run is in progress"});
  EXPECT_EQ(e.code, rp::ErrorCode::busy);
  EXPECT_EQ(e.id, 11u);
  auto pr = round_trip<rp::Prepared, rp::AgentMessage>({12, "/dev/vdb", "xfs", "meta-data=...", 0.5});
  EXPECT_EQ(pr.device, "/dev/vdb");
  EXPECT_EQ((round_trip<rp::Bye, rp::AgentMessage>({13}).id), 13u);
}

TEST(RoundTrip, RunDefaultsFollowWorkload) {
  auto r = rp::parse_host_message(R"({"type":"run","id":1,"workload":"shell8","copies":2,"duration_s":3,"workdir":"/w"})");
  const auto& run = std::get<rp::Run>(std::get<rp::HostMessage>(r));
  EXPECT_EQ(run.scripts_per_loop, 8u);
  EXPECT_EQ(run.passes, 3u);
  EXPECT_DOUBLE_EQ(run.sample_interval_s, 0.0);  // quiet unless asked: samples at the window's edges only
  EXPECT_DOUBLE_EQ(run.pause_s, 3.0);  // UnixBench: sync; sleep 1; sync; sleep 2
  EXPECT_FALSE(run.drop_caches);
}

TEST(RoundTrip, InvalidUtf8InTextIsReplacedNotThrown) {
  rp::Error e{1, rp::ErrorCode::failed, std::string("mkfs said \xff\xfe")};
  const std::string line = rp::encode(rp::AgentMessage{e});
  auto r = rp::parse_agent_message(line.substr(0, line.size() - 1));
  ASSERT_TRUE(std::holds_alternative<rp::AgentMessage>(r));
}

TEST(RoundTrip, RunLoadOptionsAndBinaryInput) {
  rp::Run r;
  r.id = 3;
  r.workdir = "/mnt/w";
  r.layout = rlab::protocol::Layout::per_copy;
  r.runner = rlab::protocol::Runner::unixbench;
  r.unixbench_dir = "/opt/ub";
  r.duration_s = 20;
  for (const std::string& in : {std::string(), std::string("a"), std::string("ab"), std::string("abc"),
                               std::string("\0\xff\x80 the\n", 7)}) {
    r.input = in;
    const auto back = round_trip<rp::Run, rp::HostMessage>(r);
    EXPECT_EQ(back.input, r.input);
    EXPECT_EQ(back.layout, rp::Layout::per_copy);
    EXPECT_EQ(back.runner, rp::Runner::unixbench);
    EXPECT_EQ(back.unixbench_dir, "/opt/ub");
  }
  r.input.reset();
  EXPECT_FALSE((round_trip<rp::Run, rp::HostMessage>(r).input.has_value()));
  // Defaults are UnixBench's: one shared directory, its settling, no cache drop.
  const auto parsed = rp::parse_host_message(R"({"type":"run","id":1,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w"})");
  const auto d = std::get<rp::Run>(std::get<rp::HostMessage>(parsed));
  EXPECT_EQ(d.layout, rp::Layout::shared);
  EXPECT_EQ(d.runner, rp::Runner::rlab);
  EXPECT_EQ(d.attribution, rp::AttributionLevel::off);
  EXPECT_EQ(d.pause_s, 3.0);
  EXPECT_FALSE(d.drop_caches);
}

TEST(RoundTrip, PassPlacement) {
  rp::PassReport p;
  p.id = 1;
  p.latency.bounds_s = {1};
  p.latency.counts = {0, 0};
  p.placement = rp::Placement{4, 1, 37};
  const auto back = round_trip<rp::PassReport, rp::AgentMessage>(p);
  ASSERT_TRUE(back.placement.has_value());
  EXPECT_EQ(back.placement->agcount, 4u);
  EXPECT_EQ(back.placement->ags, 1u);
  EXPECT_EQ(back.placement->inodes, 37u);
  p.placement->ags = 5;
  std::string line = rp::encode(rp::AgentMessage{p});
  line.pop_back();
  const auto bad = rp::parse_agent_message(line);
  ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(bad));
  EXPECT_NE(std::get<rp::ProtocolError>(bad).message.find("pass.placement.ags: must be at most agcount"), std::string::npos);
}

TEST(RoundTrip, PassAttributionWithAgHeaderRows) {
  rp::PassReport p;
  p.id = 1;
  p.latency.bounds_s = {1};
  p.latency.counts = {0, 0};
  rp::Attribution a;
  a.totals = {{"agheader.agcount", 20}, {"agheader.AGI.3.waits", 12}, {"agheader.AGI.3.held_ns", 9000}};
  a.stacks = {{"agheader.wait", {"[AGI of AG 3]", "xfs_buf_lock", "xfs_read_agi"}, 12, 4000},
              {"agheader.hold", {"[AGI of AG 3]", "xfs_inodegc_worker", "[kworker/1:0]"}, 3, 9000}};
  p.attribution = a;
  const auto back = round_trip<rp::PassReport, rp::AgentMessage>(p);
  ASSERT_TRUE(back.attribution.has_value());
  EXPECT_EQ(back.attribution->totals, a.totals);
  ASSERT_EQ(back.attribution->stacks.size(), 2u);
  EXPECT_EQ(back.attribution->stacks[1].family, "agheader.hold");
  EXPECT_EQ(back.attribution->stacks[1].frames, a.stacks[1].frames);
  p.attribution->stacks[1].family = "agheader";
  std::string line = rp::encode(rp::AgentMessage{p});
  line.pop_back();
  const auto bad = rp::parse_agent_message(line);
  ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(bad));
  EXPECT_NE(std::get<rp::ProtocolError>(bad).message.find("pass.attribution.stacks[1].family: expected"), std::string::npos)
      << std::get<rp::ProtocolError>(bad).message;
}

TEST(Protocol, VersionCheck) {
  EXPECT_FALSE(rp::check_protocol(rp::kProtocolVersion).has_value());
  auto e = rp::check_protocol(2, 4);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->code, rp::ErrorCode::incompatible);
  EXPECT_EQ(e->id, 4u);
  EXPECT_NE(e->message.find("2"), std::string::npos);
}
