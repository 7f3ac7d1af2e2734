#include "load/children.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

extern char** environ;

namespace rlab::agent {

std::string describe_status(int st) {
  if (WIFEXITED(st)) return "exit " + std::to_string(WEXITSTATUS(st));
  if (WIFSIGNALED(st)) return "killed by signal " + std::to_string(WTERMSIG(st)) + " (" + strsignal(WTERMSIG(st)) + ")";
  return "wait status " + std::to_string(st);
}

std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  std::string dirs;
  if (const char* p = std::getenv("PATH")) dirs = std::string(p) + ":";
  dirs += "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    auto end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string cand = dirs.substr(start, end - start) + "/" + name;
    if (end > start && ::access(cand.c_str(), X_OK) == 0) return cand;
    start = end + 1;
  }
  return name;
}

Children::Children(boost::asio::io_context& io) : sigchld_(io, SIGCHLD) { wait(); }

void Children::wait() {
  sigchld_.async_wait([this](const boost::system::error_code& ec, int) {
    if (ec) return;
    reap();
    wait();
  });
}

void Children::reap() {
  for (;;) {
    int st = 0;
    pid_t pid = ::waitpid(-1, &st, WNOHANG);
    if (pid <= 0) {
      if (pid < 0 && errno == EINTR) continue;
      return;
    }
    auto it = handlers_.find(pid);
    if (it == handlers_.end()) {
      ++orphans_;
      continue;
    }
    auto h = std::move(it->second);
    handlers_.erase(it);
    h(st);
  }
}

pid_t Children::spawn(const SpawnOptions& o, ExitHandler on_exit) {
  if (o.argv.empty()) throw std::invalid_argument("spawn: empty argv");
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (o.stdout_fd >= 0) posix_spawn_file_actions_adddup2(&fa, o.stdout_fd, 1);
  else posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  if (o.stderr_fd >= 0) posix_spawn_file_actions_adddup2(&fa, o.stderr_fd, 2);
  else posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  if (!o.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, o.cwd.c_str());
  // The agent ignores SIGPIPE; the load's pipelines must see the default action.
  sigset_t def, mask;
  sigemptyset(&def);
  sigaddset(&def, SIGPIPE);
  sigaddset(&def, SIGCHLD);
  sigemptyset(&mask);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (o.new_process_group) flags |= POSIX_SPAWN_SETPGROUP;
  posix_spawnattr_setsigdefault(&attr, &def);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, flags);

  std::vector<char*> argv, envp;
  for (const auto& a : o.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : o.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::system_error(rc, std::generic_category(), "cannot start " + o.argv[0]);
  handlers_[pid] = std::move(on_exit);
  return pid;
}

void Children::signal_all(int sig) {
  for (const auto& [pid, h] : handlers_) ::kill(-pid, sig);
}

MemFile::MemFile(const char* name) : fd_(::memfd_create(name, MFD_CLOEXEC)) {
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
}
MemFile::~MemFile() { ::close(fd_); }
void MemFile::clear() {
  if (::ftruncate(fd_, 0) != 0) return;
  ::lseek(fd_, 0, SEEK_SET);
}
std::string MemFile::contents(std::size_t max_bytes) const {
  std::string out(max_bytes, '\0');
  ssize_t n = ::pread(fd_, out.data(), max_bytes, 0);
  out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return out;
}

}  // namespace rlab::agent
