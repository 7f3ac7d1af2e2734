#include "harness.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace rlab::agent::test {
namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "rlab-agent-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path = tmpl;
}
TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

Process::Process(const std::vector<std::string>& argv) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  int rc = posix_spawnp(&pid_, a[0], nullptr, nullptr, a.data(), environ);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
}

Process::~Process() {
  if (!reaped_) {
    ::kill(pid_, SIGKILL);
    int st;
    ::waitpid(pid_, &st, 0);
  }
}

std::optional<int> Process::wait(std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  do {
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      reaped_ = true;
      return st;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < end);
  return std::nullopt;
}

std::uint64_t Process::peak_rss_kib() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string key;
  while (in >> key) {
    if (key == "VmHWM:") {
      std::uint64_t v = 0;
      in >> v;
      return v;
    }
    in.ignore(1 << 16, '\n');
  }
  return 0;
}

Client::~Client() { ::close(fd_); }

Client Client::connect_unix(const fs::path& path, std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return Client(fd);
    ::close(fd);
    if (std::chrono::steady_clock::now() > end) throw std::runtime_error("cannot connect to " + path.string());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void Client::send_raw(const std::string& bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = ::write(fd_, bytes.data() + off, bytes.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("write to agent: ") + std::strerror(errno));
    off += static_cast<std::size_t>(n);
  }
}

std::optional<std::string> Client::next_line(std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (lines_.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[65536];
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) return std::nullopt;
    for (auto& f : framer_.feed(std::string_view(buf, static_cast<std::size_t>(n))))
      if (auto* s = std::get_if<std::string>(&f)) lines_.push_back(std::move(*s));
  }
  std::string l = std::move(lines_.front());
  lines_.erase(lines_.begin());
  return l;
}

std::optional<protocol::AgentMessage> Client::next(std::chrono::milliseconds timeout) {
  auto line = next_line(timeout);
  if (!line) {
    ADD_FAILURE() << "no message from the agent within " << timeout.count() << " ms";
    return std::nullopt;
  }
  auto r = protocol::parse_agent_message(*line);
  if (auto* e = std::get_if<protocol::ProtocolError>(&r)) {
    ADD_FAILURE() << "agent sent an invalid line: " << e->message << "\n" << *line;
    return std::nullopt;
  }
  return std::get<protocol::AgentMessage>(r);
}

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

std::string run_capture(const std::vector<std::string>& argv, int* status, std::string* err) {
  TempDir tmp;
  const std::string out = (tmp.path / "out").string();
  const std::string errf = (tmp.path / "err").string();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (err)
    posix_spawn_file_actions_addopen(&fa, 2, errf.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  else
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, a[0], &fa, nullptr, a.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  int st = 0;
  ::waitpid(pid, &st, 0);
  if (status) *status = st;
  if (err) *err = slurp(errf);
  return slurp(out);
}

std::string agent_binary() { return RLAB_AGENT_BIN; }

}  // namespace rlab::agent::test
