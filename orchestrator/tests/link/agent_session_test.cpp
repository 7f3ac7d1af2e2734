// The agent link against a scripted peer: request/reply, timeouts, liveness, errors.
#include "fake_agent.hpp"
#include "link/agent_session.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rlab::link::AgentSession;
using rlab::link::LinkError;
using rlab::test::FakeAgent;
using nlohmann::json;
namespace proto = rlab::protocol;

namespace {

fs::path sock_path(const char* name) {
  return fs::temp_directory_path() / (std::string("rlab-link-") + name + "-" +
                                      std::to_string(getpid()) + ".sock");
}

std::string hello_line(unsigned page_size) {
  proto::Hello h;
  h.agent_version = "0.1.0";
  h.kernel_release = "6.12.57";
  h.page_size = page_size;
  h.nr_cpus = 2;
  std::string l = proto::encode(proto::AgentMessage{h});
  l.pop_back();
  return l;
}

std::string line(const proto::AgentMessage& m) {
  std::string l = proto::encode(m);
  l.pop_back();
  return l;
}

}  // namespace

TEST(AgentSession, ConnectRetriesUntilSocketListensThenReadsHello) {
  auto p = sock_path("retry");
  FakeAgent agent(p, [](int fd) { FakeAgent::send(fd, hello_line(65536)); }, 300ms);
  boost::asio::io_context io;
  AgentSession s(io);
  auto t0 = std::chrono::steady_clock::now();
  s.connect(p, 5s);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 250ms);
  auto h = s.wait_hello(2s);
  EXPECT_EQ(h.page_size, 65536u);
  EXPECT_EQ(rlab::link::check_hello(h, 65536), "");
  EXPECT_NE(rlab::link::check_hello(h, 4096).find("page size 65536 != cell's 4096"),
            std::string::npos);
}

TEST(AgentSession, ConnectTimesOutWhenNothingListens) {
  boost::asio::io_context io;
  AgentSession s(io);
  try {
    s.connect(sock_path("absent"), 300ms);
    FAIL() << "connected to nothing";
  } catch (const LinkError& e) {
    EXPECT_TRUE(e.timed_out);
    EXPECT_EQ(e.phase, "connect");
  }
}

TEST(AgentSession, SilentAgentTimesOutHello) {
  auto p = sock_path("silent");
  FakeAgent agent(p, [](int fd) { FakeAgent::read_line(fd); });  // waits for our close
  boost::asio::io_context io;
  {
    AgentSession s(io);
    s.connect(p, 2s);
    auto t0 = std::chrono::steady_clock::now();
    try {
      s.wait_hello(400ms);
      FAIL() << "hello from a silent agent";
    } catch (const LinkError& e) {
      EXPECT_TRUE(e.timed_out);
      auto took = std::chrono::steady_clock::now() - t0;
      EXPECT_GE(took, 380ms);
      EXPECT_LT(took, 2s);
    }
  }  // closes the socket: the fake's read returns
}

TEST(AgentSession, PrepareRunShutdownRoundTrip) {
  auto p = sock_path("ok");
  std::vector<json> seen;
  FakeAgent agent(p, [&](int fd) {
    FakeAgent::send(fd, hello_line(65536));
    for (;;) {
      std::string l = FakeAgent::read_line(fd);
      if (l.empty()) return;
      json j = json::parse(l);
      seen.push_back(j);
      auto id = j["id"].get<proto::RequestId>();
      if (j["type"] == "prepare") {
        FakeAgent::send(fd, line(proto::Prepared{id, "/dev/vda", "xfs", "meta-data=...", 0.4}));
      } else if (j["type"] == "run") {
        proto::Sample s;
        s.id = id;
        s.loops = 3;
        FakeAgent::send(fd, line(s));
        proto::PassReport pr;
        pr.id = id;
        pr.loops = 10;
        pr.lpm = 300;
        pr.duration_s = 2;
        pr.latency.counts = {10};  // no bounds: one bucket holding every loop
        FakeAgent::send(fd, line(pr));
        proto::Result r;
        r.id = id;
        r.workload = "shell1";
        r.score = 300;
        r.passes = {pr};
        FakeAgent::send(fd, line(r));
      } else if (j["type"] == "shutdown") {
        FakeAgent::send(fd, line(proto::Bye{id}));
        return;
      }
    }
  });
  boost::asio::io_context io;
  AgentSession s(io);
  s.connect(p, 2s);
  s.wait_hello(2s);
  proto::Prepare prep;
  prep.serial = "rlab-fs";
  prep.fs = "xfs";
  prep.mkfs_options = {"-d", "agcount=4"};
  prep.mountpoint = "/mnt/test";
  auto prepared = s.prepare(prep, 2s);
  EXPECT_EQ(prepared.device, "/dev/vda");
  int samples = 0, passes = 0;
  proto::Run run;
  run.workdir = "/mnt/test";
  run.passes = 1;
  run.duration_s = 2;
  auto r = s.run(run, {[&](const proto::Sample&) { ++samples; },
                       [&](const proto::PassReport&) { ++passes; }},
                 {});
  EXPECT_DOUBLE_EQ(r.score, 300);
  EXPECT_EQ(samples, 1);
  EXPECT_EQ(passes, 1);
  s.shutdown(2s);
  s.cancel();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0]["type"], "prepare");
  EXPECT_EQ(seen[0]["serial"], "rlab-fs");
  EXPECT_EQ(seen[1]["type"], "run");
  EXPECT_EQ(seen[2]["type"], "shutdown");
  EXPECT_LT(seen[0]["id"].get<int>(), seen[1]["id"].get<int>());
}

TEST(AgentSession, AgentThatStopsAnsweringMidRunIsDetected) {
  auto p = sock_path("hang");
  FakeAgent agent(p, [](int fd) {
    FakeAgent::send(fd, hello_line(65536));
    FakeAgent::read_line(fd);  // the run request
    FakeAgent::read_line(fd);  // the liveness probe: never answered
    FakeAgent::read_line(fd);  // EOF when the host gives up
  });
  boost::asio::io_context io;
  AgentSession s(io);
  s.connect(p, 2s);
  s.wait_hello(2s);
  proto::Run run;
  run.workdir = "/tmp";
  auto t0 = std::chrono::steady_clock::now();
  try {
    s.run(run, {}, {.quiet = 300ms, .probe = 300ms, .total = 60s});
    FAIL() << "run returned from a hung agent";
  } catch (const LinkError& e) {
    EXPECT_TRUE(e.timed_out);
    EXPECT_NE(std::string(e.what()).find("stopped answering"), std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
  }
  s.cancel();
}

TEST(AgentSession, LivenessProbeAnsweredKeepsTheRunGoing) {
  auto p = sock_path("probe");
  FakeAgent agent(p, [](int fd) {
    FakeAgent::send(fd, hello_line(65536));
    json run = json::parse(FakeAgent::read_line(fd));
    json probe = json::parse(FakeAgent::read_line(fd));  // sent after 300 ms of quiet
    proto::Hello h;
    h.id = probe["id"].get<proto::RequestId>();
    h.page_size = 65536;
    FakeAgent::send(fd, line(h));
    proto::Result r;
    r.id = run["id"].get<proto::RequestId>();
    r.score = 42.4;
    FakeAgent::send(fd, line(r));
  });
  boost::asio::io_context io;
  AgentSession s(io);
  s.connect(p, 2s);
  s.wait_hello(2s);
  proto::Run run;
  run.workdir = "/tmp";
  auto r = s.run(run, {}, {.quiet = 300ms, .probe = 1s, .total = 10s});
  EXPECT_DOUBLE_EQ(r.score, 42.4);
  s.cancel();
}

TEST(AgentSession, ErrorReplyAndGarbageBecomeLinkErrors) {
  auto p = sock_path("err");
  FakeAgent agent(p, [](int fd) {
    FakeAgent::send(fd, hello_line(65536));
    json j = json::parse(FakeAgent::read_line(fd));
    FakeAgent::send(fd, line(proto::Error{j["id"].get<proto::RequestId>(),
                                          proto::ErrorCode::failed, "mkfs.xfs: exit 1"}));
    FakeAgent::read_line(fd);
    FakeAgent::send(fd, "this is not json");
    FakeAgent::read_line(fd);
  });
  boost::asio::io_context io;
  AgentSession s(io);
  s.connect(p, 2s);
  s.wait_hello(2s);
  proto::Prepare prep;
  prep.device = "/dev/vda";
  prep.fs = "xfs";
  prep.mountpoint = "/mnt";
  try {
    s.prepare(prep, 2s);
    FAIL();
  } catch (const LinkError& e) {
    EXPECT_EQ(e.phase, "prepare");
    EXPECT_NE(std::string(e.what()).find("mkfs.xfs: exit 1"), std::string::npos);
  }
  try {
    s.prepare(prep, 2s);
    FAIL();
  } catch (const LinkError& e) {
    EXPECT_NE(std::string(e.what()).find("unreadable line"), std::string::npos);
  }
  s.cancel();
}

TEST(AgentSession, GuestGoingAwayIsReported) {
  auto p = sock_path("gone");
  FakeAgent agent(p, [](int fd) { FakeAgent::send(fd, hello_line(65536)); });  // then closes
  boost::asio::io_context io;
  AgentSession s(io);
  s.connect(p, 2s);
  s.wait_hello(2s);
  try {
    s.wait_hello(2s);
    FAIL();
  } catch (const LinkError& e) {
    EXPECT_FALSE(e.timed_out);
    EXPECT_NE(std::string(e.what()).find("closed"), std::string::npos);
  }
}
