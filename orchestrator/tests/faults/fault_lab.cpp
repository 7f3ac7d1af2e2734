#include "fault_lab.hpp"

#include "image/guest_images.hpp"
#include "run/run.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"
#include "vm/domain_xml.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

extern char** environ;

namespace rlab::faults {
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

rlab::testing::SmallMatrix fault_matrix(const std::vector<std::string>& filesystems, unsigned budget,
                                  const std::string& kernel_axis, const std::string& extra_kernels) {
  return {.filesystems = filesystems,
          .duration_s = 8,
          .seed = 7,
          .extra_kernels = extra_kernels,
          .kernel_axis = kernel_axis,
          .hosts = {{"qemu:///system", budget, ""}}};
}

std::string matrix_text(const std::vector<std::string>& filesystems, unsigned budget,
                        const std::string& kernel_axis, const std::string& extra_kernels) {
  return rlab::testing::small_matrix(fault_matrix(filesystems, budget, kernel_axis, extra_kernels));
}

fs::path plain_agent() {
  try {
    return image::default_agent_binary();
  } catch (const std::exception&) {
    util::ProcessOptions o;
    o.cwd = RLAB_SOURCE_DIR;
    util::run_checked({"cmake", "--preset", "aarch64-agent"}, o);
    util::run_checked({"cmake", "--build", "build/aarch64", "--target", "rlab-agent"}, o);
    return image::default_agent_binary();
  }
}

fs::path fault_agent(const fs::path& dir) {
  fs::path out = dir / "rlab-fault-agent";
  fs::path front = dir / "fault-agent-front";
  util::run_checked({"aarch64-linux-gnu-gcc", "-static", "-O2", "-o", front.string(),
                     std::string(RLAB_TEST_DATA) + "/fault_agent.c"});
  std::string agent = util::read_file(plain_agent());
  std::string bytes = util::read_file(front) + agent;
  unsigned long long len = agent.size();
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>((len >> (8 * i)) & 0xff);
  bytes += "RLABFLT1";
  std::ofstream(out, std::ios::binary) << bytes;
  fs::permissions(out, fs::perms(0755));
  return out;
}

void ensure_libvirtd() {
  auto r = util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(r.ok()) << r.output;
}

Lab::Lab(const std::string& name, const std::string& matrix_yaml) {
  // Under /var/tmp: QEMU's user must reach the run directory next to the store.
  dir = fs::path("/var/tmp") / ("rlab-fault-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  matrix = dir / "matrix.yaml";
  db = dir / "rlab.db";
  std::ofstream(matrix) << matrix_yaml;
}

Lab::~Lab() {
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

namespace {
std::string rlab_bin() {
  const char* bin = std::getenv("RLAB_BIN");
  return bin ? bin : RLAB_BINARY_DIR "/orchestrator/rlab";
}
}  // namespace

Rlab::Rlab(const std::vector<std::string>& args, const fs::path& log) : log_(log) {
  std::vector<std::string> argv{rlab_bin()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  int rc = posix_spawn(&pid_, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
}

Rlab::~Rlab() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

int Rlab::wait(std::chrono::seconds limit) {
  const auto until = Clock::now() + limit;
  while (Clock::now() < until) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(200ms);
  }
  return -1;
}

std::string Rlab::log_tail(std::size_t lines) const {
  return util::tail(util::read_file(log_), lines);
}

std::pair<int, std::string> run_rlab(const std::vector<std::string>& args, std::chrono::seconds limit) {
  std::vector<std::string> argv{rlab_bin()};
  argv.insert(argv.end(), args.begin(), args.end());
  util::ProcessOptions o;
  o.timeout = limit;
  auto r = util::run(argv, o);
  return {r.exit_code, r.output};
}

std::string query(const fs::path& db, const std::string& sql) {
  if (!fs::exists(db)) return "";
  auto r = util::run({"sqlite3", "-readonly", "-cmd", ".timeout 5000", db.string(), sql});
  std::string out = r.ok() ? r.output : "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

bool wait_for(const fs::path& db, const std::string& sql, std::chrono::seconds limit) {
  const auto until = Clock::now() + limit;
  while (Clock::now() < until) {
    auto v = query(db, sql);
    if (!v.empty() && v != "0") return true;
    std::this_thread::sleep_for(500ms);
  }
  return false;
}

std::string domain_prefix(store::RunId run, const fs::path& db) {
  return vm::domain_name(run::run_label(run, db), "") + "-";
}

std::optional<std::string> wait_domain(const fs::path& db, const std::string& part,
                                       std::chrono::seconds limit) {
  const std::string prefix = domain_prefix(1, db);
  const auto until = Clock::now() + limit;
  while (Clock::now() < until) {
    auto r = util::run({"virsh", "-c", "qemu:///system", "list", "--name"});
    std::istringstream in(r.output);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(prefix, 0) == 0 && line.find(part) != std::string::npos) return line;
    std::this_thread::sleep_for(300ms);
  }
  return std::nullopt;
}

std::optional<pid_t> qemu_pid(const std::string& name) {
  const std::string needle = "guest=" + name + ",";
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmdline.find("qemu-system") != std::string::npos && cmdline.find(needle) != std::string::npos)
      return static_cast<pid_t>(std::stol(pid));
  }
  return std::nullopt;
}

void expect_no_leaks(const fs::path& db, store::RunId run) {
  const std::string prefix = domain_prefix(run, db);
  auto r = util::run({"virsh", "-c", "qemu:///system", "list", "--all", "--name"});
  EXPECT_TRUE(r.ok()) << r.output;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);)
    EXPECT_NE(line.rfind(prefix, 0), 0u) << "domain " << line << " of run " << run << " is left";
  fs::path run_dir = db.parent_path() / "runs" / rlab::run::run_label(run, db);
  EXPECT_TRUE(fs::is_directory(run_dir)) << run_dir;
  if (fs::is_directory(run_dir))
    for (const auto& e : fs::recursive_directory_iterator(run_dir)) {
      auto name = e.path().filename().string();
      EXPECT_TRUE(name != "fs.raw" && name != "agent.sock") << e.path() << " is left";
    }
  EXPECT_EQ(query(db, "PRAGMA integrity_check"), "ok");
}

}  // namespace rlab::faults
