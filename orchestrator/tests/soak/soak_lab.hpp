#pragma once
// The soak tests' lab: unattended nights of `rlab nightly` over a generated kernel tree
// (kernel_series.hpp), booted through a private libvirtd (private_libvirtd.hpp, so it can be
// restarted under a night) with the kernel cache on a small loop-mounted ext4 file system
// (RLAB_CACHE_DIR, so it can be filled) under a budget far below what the nights build, and
// the checks every night must pass (check_night). Root only (mount, losetup).
#include "kernel_series.hpp"
#include "night_dir.hpp"
#include "private_libvirtd.hpp"

#include "kernel_bisect/git.hpp"
#include "kernel_bisect/session.hpp"
#include "image/guest_images.hpp"
#include "util/file_lock.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace rlab::testing {

/// One night's figures, as docs/benchmarks.md "Soak" records them.
struct NightFigures {
  int night = 0;
  int exit_code = 0;
  double wall_min = 0;           ///< wall minutes of `rlab nightly`
  double cache_gib = 0;          ///< the cache's total after the night (`rlab cache --json`)
  double store_mib = 0;          ///< the store file and its WAL
  double run_dirs_mib = 0;       ///< <lab>/runs (consoles, logs)
  std::string what;              ///< what the night was for
};

class SoakLab {
 public:
  /// `cache_gib`: size of the loop-mounted cache file system; `budget_gib`: the matrix's
  /// cache.max_gib; `repeats`, `duration_s`: the one cell's boots and pass length.
  SoakLab(const std::string& name, unsigned cache_gib, unsigned budget_gib, unsigned repeats,
          unsigned duration_s)
      : work_(night_dir(name)), tree_(work_), daemon_(work_ / "libvirtd", /*keep_state=*/true),
        budget_gib_(budget_gib) {
    namespace fs = std::filesystem;
    EXPECT_TRUE(daemon_.up()) << daemon_.log();
    // The cache: an ext4 file system in a sparse file, loop-mounted. Its compiler cache and
    // Debian userland start from the machine's (content-keyed: only warm, never wrong), so a
    // night's kernel is an incremental build, as on a lab that has run before.
    image_ = work_ / "cache.ext4";
    mnt_ = work_ / "cache";
    fs::create_directories(mnt_);
    sh({"truncate", "-s", std::to_string(cache_gib) + "G", image_.string()});
    sh({"mkfs.ext4", "-q", "-F", "-m", "0", image_.string()});
    sh({"mount", "-o", "loop", image_.string(), mnt_.string()});
    mounted_ = true;
    for (const char* d : {"ccache", "apt", "images", "unixbench"})
      if (fs::exists(util::cache_dir() / d)) sh({"cp", "-a", (util::cache_dir() / d).string(), (mnt_ / d).string()});
    std::ofstream(work_ / "matrix.yaml") << matrix(repeats, duration_s);
  }
  ~SoakLab() {
    if (mounted_) util::run({"umount", "-l", mnt_.string()});
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(work_);
  }
  SoakLab(const SoakLab&) = delete;
  SoakLab& operator=(const SoakLab&) = delete;

  KernelSeries& tree() { return tree_; }
  PrivateLibvirtd& daemon() { return daemon_; }
  std::filesystem::path db() const { return work_ / "rlab.db"; }
  std::filesystem::path cache() const { return mnt_; }
  std::filesystem::path reports() const { return work_ / "reports"; }

  /// `rlab nightly` in the background, output to <lab>/night<N>.log; its pid.
  pid_t start_night(int n) {
    ::setenv("RLAB_CACHE_DIR", mnt_.c_str(), 1);
    const char* bin = std::getenv("RLAB_BIN");
    EXPECT_TRUE(bin && *bin);
    t0_ = std::chrono::steady_clock::now();
    log_ = work_ / fmt::format("night{}.log", n);
    return spawn_logged({bin ? bin : "rlab", "nightly", "--matrix", (work_ / "matrix.yaml").string(), "--agent",
                         image::default_agent_binary().string(), "--out", reports().string()},
                        log_);
  }
  /// Waits for night `pid` to end (at most 2 h); its exit code (128+N after signal N).
  int wait_night(pid_t pid) {
    int status = 0;
    for (auto until = std::chrono::steady_clock::now() + std::chrono::hours(2);;) {
      if (::waitpid(pid, &status, WNOHANG) == pid) break;
      if (std::chrono::steady_clock::now() > until) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        ADD_FAILURE() << "night did not end within 2 h";
        break;
      }
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  /// A whole night; its exit code.
  int night(int n) { return wait_night(start_night(n)); }
  /// The last night's output.
  std::string log() const { return util::read_file(log_); }
  double minutes() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count() / 60;
  }

  /// Polls until `sql` on the store answers a number > 0 (at most `limit`, while `pid` runs).
  bool wait_for(const std::string& sql, pid_t pid, std::chrono::seconds limit) {
    for (auto until = std::chrono::steady_clock::now() + limit; std::chrono::steady_clock::now() < until;
         std::this_thread::sleep_for(std::chrono::seconds(1))) {
      if (exited(pid)) return false;
      if (std::atoll(query(sql).c_str()) > 0) return true;
    }
    return false;
  }
  /// Whether child `pid` has ended, without reaping it (wait_night() still reads its status).
  /// kill(pid, 0) cannot tell: it succeeds on a zombie, and a wait on it then lasts its limit.
  static bool exited(pid_t pid) {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == pid;
  }
  /// A one-value query on the store (sqlite3 CLI, read-only); "" when there is no row.
  std::string query(const std::string& sql) const {
    if (!std::filesystem::exists(db())) return "";
    auto r = util::run({"sqlite3", "-readonly", "-cmd", ".timeout 10000", db().string(), sql});
    while (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
    return r.ok() ? r.output : "";
  }

  /// Fills the cache file system until `leave_mib` MiB are free (file <cache>/ballast).
  void fill_cache_disk(unsigned leave_mib) {
    struct statvfs v {};
    ASSERT_EQ(::statvfs(mnt_.c_str(), &v), 0);
    const auto free_mib = static_cast<long long>(v.f_bavail * v.f_frsize >> 20);
    if (free_mib > leave_mib)
      sh({"fallocate", "-l", std::to_string(free_mib - leave_mib) + "M", (mnt_ / "ballast").string()});
  }
  void empty_cache_disk() { std::filesystem::remove(mnt_ / "ballast"); }

  /// The checks after every night: no `.partial-*` cache entry, no lock held, the store whole,
  /// the kernel tree not left bisecting, the cache within its budget; and after a night that
  /// ran to its end (not `killed`: what a SIGKILL leaves is the next night's to clear, and
  /// that night's check sees it cleared) no guest of the lab left on the daemon, no staged
  /// images left in a run directory, no unfinished bisection. Returns the night's figures.
  NightFigures check_night(int n, int code, const std::string& what, bool killed = false) {
    namespace fs = std::filesystem;
    NightFigures f;
    f.night = n;
    f.exit_code = code;
    f.wall_min = minutes();
    f.what = what;
    if (!killed) {
      EXPECT_TRUE(daemon_.domains("rlab-").empty()) << "night " << n << ": a guest is left";
    }
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(mnt_, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const auto name = it->path().filename().string();
      EXPECT_EQ(name.find(".partial-"), std::string::npos) << "night " << n << ": " << it->path() << " is left";
      if (name == "ccache" || name == "kbuild" || name == "sources") it.disable_recursion_pending();
    }
    for (const fs::path& dir : {mnt_ / "locks", fs::path(db().string() + ".locks")}) {
      if (!fs::is_directory(dir)) continue;
      for (const auto& e : fs::directory_iterator(dir)) {
        EXPECT_TRUE(util::FileLock::try_lock(e.path())) << "night " << n << ": " << e.path() << " is held";
      }
    }
    EXPECT_EQ(query("PRAGMA integrity_check"), "ok") << "night " << n;
    EXPECT_FALSE(kernel_bisect::GitTree(tree_.repo()).bisecting()) << "night " << n;
    if (!killed) {
      EXPECT_EQ(query("SELECT count(*) FROM bisect_sessions WHERE status IN ('ends', 'bisecting')"), "0")
          << "night " << n;
    }
    const auto usage = util::run({std::getenv("RLAB_BIN"), "cache", "--json"}, cache_env());
    const auto j = nlohmann::json::parse(usage.output, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << usage.output;
    if (!j.is_discarded()) {
      // Within the budget, but for what was used in the last 15 minutes (the budget's in-use
      // grace: the soak's nights are minutes apart, a lab's a day).
      f.cache_gib = j.value("total_bytes", 0.0) / (1 << 30);
      EXPECT_LE(j.value("total_bytes", 0.0) - j.value("in_grace_bytes", 0.0), budget_gib_ * double(1 << 30))
          << "night " << n << ": over budget\n" << usage.output;
    }
    for (const auto& p : {db(), fs::path(db().string() + "-wal")})
      if (fs::exists(p)) f.store_mib += fs::file_size(p) / double(1 << 20);
    if (fs::exists(work_ / "runs")) {
      for (const auto& e : fs::recursive_directory_iterator(work_ / "runs"))
        if (e.is_regular_file()) f.run_dirs_mib += e.file_size() / double(1 << 20);
      for (const auto& run : fs::directory_iterator(work_ / "runs")) {
        if (killed) break;
        EXPECT_FALSE(fs::exists(run.path() / "images")) << "night " << n << ": staged images of a finished run are left in " << run.path();
      }
    }
    std::fprintf(stderr, "[soak] night %d (%s): exit %d, %.1f min, cache %.2f GiB, store %.2f MiB, runs %.2f MiB\n",
                 n, what.c_str(), code, f.wall_min, f.cache_gib, f.store_mib, f.run_dirs_mib);
    return f;
  }

  /// The summary.txt of the last night's reports (the directory its output names after
  /// "reports: "); "" when it wrote none.
  std::string newest_summary() const {
    const std::string out = log();
    const auto at = out.rfind("\nreports: ");
    if (at == std::string::npos) return "";
    const auto end = out.find('\n', at + 1);
    const std::filesystem::path dir = out.substr(at + 10, end == std::string::npos ? std::string::npos : end - at - 10);
    return std::filesystem::exists(dir / "summary.txt") ? util::read_file(dir / "summary.txt") : "";
  }
  std::size_t report_dirs() const {
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(reports())) n += e.is_directory();
    return n;
  }

 private:
  std::string matrix(unsigned repeats, unsigned duration_s) const {
    return fmt::format(R"(kernels:
  linux:
    source: {{git: {0}, ref: main}}
    page_size: 64k
axes:
  kernel: [linux]
  filesystem:
    - fs: xfs
  vcpus: [1]
  workload:
    - {{type: shell1, copies: vcpus, passes: 1, duration_s: {2}, attribution: counts}}
  repeats: {1}
guest: {{memory_mib: 1024, cpu: auto, accel: tcg, clock: icount, disk_gib: 2}}
hosts:
  - {{uri: "{3}", vcpus: 2, agent_link: socket}}
results: rlab.db
seed: 17
cache: {{max_gib: {4}}}
nightly:
  tree: {0}
  keep_reports: 4
)",
                       tree_.repo().string(), repeats, duration_s, daemon_.uri(), budget_gib_);
  }
  util::ProcessOptions cache_env() const {
    util::ProcessOptions o;
    o.env = {{"RLAB_CACHE_DIR", mnt_.string()}};
    o.timeout = std::chrono::seconds(600);
    return o;
  }
  static void sh(const std::vector<std::string>& argv) {
    const auto r = util::run(argv);
    ASSERT_TRUE(r.ok()) << util::display_command(argv) << ": " << r.output;
  }

  std::filesystem::path work_;
  KernelSeries tree_;
  PrivateLibvirtd daemon_;
  unsigned budget_gib_;
  std::filesystem::path image_, mnt_, log_;
  bool mounted_ = false;
  std::chrono::steady_clock::time_point t0_{};
};

}  // namespace rlab::testing
