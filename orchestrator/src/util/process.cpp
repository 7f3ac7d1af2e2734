#include "util/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <system_error>

extern char** environ;

namespace rlab::util {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() { reset(); }
  void reset(int n = -1) {
    if (fd >= 0) ::close(fd);
    fd = n;
  }
};

std::vector<std::string> merged_env(const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> all;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) all[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : extra) all[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : all) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> c_array(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::string display_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    if (a.empty() || a.find_first_of(" \t\n'\"\\$`") != std::string::npos) {
      out += '\'';
      for (char c : a) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    } else {
      out += a;
    }
  }
  return out;
}

std::string tail(const std::string& text, std::size_t n) {
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') --pos;
  for (std::size_t i = 0; i < n && pos > 0; ++i) {
    auto nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) return text;
    pos = nl;
    if (i + 1 == n) return text.substr(pos + 1);
  }
  return text.substr(pos == 0 ? 0 : pos + 1);
}

std::optional<std::filesystem::path> find_program(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::optional<std::filesystem::path>(name)
                                             : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
  std::size_t start = 0;
  while (start <= p.size()) {
    auto end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::filesystem::path cand = std::filesystem::path(p.substr(start, end - start)) / name;
    if (::access(cand.c_str(), X_OK) == 0) return cand;
    start = end + 1;
  }
  return std::nullopt;
}

namespace {

/// The children run() has started and not yet reaped (each the leader of its process group),
/// for signal_running_children().
std::mutex g_children_mu;
std::set<pid_t> g_children;

/// Starts argv in its own process group (so a timeout kills the whole tree: make spawns many
/// children) with stdin from `in` and stdout+stderr to `out`, in opts.cwd with opts.env added.
/// Returns its pid; throws std::system_error when it cannot start.
pid_t spawn(const std::vector<std::string>& argv, const ProcessOptions& opts, int in, int out) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in, 0);
  posix_spawn_file_actions_adddup2(&fa, out, 1);
  posix_spawn_file_actions_adddup2(&fa, out, 2);
  if (!opts.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, opts.cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  auto args = argv;
  auto env = merged_env(opts.env);
  auto c_args = c_array(args);
  auto c_env = c_array(env);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, c_args[0], &fa, &attr, c_args.data(), c_env.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::system_error(rc, std::generic_category(), "cannot start " + argv[0]);
  return pid;
}

/// Writes `data` to `fd` (small inputs only: written before any output is read); a reader
/// that is gone ends it quietly.
void feed(int fd, const std::string& data) {
  if (data.empty()) return;
  ::signal(SIGPIPE, SIG_IGN);
  std::size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n <= 0) break;
    off += static_cast<std::size_t>(n);
  }
}

/// Reads `fd` to its end into res.output (or the log file `log` when >= 0), echoing whole
/// lines to stderr when opts.echo; past opts.timeout from `started` kills process group `pid`
/// and sets res.timed_out.
void drain(int fd, int log, pid_t pid, const ProcessOptions& opts,
           std::chrono::steady_clock::time_point started, ProcessResult& res) {
  std::string line_buf;
  char buf[65536];
  for (;;) {
    int wait_ms = -1;
    if (opts.timeout) {
      auto left = *opts.timeout - (std::chrono::steady_clock::now() - started);
      wait_ms = static_cast<int>(std::max<long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(left).count()));
    }
    pollfd p{fd, POLLIN, 0};
    const int pr = ::poll(&p, 1, wait_ms);
    if (pr < 0 && errno == EINTR) continue;
    if (pr == 0) {
      res.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::string_view chunk(buf, static_cast<std::size_t>(n));
    if (log >= 0) {
      if (::write(log, chunk.data(), chunk.size()) < 0) { /* keep draining */ }
    } else {
      res.output.append(chunk);
    }
    if (opts.echo) {
      line_buf.append(chunk);
      auto nl = line_buf.rfind('\n');
      if (nl != std::string::npos) {
        std::fwrite(line_buf.data(), 1, nl + 1, stderr);
        line_buf.erase(0, nl + 1);
      }
    }
  }
  if (opts.echo && !line_buf.empty()) std::fwrite(line_buf.data(), 1, line_buf.size(), stderr);
}

}  // namespace

ProcessResult run(const std::vector<std::string>& argv, const ProcessOptions& opts) {
  if (argv.empty()) throw std::invalid_argument("run: empty argv");
  const auto started = std::chrono::steady_clock::now();
  int out_pipe[2], in_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(in_pipe, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe");
  Fd out_r{out_pipe[0]}, out_w{out_pipe[1]}, in_r{in_pipe[0]}, in_w{in_pipe[1]};
  Fd log;
  if (!opts.log_file.empty()) {
    log.reset(::open(opts.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
    if (log.fd < 0)
      throw std::system_error(errno, std::generic_category(), "open " + opts.log_file.string());
  }
  const pid_t pid = spawn(argv, opts, in_r.fd, out_w.fd);
  {
    std::lock_guard lock(g_children_mu);
    g_children.insert(pid);
  }
  in_r.reset();
  out_w.reset();
  feed(in_w.fd, opts.stdin_data);
  in_w.reset();

  ProcessResult res;
  drain(out_r.fd, log.fd, pid, opts, started, res);
  // Waited for without reaping, then forgotten, then reaped: while it is in g_children its
  // pid cannot have been given to another process.
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  {
    std::lock_guard lock(g_children_mu);
    g_children.erase(pid);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) res.exit_code = 128 + WTERMSIG(status);
  res.elapsed = std::chrono::steady_clock::now() - started;
  return res;
}

std::size_t signal_running_children(int sig) {
  std::lock_guard lock(g_children_mu);
  std::size_t n = 0;
  for (const pid_t pid : g_children)
    if (::kill(-pid, sig) == 0) ++n;
  return n;
}

ProcessResult run_checked(const std::vector<std::string>& argv, const ProcessOptions& opts,
                          std::size_t tail_lines) {
  auto res = run(argv, opts);
  if (res.ok()) return res;
  std::string msg = display_command(argv) +
                    (res.timed_out ? " timed out" : " failed with exit code " +
                                                         std::to_string(res.exit_code));
  if (!opts.log_file.empty()) {
    msg += " (log: " + opts.log_file.string() + ")";
  } else if (!res.output.empty()) {
    msg += ":\n" + tail(res.output, tail_lines);
  }
  ProcessError err(msg);
  err.result = std::move(res);
  throw err;
}

std::string trim_end(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace rlab::util
