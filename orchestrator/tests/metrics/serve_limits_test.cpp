// `rlab serve` refuses oversized input: a request with 1 MiB of header or a 1 MiB request line
// gets an HTTP error (or a closed connection), and clients that never finish their request do
// not keep /metrics from answering for long. After each, /metrics still answers.
#include "metrics/server.hpp"
#include "servers.hpp"
#include "store/store.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace rlab::metrics {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// A loopback TCP connection to `port` with 30 s send/receive timeouts; -1 on failure.
int connect_to(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  timeval tv{30, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// Sends `request` (as much as the server takes before it closes) and returns what comes back
/// until the server closes the connection ("" when it closed without answering).
std::string exchange(int port, const std::string& request) {
  int fd = connect_to(port);
  if (fd < 0) return "<no connection>";
  std::size_t sent = 0;
  while (sent < request.size()) {
    ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server stopped reading: fine, its answer may already be there
    sent += static_cast<std::size_t>(n);
  }
  std::string reply;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) reply.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return reply;
}

/// The status code of an HTTP reply, 0 when there is none.
int status_of(const std::string& reply) {
  if (reply.rfind("HTTP/1.", 0) != 0 || reply.size() < 12) return 0;
  return std::atoi(reply.c_str() + 9);
}

class ServeLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* bin = std::getenv("RLAB_BIN");
    ASSERT_TRUE(bin) << "RLAB_BIN not set";
    dir_ = fs::temp_directory_path() / ("rlab-serve-limits-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    store::Store::open(dir_ / "rlab.db");
    port_ = test::free_port();
    serve_ = std::make_unique<test::Daemon>(
        std::vector<std::string>{bin, "serve", "--listen", fmt::format("127.0.0.1:{}", port_), "--db",
                                 (dir_ / "rlab.db").string()},
        dir_ / "serve.log");
    serve_->wait_ready(metrics_url());
  }
  void TearDown() override {
    serve_.reset();
    if (!HasFailure()) fs::remove_all(dir_);
  }
  std::string metrics_url() const { return fmt::format("http://127.0.0.1:{}/metrics", port_); }
  void expect_metrics_answer() {
    auto r = test::http_get(metrics_url());
    EXPECT_EQ(r.status, 200) << serve_->log_text();
    EXPECT_NE(r.body.find("rlab_store_up 1"), std::string::npos);
    EXPECT_TRUE(serve_->running());
  }

  fs::path dir_;
  int port_ = 0;
  std::unique_ptr<test::Daemon> serve_;
};

TEST_F(ServeLimits, OneMebibyteOfHeaderIsRefused) {
  const std::string req = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " +
                          std::string(1 << 20, 'a') + "\r\n\r\n";
  const std::string reply = exchange(port_, req);
  const int status = status_of(reply);
  // An HTTP error, or the connection closed without an answer; never the metrics.
  EXPECT_TRUE(reply.empty() || (status >= 400 && status < 500)) << reply.substr(0, 200);
  EXPECT_EQ(reply.find("rlab_store_up"), std::string::npos);
  expect_metrics_answer();
}

TEST_F(ServeLimits, OneMebibyteRequestLineIsRefused) {
  const std::string req = "GET /" + std::string(1 << 20, 'b') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const std::string reply = exchange(port_, req);
  const int status = status_of(reply);
  EXPECT_TRUE(reply.empty() || (status >= 400 && status < 500)) << reply.substr(0, 200);
  expect_metrics_answer();
}

TEST_F(ServeLimits, HeaderJustUnderTheLimitIsServed) {
  // The limit refuses what is oversized, not ordinary large headers (a long cookie, a token).
  const std::string req = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Pad: " +
                          std::string(kMaxRequestBytes - 200, 'c') + "\r\n\r\n";
  EXPECT_EQ(status_of(exchange(port_, req)), 200);
}

TEST_F(ServeLimits, ClientsThatNeverFinishTheirRequestAreDropped) {
  // More silent clients than worker threads, each with half a request.
  std::vector<int> idle;
  for (int i = 0; i < kWorkerThreads + 2; ++i) {
    int fd = connect_to(port_);
    ASSERT_GE(fd, 0);
    const std::string half = "GET /metrics HTTP/1.1\r\n";
    ASSERT_EQ(::send(fd, half.data(), half.size(), MSG_NOSIGNAL), static_cast<ssize_t>(half.size()));
    idle.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto t0 = Clock::now();
  auto r = test::http_get(metrics_url());
  const double waited = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("/metrics answered %.1f s after %d silent clients (request timeout %d ms)\n", waited,
              kWorkerThreads + 2, kRequestTimeoutMs);
  EXPECT_EQ(r.status, 200);
  // Within the request timeout plus scheduling slack, not civetweb's default 30 s per round of
  // silent clients.
  EXPECT_LT(waited, kRequestTimeoutMs / 1000.0 * 2);
  // The silent clients were disconnected.
  for (int fd : idle) {
    char buf[512];
    ssize_t n;
    while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) {
    }
    EXPECT_EQ(n, 0) << "a silent client is still connected (no close within 30 s)";
    ::close(fd);
  }
}

}  // namespace
}  // namespace rlab::metrics
