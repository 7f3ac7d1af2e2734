#pragma once
// The lab the fault tests inject into: a scratch directory under /var/tmp with a matrix and
// its store, `rlab run` started in the background (its pid, for SIGKILL), the guests it boots
// on the shared libvirtd (qemu:///system), and the checks every fault must pass afterwards:
// no domain of the run left, no per-boot disk or agent socket left in the run directory, the
// store's PRAGMA integrity_check "ok".
#include "real_lab.hpp"
#include "store/store.hpp"

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlab::faults {

/// The shape of the fault tests' matrices: kernel "6.12" (64K, cached) plus `extra_kernels`
/// (YAML entries under `kernels:`, indented 2), the axes' `kernel_axis` (YAML list), the
/// `filesystems` (testing::SmallMatrix::filesystems), 1 vCPU, shell1 one 8 s pass, the local
/// libvirtd with a budget of `budget` vCPUs.
rlab::testing::SmallMatrix fault_matrix(const std::vector<std::string>& filesystems, unsigned budget = 2,
                                  const std::string& kernel_axis = R"(["6.12"])",
                                  const std::string& extra_kernels = "");

/// The YAML text of fault_matrix(filesystems, budget, kernel_axis, extra_kernels).
std::string matrix_text(const std::vector<std::string>& filesystems, unsigned budget = 2,
                        const std::string& kernel_axis = R"(["6.12"])",
                        const std::string& extra_kernels = "");

/// The static aarch64 agent with the fault injector in front (data/fault_agent.c): cells
/// whose ext4 disk is labelled rlab-panic / rlab-crash get a kernel panic / a SIGSEGV to the
/// agent 6 s after the mount; every other cell runs the ordinary agent. Built once per
/// process with aarch64-linux-gnu-gcc into `dir`.
std::filesystem::path fault_agent(const std::filesystem::path& dir);

/// The ordinary static aarch64 agent (built with the aarch64-agent preset when missing).
std::filesystem::path plain_agent();

/// Starts the shared libvirtd if it is not running (scripts/start-libvirtd.sh).
void ensure_libvirtd();

/// One scratch lab: /var/tmp/rlab-fault-<name>-<pid>/ with matrix.yaml; removed at the end
/// unless the test failed.
struct Lab {
  std::filesystem::path dir;
  std::filesystem::path matrix;
  std::filesystem::path db;  ///< dir/rlab.db (the matrix's `results:`)

  Lab(const std::string& name, const std::string& matrix_yaml);
  ~Lab();
  Lab(const Lab&) = delete;
  Lab& operator=(const Lab&) = delete;
};

/// `rlab <args>` running in the background, stdout+stderr into `log`.
class Rlab {
 public:
  Rlab(const std::vector<std::string>& args, const std::filesystem::path& log);
  ~Rlab();  ///< SIGKILLs and reaps it if still running
  Rlab(const Rlab&) = delete;
  Rlab& operator=(const Rlab&) = delete;

  pid_t pid() const { return pid_; }
  /// Waits for the exit (at most `limit`); returns the exit code, 128+N after signal N, -1
  /// on timeout.
  int wait(std::chrono::seconds limit);
  /// The log so far (last `lines` lines).
  std::string log_tail(std::size_t lines = 60) const;

 private:
  pid_t pid_ = -1;
  std::filesystem::path log_;
};

/// Runs `rlab <args>` to completion (at most `limit`); returns exit code and output.
std::pair<int, std::string> run_rlab(const std::vector<std::string>& args,
                                     std::chrono::seconds limit = std::chrono::seconds(900));

/// The value of a one-column query on the store (sqlite3 CLI, read-only), "" when no row.
std::string query(const std::filesystem::path& db, const std::string& sql);

/// Polls until `query(db, sql)` answers something other than "" and "0"; false after `limit`.
bool wait_for(const std::filesystem::path& db, const std::string& sql, std::chrono::seconds limit);

/// The libvirt domain prefix of run `run` of store `db` ("rlab-<run label>-").
std::string domain_prefix(store::RunId run, const std::filesystem::path& db);

/// The running domain of run 1 of `db` whose name contains `part` (polls up to `limit`).
std::optional<std::string> wait_domain(const std::filesystem::path& db, const std::string& part,
                                       std::chrono::seconds limit);

/// The pid of the QEMU process of domain `name` (its `-name guest=<name>,` argument).
std::optional<pid_t> qemu_pid(const std::string& name);

/// Asserts (gtest) that nothing of run `run` leaked: no domain in `virsh list --all`, no
/// fs.raw or agent.sock under the run directory, PRAGMA integrity_check ok.
void expect_no_leaks(const std::filesystem::path& db, store::RunId run);

}  // namespace rlab::faults
