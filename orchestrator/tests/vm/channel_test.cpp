// The agent channel's bridge (vm/channel.hpp) between a byte stream and the agent session,
// against a stream backed by a socketpair whose far end plays the guest (the libvirt stream
// itself is exercised in tests/run/real_remote_channel_test.cpp): bytes both ways, the end of
// either side ending the other, errors kept, and no thread or fd left behind.
#include "link/agent_session.hpp"
#include "vm/channel.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rlab::vm::ByteStream;
using rlab::vm::StreamBridge;
namespace proto = rlab::protocol;

namespace {

/// A non-blocking stream over one end of a socketpair; the test holds the other end (the
/// "guest"). The socket itself is the wake-up descriptor (readable when data arrives).
class SocketStream final : public ByteStream {
 public:
  SocketStream(int fd, std::shared_ptr<std::atomic<int>> aborts) : fd_(fd), aborts_(std::move(aborts)) {}
  ~SocketStream() override { ::close(fd_); }
  long recv(char* b, std::size_t n) override {
    ssize_t r = ::recv(fd_, b, n, MSG_DONTWAIT);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return kAgain;
    if (r < 0) error_ = "read failed";
    return r;
  }
  long send(const char* b, std::size_t n) override {
    ssize_t w = ::send(fd_, b, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return kAgain;
    if (w <= 0) error_ = "write failed";
    return w <= 0 ? -1 : w;
  }
  void abort() override {
    ++*aborts_;
    ::shutdown(fd_, SHUT_RDWR);
  }
  int wake_fd() const override { return fd_; }
  std::string error() const override { return error_; }

 private:
  int fd_;
  std::shared_ptr<std::atomic<int>> aborts_;
  std::string error_;
};

/// A stream that fails its first receive with `message`.
class FailingStream final : public ByteStream {
 public:
  long recv(char*, std::size_t) override { return -1; }
  long send(const char*, std::size_t n) override { return static_cast<long>(n); }
  void abort() override {}
  int wake_fd() const override { return -1; }
  std::string error() const override { return "End of file while reading data: Input/output error"; }
};

/// A stream whose receive blocks until released (a libvirt call to a host that vanished
/// silently).
class HungStream final : public ByteStream {
 public:
  struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    bool open = false;
    bool entered = false;  ///< the bridge is blocked in recv()
  };
  explicit HungStream(std::shared_ptr<Gate> g) : gate_(std::move(g)) {}
  long recv(char*, std::size_t) override {
    std::unique_lock lk(gate_->mu);
    gate_->entered = true;
    gate_->cv.notify_all();
    gate_->cv.wait(lk, [&] { return gate_->open; });
    return 0;
  }
  long send(const char*, std::size_t n) override { return static_cast<long>(n); }
  void abort() override {}
  int wake_fd() const override { return -1; }
  std::string error() const override { return ""; }

 private:
  std::shared_ptr<Gate> gate_;
};

std::size_t count_entries(const char* dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}
std::size_t open_fds() { return count_entries("/proc/self/fd"); }
std::size_t threads() { return count_entries("/proc/self/task"); }

/// Waits up to 5 s for the process to have `n` threads (a detached thread that said it ended
/// is gone a moment later).
bool threads_back_to(std::size_t n) {
  for (auto until = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(10ms))
    if (threads() == n) return true;
  return threads() == n;
}

std::string hello_line() {
  proto::Hello h;
  h.agent_version = "0.1.0";
  h.kernel_release = "6.12.117";
  h.page_size = 65536;
  h.nr_cpus = 1;
  return proto::encode(proto::AgentMessage{h});
}

void write_line(int fd, const std::string& l) {
  ASSERT_EQ(::send(fd, l.data(), l.size(), MSG_NOSIGNAL), static_cast<ssize_t>(l.size()));
}

std::string read_line(int fd) {
  std::string out;
  char c;
  while (::read(fd, &c, 1) == 1 && c != '\n') out += c;
  return out;
}

struct Pair {
  int guest = -1;
  std::shared_ptr<std::atomic<int>> aborts = std::make_shared<std::atomic<int>>(0);
  std::unique_ptr<StreamBridge> bridge;
  Pair() {
    int sv[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    guest = sv[1];
    bridge = std::make_unique<StreamBridge>(std::make_unique<SocketStream>(sv[0], aborts), "test");
  }
  ~Pair() {
    bridge.reset();
    if (guest >= 0) ::close(guest);
  }
};

}  // namespace

TEST(StreamBridge, CarriesTheAgentProtocolBothWays) {
  Pair p;
  boost::asio::io_context io;
  rlab::link::AgentSession s(io);
  s.attach(p.bridge->take_session_fd());
  EXPECT_EQ(p.bridge->take_session_fd(), -1) << "the session's end is given once";
  write_line(p.guest, hello_line());
  EXPECT_EQ(s.wait_hello(5s).page_size, 65536u);

  std::thread guest([&] {
    auto req = nlohmann::json::parse(read_line(p.guest));
    EXPECT_EQ(req["type"], "prepare");
    proto::Prepared r;
    r.id = req["id"].get<proto::RequestId>();
    r.device = "/dev/vda";
    write_line(p.guest, proto::encode(proto::AgentMessage{r}));
  });
  proto::Prepare prep;
  prep.serial = "rlab-fs";
  prep.fs = "xfs";
  prep.mountpoint = "/mnt/rlab";
  EXPECT_EQ(s.prepare(prep, 5s).device, "/dev/vda");
  guest.join();
  EXPECT_EQ(p.bridge->stream_error(), "");
}

TEST(StreamBridge, LargeLinesArriveIntact) {
  Pair p;
  const int fd = p.bridge->take_session_fd();
  std::string big(900 * 1024, 'x');
  big += '\n';
  std::thread guest([&] { write_line(p.guest, big); });
  std::string got;
  char buf[65536];
  while (got.size() < big.size()) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    ASSERT_GT(n, 0);
    got.append(buf, static_cast<std::size_t>(n));
  }
  guest.join();
  EXPECT_EQ(got, big);
  // And the other way.
  std::thread host([&] { ASSERT_EQ(::send(fd, big.data(), big.size(), MSG_NOSIGNAL), ssize_t(big.size())); });
  got.clear();
  while (got.size() < big.size()) {
    ssize_t n = ::read(p.guest, buf, sizeof buf);
    ASSERT_GT(n, 0);
    got.append(buf, static_cast<std::size_t>(n));
  }
  host.join();
  EXPECT_EQ(got, big);
  ::close(fd);
}

TEST(StreamBridge, StreamEndIsEndOfFileForTheSession) {
  Pair p;
  boost::asio::io_context io;
  rlab::link::AgentSession s(io);
  s.attach(p.bridge->take_session_fd());
  ::close(p.guest);  // the guest powered off / the domain was destroyed
  p.guest = -1;
  try {
    s.wait_hello(5s);
    FAIL() << "hello from a closed channel";
  } catch (const rlab::link::LinkError& e) {
    EXPECT_FALSE(e.timed_out);
    EXPECT_NE(std::string(e.what()).find("the guest closed the agent channel"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(p.bridge->stream_error(), "") << "a clean end is not an error";
}

TEST(StreamBridge, StreamErrorIsKeptAndEndsTheSession) {
  auto bridge = std::make_unique<StreamBridge>(std::make_unique<FailingStream>(), "test");
  boost::asio::io_context io;
  rlab::link::AgentSession s(io);
  s.attach(bridge->take_session_fd());
  EXPECT_THROW(s.wait_hello(5s), rlab::link::LinkError);
  EXPECT_EQ(bridge->stream_error(), "End of file while reading data: Input/output error");
}

TEST(StreamBridge, SessionClosingAbortsTheStream) {
  Pair p;
  {
    boost::asio::io_context io;
    rlab::link::AgentSession s(io);
    s.attach(p.bridge->take_session_fd());
  }  // the session (and its socket) is gone
  char c;
  EXPECT_EQ(::read(p.guest, &c, 1), 0) << "the guest side sees the stream end";
  EXPECT_EQ(*p.aborts, 1);
}

TEST(StreamBridge, CloseLeavesNoThreadOrFd) {
  const std::size_t fds0 = open_fds(), threads0 = threads();
  for (int i = 0; i < 50; ++i) {
    Pair p;
    boost::asio::io_context io;
    rlab::link::AgentSession s(io);
    s.attach(p.bridge->take_session_fd());
    write_line(p.guest, hello_line());
    s.wait_hello(5s);
    EXPECT_EQ(threads(), threads0 + 1) << "one thread per bridge";
    p.bridge->close();
    p.bridge->close();  // idempotent
    EXPECT_EQ(*p.aborts, 1);
  }
  EXPECT_TRUE(threads_back_to(threads0)) << threads() << " threads, " << threads0 << " before";
  EXPECT_EQ(open_fds(), fds0);
}

TEST(StreamBridge, ManyBridgesAtOnce) {
  const std::size_t fds0 = open_fds(), threads0 = threads();
  {
    std::vector<std::unique_ptr<Pair>> pairs;
    for (int i = 0; i < 16; ++i) pairs.push_back(std::make_unique<Pair>());
    std::vector<int> fds;
    for (auto& p : pairs) fds.push_back(p->bridge->take_session_fd());
    for (std::size_t i = 0; i < pairs.size(); ++i) write_line(pairs[i]->guest, std::to_string(i) + "\n");
    for (std::size_t i = 0; i < pairs.size(); ++i) EXPECT_EQ(read_line(fds[i]), std::to_string(i));
    for (int fd : fds) ::close(fd);
  }
  EXPECT_TRUE(threads_back_to(threads0));
  EXPECT_EQ(open_fds(), fds0);
}

TEST(StreamBridge, StreamThatIgnoresAbortIsLeftToEndOnItsOwn) {
  const std::size_t fds0 = open_fds(), threads0 = threads();
  auto gate = std::make_shared<HungStream::Gate>();
  auto bridge = std::make_unique<StreamBridge>(std::make_unique<HungStream>(gate), "hung");
  const int fd = bridge->take_session_fd();
  {
    std::unique_lock lk(gate->mu);
    gate->cv.wait(lk, [&] { return gate->entered; });
  }
  const auto t0 = std::chrono::steady_clock::now();
  bridge->close(200ms);
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(waited, 200ms);
  EXPECT_LT(waited, 2s) << "close() is bounded";
  bridge.reset();
  ::close(fd);
  EXPECT_TRUE(threads_back_to(threads0 + 1)) << "the blocked bridge thread is still there";
  {
    std::lock_guard lk(gate->mu);
    gate->open = true;  // the stream finally ends
  }
  gate->cv.notify_all();
  EXPECT_TRUE(threads_back_to(threads0));
  EXPECT_EQ(open_fds(), fds0) << "its socket was released when it ended";
}
