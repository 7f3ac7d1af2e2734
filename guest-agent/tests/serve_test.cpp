// The real host-native agent over its unix socket and over a pty (--device): hello, bad
// input answered with errors while it keeps serving, shutdown.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "harness.hpp"

namespace rp = rlab::protocol;
using namespace rlab::agent::test;
using namespace std::chrono_literals;

namespace {

struct Served {
  TempDir dir;
  Process agent{{agent_binary(), "--listen", "unix:" + (dir.path / "agent.sock").string()}};
  Client client = Client::connect_unix(dir.path / "agent.sock", 10s);
};

void expect_error(Client& c, rp::ErrorCode code, const std::string& mentions, std::optional<rp::RequestId> id) {
  auto m = c.next();
  ASSERT_TRUE(m.has_value());
  auto* e = std::get_if<rp::Error>(&*m);
  ASSERT_NE(e, nullptr) << rp::type_name(*m);
  EXPECT_EQ(e->code, code) << e->message;
  EXPECT_NE(e->message.find(mentions), std::string::npos) << e->message;
  EXPECT_EQ(e->id, id);
}

}  // namespace

TEST(Serve, HelloUnpromptedAndOnRequest) {
  Served s;
  auto h = s.client.next_of<rp::Hello>();
  ASSERT_TRUE(h.has_value());
  EXPECT_FALSE(h->id.has_value());
  EXPECT_EQ(h->protocol, 1);
  EXPECT_EQ(h->page_size, static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_EQ(h->nr_cpus, static_cast<std::uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)));
  EXPECT_FALSE(h->kernel_release.empty());
  EXPECT_GT(h->mem_total_kib, 0u);
  EXPECT_FALSE(h->pid1);
  // The timeline: no /init here (no RLAB_INIT_UPTIME); the agent's start, then its hello.
  EXPECT_FALSE(h->init_uptime_s);
  ASSERT_TRUE(h->agent_uptime_s && h->uptime_s);
  EXPECT_GT(*h->agent_uptime_s, 0);
  EXPECT_GE(*h->uptime_s, *h->agent_uptime_s);
  EXPECT_LT(*h->uptime_s - *h->agent_uptime_s, 30) << "the hello is made as the agent starts";
  s.client.send(rp::HelloRequest{41, 1});
  auto h2 = s.client.next_of<rp::Hello>();
  ASSERT_TRUE(h2.has_value());
  EXPECT_EQ(h2->id, 41u);
  EXPECT_EQ(h2->agent_uptime_s, h->agent_uptime_s) << "one start";
  s.client.send(rp::HelloRequest{42, 7});
  expect_error(s.client, rp::ErrorCode::incompatible, "protocol version 7", 42);
}

TEST(Serve, BadInputGetsErrorsAndServingContinues) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  s.client.send_raw("\n");
  expect_error(s.client, rp::ErrorCode::malformed, "empty line", {});
  s.client.send_raw("  \r\n");
  expect_error(s.client, rp::ErrorCode::malformed, "empty line", {});
  s.client.send_raw("{\"type\":\"run\",\n");
  expect_error(s.client, rp::ErrorCode::malformed, "invalid JSON", {});
  s.client.send_raw("[]\n");
  expect_error(s.client, rp::ErrorCode::malformed, "expected a JSON object", {});
  s.client.send_raw("{\"type\":\"reboot\",\"id\":5}\n");
  expect_error(s.client, rp::ErrorCode::unknown_type, "\"reboot\"", 5);
  s.client.send_raw(R"({"type":"run","id":6,"workload":"shell1","copies":"two","duration_s":1,"workdir":"/tmp/x"})" "\n");
  expect_error(s.client, rp::ErrorCode::bad_field, "run.copies", 6);
  s.client.send_raw(std::string(rp::kMaxLineBytes + 10, 'x') + "\n");
  expect_error(s.client, rp::ErrorCode::oversized, "longer than 1048576", {});
  // Still serving, and the framing resynchronised on the next line.
  s.client.send(rp::HelloRequest{7, 1});
  auto h = s.client.next_of<rp::Hello>();
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->id, 7u);
}

TEST(Serve, RunWithUnusableWorkdirFails) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  rp::Run r;
  r.id = 3;
  r.copies = 1;
  r.duration_s = 1;
  r.workdir = "/proc/rlab-no-such-dir";
  s.client.send(r);
  expect_error(s.client, rp::ErrorCode::failed, "/proc/rlab-no-such-dir", 3);
}

TEST(Serve, ShutdownWithoutPoweroffSaysByeAndExits) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  s.client.send(rp::Shutdown{9, false});
  auto bye = s.client.next_of<rp::Bye>();
  ASSERT_TRUE(bye.has_value());
  EXPECT_EQ(bye->id, 9u);
  auto st = s.agent.wait(10s);
  ASSERT_TRUE(st.has_value()) << "agent did not exit";
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 0);
}

TEST(Serve, NewConnectionGetsHelloAndReplacesTheOld) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  Client second = Client::connect_unix(s.dir.path / "agent.sock", 5s);
  ASSERT_TRUE(second.next_of<rp::Hello>().has_value());
  second.send(rp::HelloRequest{2, 1});
  auto h = second.next_of<rp::Hello>();
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->id, 2u);
}

TEST(Serve, DevicePathPty) {
  int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const std::string slave = ::ptsname(master);
  Process agent({agent_binary(), "--device", slave});
  Client c(master);
  auto h = c.next_of<rp::Hello>(10s);
  ASSERT_TRUE(h.has_value()) << "hello over the device";
  c.send(rp::HelloRequest{5, 1});
  auto h2 = c.next_of<rp::Hello>();
  ASSERT_TRUE(h2.has_value());
  EXPECT_EQ(h2->id, 5u);
  c.send_raw("nonsense\n");
  expect_error(c, rp::ErrorCode::malformed, "invalid JSON", {});
}

// `--listen unix:` with no path used to serve on an autobind socket nobody can reach (forever);
// a path past sun_path's 107 bytes failed with a bare "File name too long". Both are usage
// errors naming the option. `timeout` bounds the old hang.
TEST(Serve, ListenPathEmptyOrTooLongIsAUsageError) {
  for (const std::string& arg : {std::string("unix:"), "unix:/tmp/" + std::string(200, 'x') + "/s"}) {
    int status = 0;
    const std::string out = run_capture({"timeout", "10", agent_binary(), "--listen", arg}, &status);
    ASSERT_TRUE(WIFEXITED(status)) << out;
    EXPECT_EQ(WEXITSTATUS(status), 2) << out;
    EXPECT_NE(out.find("--listen: unix socket path must be 1..107 bytes"), std::string::npos) << out;
  }
}
