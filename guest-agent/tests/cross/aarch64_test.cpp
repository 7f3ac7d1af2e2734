// The static aarch64 guest agent: a static ARM aarch64 ELF that serves the protocol, run
// directly on an aarch64 machine and under qemu-aarch64-static elsewhere. RLAB_AGENT_AARCH64
// names the binary (built by the agent_aarch64_build CTest fixture from the aarch64-agent
// preset).
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "harness.hpp"

namespace rp = rlab::protocol;
using namespace rlab::agent::test;
using namespace std::chrono_literals;

namespace {
std::string cross_agent() {
  const char* p = std::getenv("RLAB_AGENT_AARCH64");
  if (!p) throw std::runtime_error("RLAB_AGENT_AARCH64 is not set");
  return p;
}

// The agent's command line: the binary itself where this test runs on aarch64 (its own
// architecture), behind qemu-user everywhere else.
std::vector<std::string> agent_command(std::vector<std::string> args) {
#if defined(__aarch64__)
  std::vector<std::string> argv{cross_agent()};
#else
  std::vector<std::string> argv{"qemu-aarch64-static", cross_agent()};
#endif
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}
}  // namespace

TEST(Aarch64Agent, IsAStaticArmAarch64Executable) {
  int st = 0;
  const std::string out = run_capture({"file", "-L", cross_agent()}, &st);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << out;
  EXPECT_NE(out.find("ARM aarch64"), std::string::npos) << out;
  EXPECT_NE(out.find("statically linked"), std::string::npos) << out;
}

TEST(Aarch64Agent, AnswersHelloAndRunsALoad) {
  TempDir dir;
  Process agent(agent_command({"--listen", "unix:" + (dir.path / "agent.sock").string()}));
  Client c = Client::connect_unix(dir.path / "agent.sock", 30s);
  auto h = c.next_of<rp::Hello>(30s);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->protocol, rp::kProtocolVersion);
  EXPECT_FALSE(h->kernel_release.empty());
  EXPECT_GT(h->page_size, 0u);
  EXPECT_GT(h->nr_cpus, 0u);
  c.send(rp::HelloRequest{11, 1});
  auto h2 = c.next_of<rp::Hello>(30s);
  ASSERT_TRUE(h2.has_value());
  EXPECT_EQ(h2->id, 11u);
  c.send_raw("{\"type\":\"run\",\"id\":12}\n");
  auto e = c.next_of<rp::Error>(30s);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->code, rp::ErrorCode::bad_field);
  EXPECT_EQ(e->id, 12u);

  // A short real load: the aarch64 agent spawns the host's /bin/sh and tools.
  rp::Run r;
  r.id = 13;
  r.copies = 1;
  r.passes = 1;
  r.duration_s = 2;
  r.workdir = (dir.path / "work").string();
  r.pause_s = 0;
  c.send(r);
  auto res = c.next_of<rp::Result>(60s);
  ASSERT_TRUE(res.has_value());
  ASSERT_EQ(res->passes.size(), 1u);
  EXPECT_GT(res->passes[0].loops, 0u);
  EXPECT_EQ(res->failures, 0u) << (res->failure_examples.empty() ? "" : res->failure_examples[0]);

  c.send(rp::Shutdown{14, false});
  auto bye = c.next_of<rp::Bye>(30s);
  ASSERT_TRUE(bye.has_value());
  auto st = agent.wait(30s);
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 0);
}
