// The host end of the agent channel refuses a line over the protocol's 1 MiB limit: the
// session fails with a LinkError that says so (the boot then fails in that phase and is
// stored), without holding the oversized line in memory.
#include "fake_agent.hpp"
#include "link/agent_session.hpp"
#include "rlab/protocol/framing.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rlab::link::AgentSession;
using rlab::link::LinkError;
using rlab::test::FakeAgent;
namespace proto = rlab::protocol;

namespace {

fs::path oversized_sock_path(const char* name) {
  return fs::temp_directory_path() / (std::string("rlab-link-") + name + "-" +
                                      std::to_string(getpid()) + ".sock");
}

/// Writes `n` bytes of `c` in 64 KiB chunks, then a newline (a guest that floods the
/// channel). Stops when the host closes the channel: it stopped listening, as it should.
void flood_line(int fd, std::size_t n, char c) {
  const std::string chunk(64 * 1024, c);
  for (std::size_t sent = 0; sent < n;) {
    std::size_t k = std::min(chunk.size(), n - sent);
    ssize_t w = ::send(fd, chunk.data(), k, MSG_NOSIGNAL);
    if (w <= 0) return;
    sent += static_cast<std::size_t>(w);
  }
  (void)::send(fd, "\n", 1, MSG_NOSIGNAL);
}

}  // namespace

TEST(AgentSessionLimits, OversizedHelloLineFailsTheSessionWithAClearError) {
  auto p = oversized_sock_path("oversized");
  FakeAgent agent(p, [](int fd) {
    flood_line(fd, 4 * proto::kMaxLineBytes, '{');  // a 4 MiB line
  });
  boost::asio::io_context io;
  AgentSession s(io);
  s.connect(p, 2s);
  try {
    s.wait_hello(30s);
    FAIL() << "an oversized line was accepted as hello";
  } catch (const LinkError& e) {
    EXPECT_FALSE(e.timed_out) << e.what();
    EXPECT_NE(std::string(e.what()).find("oversized"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("longer than the protocol's limit"), std::string::npos)
        << e.what();
  }
  s.cancel();
}

TEST(AgentSessionLimits, LineAtTheLimitIsNotOversized) {
  // kMaxLineBytes - 1 bytes plus '\n' is the longest line allowed: it is read (and refused as
  // malformed JSON, not as oversized).
  auto p = oversized_sock_path("atlimit");
  FakeAgent agent(p, [](int fd) {
    flood_line(fd, proto::kMaxLineBytes - 1, 'x');
  });
  boost::asio::io_context io;
  AgentSession s(io);
  s.connect(p, 2s);
  try {
    s.wait_hello(30s);
    FAIL();
  } catch (const LinkError& e) {
    EXPECT_EQ(std::string(e.what()).find("oversized"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unreadable line"), std::string::npos) << e.what();
  }
  s.cancel();
}
