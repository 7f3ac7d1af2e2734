#pragma once
// Child processes from argv vectors. No shell is ever involved: arguments reach execvp
// exactly as given, so strings from matrix.yaml can never be interpreted as shell syntax.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlab::util {

/// How to run one child process.
struct ProcessOptions {
  std::filesystem::path cwd;                        ///< empty: inherit
  std::map<std::string, std::string> env;           ///< added to / overriding the environment
  std::optional<std::chrono::seconds> timeout;      ///< SIGKILL after this; nullopt: none
  /// Where output goes. Empty (default): captured into ProcessResult::output (stdout and
  /// stderr interleaved). Otherwise appended to this file.
  std::filesystem::path log_file;
  /// Also copy captured/logged output to our stderr, line by line (progress of long builds).
  bool echo = false;
  std::string stdin_data;                           ///< written to the child's stdin, then EOF
};

/// Outcome of one child process.
struct ProcessResult {
  int exit_code = -1;      ///< exit status; 128+N when killed by signal N
  bool timed_out = false;  ///< killed because ProcessOptions::timeout elapsed
  std::string output;      ///< captured stdout+stderr (empty when logged to a file)
  std::chrono::duration<double> elapsed{};  ///< wall time
  bool ok() const { return exit_code == 0 && !timed_out; }
};

/// Raised by run_checked(): names the command, the exit code and the output's last lines.
struct ProcessError : std::runtime_error {
  using std::runtime_error::runtime_error;
  ProcessResult result;
};

/// Runs argv[0] (looked up in PATH) with argv. Throws std::system_error when it cannot be
/// started at all (e.g. ENOENT: not installed); otherwise returns whatever it did.
ProcessResult run(const std::vector<std::string>& argv, const ProcessOptions& opts = {});

/// Sends `sig` to the process group of every child that run() is waiting for now, from any
/// thread (each child leads its own group: make with its compilers, git, tar, ...). For stop
/// signals: Ctrl-C or SIGTERM ends a running kernel build at once, rather than after make has
/// finished. Children started afterwards are not affected. Returns how many groups were sent
/// the signal.
std::size_t signal_running_children(int sig);

/// run(), and throws ProcessError unless it exits 0 in time. The message holds the command
/// line (quoted for reading, never executed) and up to `tail_lines` lines of its output.
ProcessResult run_checked(const std::vector<std::string>& argv, const ProcessOptions& opts = {},
                          std::size_t tail_lines = 30);

/// The command line for messages: words with spaces or quotes are single-quoted.
std::string display_command(const std::vector<std::string>& argv);

/// The last `n` lines of `text`.
std::string tail(const std::string& text, std::size_t n);

/// `s` without trailing newlines, carriage returns and spaces (a command's one-line output).
std::string trim_end(std::string s);

/// The path of `name` in PATH, or nullopt.
std::optional<std::filesystem::path> find_program(const std::string& name);

}  // namespace rlab::util
