#pragma once
// The results store: one SQLite database (WAL mode, foreign keys on) holding runs, the cells
// of each run, every boot (one repeat of a cell), its kernel and image identity, the agent's
// hello, passes, samples, the result with its environment, and failures. The schema is
// documented in docs/store.md. Every write is one transaction: a failing write rolls back
// only itself and never loses rows already stored.
#include "store/cell_row.hpp"
#include "store/status.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace rlab::store {

class Store;
namespace detail {
struct Access;  // store/'s own files reach the connection through it (sqlite.hpp)
}

/// A store operation failed. what() names the operation, the database file and SQLite's message.
struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The file given as a store is not one (not SQLite, or another program's database); it was
/// left unchanged. Bad input rather than a lab failure (exit 2 in the CLI).
struct NotAStoreError : StoreError {
  using StoreError::StoreError;
};

using RunId = std::int64_t;
using BootId = std::int64_t;

/// What create_run() records about a new run.
struct NewRun {
  std::string matrix_path;   ///< the matrix file as given
  std::string matrix_text;   ///< its exact text (resume re-parses it)
  std::uint64_t seed = 0;    ///< shuffle seed of the cell order
  std::string kind = "matrix";  ///< "matrix", "bisect", "nightly", ...
  std::string note;          ///< free text (e.g. the bisect range)
};

/// A run as stored. Times are ISO 8601 UTC ("2026-11-30T09:01:43.123Z").
struct RunInfo {
  RunId id = 0;
  std::string kind;
  RunStatus status = RunStatus::running;  ///< done, failed (some boot failed), interrupted
  std::string created_at;
  std::string finished_at;   ///< "" while running
  std::string matrix_path;
  std::string matrix_text;
  std::uint64_t seed = 0;
  std::string rlab_version;
  std::string hostname;      ///< machine that ran rlab
  std::string note;
};

/// One boot of a run: a (cell, repeat) pair and its state.
struct BootRef {
  BootId id = 0;
  std::string cell_id;       ///< CellRow::id
  unsigned repeat = 0;       ///< 0-based
  BootStatus status = BootStatus::pending;
  int order_index = -1;      ///< position in the run's shuffled order, -1 if not set
  unsigned attempts = 0;     ///< how often start_boot() was called (resume restarts count)
};

/// The identity of a built kernel (image::GuestImages fields).
struct KernelIdentity {
  std::string kernel_key;      ///< content key of the build (sha256 hex)
  std::string name;            ///< the matrix's kernel name
  std::string kernel_release;  ///< `make kernelrelease`
  std::string source_commit;   ///< git SHA or Debian package version
  std::string config_sha256;   ///< sha256 of the final .config
  unsigned page_size_kib = 64;
  std::string patchset;        ///< "" for none
  /// Where the kernel came from (build::kernel_origin(): Debian package, git tree and commit,
  /// prebuilt Image SHA-256, full .config SHA-256); "" when not known.
  std::string origin;
};

/// The agent's `hello`, as the guest reported it.
struct Hello {
  unsigned page_size = 0;      ///< bytes
  unsigned nr_cpus = 0;
  std::string kernel_release;
  std::string agent_version;
  std::uint64_t mem_total_kib = 0;
  std::string tracepoints_json = "[]";  ///< JSON array of available xfs:* events
  /// The guest's boot timeline, seconds of its own clock since the kernel started (protocol
  /// Hello): /init began, the agent started, the hello was made; nullopt when not said.
  std::optional<double> init_s, agent_s, hello_s;
};

/// How a boot came to its hello: host seconds from domain start (boots.boot_s) and the guest's
/// own timeline (Hello::init_s, agent_s, hello_s). nullopt where not recorded: no hello, a boot
/// stored before schema 7, a bare guest or an agent that does not say.
struct BootPhases {
  BootId boot_id = 0;
  std::string cell_id;
  std::optional<double> boot_s, init_s, agent_s, hello_s;
};

/// One `pass` message.
struct Pass {
  unsigned index = 0;          ///< 0-based pass number
  std::uint64_t loops = 0;
  std::uint64_t failures = 0;
  double duration_s = 0;       ///< UnixBench's pass time, seconds (protocol PassReport::duration_s)
  double lpm = 0;              ///< loops per minute: loops * 60 / duration_s
  std::string latency_json = "{}";   ///< {"bounds_s": [...], "counts": [...]}
  std::string counters_json = "{}";  ///< protocol counters object, totalled over the pass
  /// XFS only: allocation groups the load's inodes were seen in / the filesystem's AG count /
  /// distinct inodes seen (protocol::Placement); nullopt on other filesystems.
  std::optional<std::uint32_t> inode_ags, agcount;
  std::optional<std::uint64_t> inodes_seen;
  /// Where the pass's time went: the protocol Attribution object as JSON; nullopt when the
  /// run collected none (attribution "off").
  std::optional<std::string> attribution_json;
  /// The counting window alone, seconds (protocol PassReport::window_s); nullopt in rows
  /// stored before schema 5, whose duration_s was the window.
  std::optional<double> window_s;
};

/// One `sample` message.
struct Sample {
  unsigned pass = 0;
  double t_s = 0;              ///< seconds since the pass started
  std::uint64_t loops = 0;     ///< completed so far in this pass
  std::uint64_t failures = 0;
  std::string counters_json = "{}";  ///< protocol counters object (deltas)
  // The host side of the sample's interval (since the previous sample of the same pass;
  // docs/methodology.md "Host facts per sample"). nullopt where not read: the first sample of
  // a pass, a remote host's frequency, a stopped libvirt answer.
  std::optional<double> host_s = std::nullopt;      ///< host wall seconds the facts below cover
  std::optional<double> host_busy = std::nullopt;   ///< non-idle share of all host CPUs' time, [0, 1] (from the host's libvirt, any host)
  std::optional<double> host_steal = std::nullopt;  ///< stolen share of all host CPUs' time, [0, 1] (from the host's libvirt: wall time x CPUs less the four states it reports)
  std::optional<double> host_mhz = std::nullopt;    ///< mean host CPU frequency at the sample, MHz (local host, where readable)
  std::optional<double> vcpu_share = std::nullopt;  ///< the guest's vCPU threads' host CPU time / (vCPUs x host_s); 1 - steal of the guest
};

/// Everything a result's comparability depends on (DESIGN "Comparability"). Its fields are
/// listed once, by name, in kEnvFields; the `results` table holds each as column env_<name>.
struct Environment {
  std::string host;            ///< libvirt URI the cell ran on
  std::string accel;           ///< "kvm" or "tcg"
  std::string cpu_model;       ///< QEMU CPU model, e.g. "max"
  std::string cpu_options;     ///< e.g. "pauth=off"
  unsigned memory_mib = 0;
  unsigned vcpus = 0;
  unsigned page_size = 0;      ///< bytes, as the guest reported
  std::string kernel_release;
  std::string config_sha256;
  std::string fs;              ///< "xfs"/"ext4"
  std::string mkfs_options;    ///< JSON array of argv words
  std::string mount_options;
  std::string agent_version;
  std::string workload;        ///< "shell1"/"shell8"
  unsigned copies = 0;
  unsigned passes = 0;
  double duration_s = 0;
  std::string locale = "C";    ///< LANG of the load
  std::string layout = "shared";  ///< "shared" (UnixBench's one test directory) or "per-copy"
  /// The input the scripts sort: "sha256:<hex>" of the bytes shipped to the guest (the matrix's
  /// `input`, or the agent's generated input, protocol::kGeneratedInputSha256).
  std::string input;
  bool drop_caches = false;    ///< caches dropped before every pass
  std::string runner = "rlab"; ///< "rlab" or "unixbench" (UnixBench's own scripts)
  std::string disk = "virtio"; ///< where the filesystem under test lives: "virtio" or "ram" (brd)
  /// What the guest collected besides the score: "off", "counts" or "stacks" (protocol Run).
  std::string attribution = "off";
  /// Seconds between the agent's periodic samples during a pass; 0 = none (samples at the
  /// window's edges only). Sampling costs the load (docs/agent.md "Own cost").
  double sample_interval_s = 0;
};

/// The names of Environment's fields, in one list: the `results` columns are env_<name>, and
/// compare, changepoint, nightly and metrics read and compare them by these names.
inline constexpr std::array<std::string_view, 25> kEnvFields = {
    "host",          "accel",    "cpu_model", "cpu_options", "memory_mib",     "vcpus",
    "page_size",     "kernel_release", "config_sha256", "fs", "mkfs_options",  "mount_options",
    "agent_version", "workload", "copies",    "passes",      "duration_s",     "locale",
    "layout",        "input",    "drop_caches", "runner",    "disk",           "attribution",
    "sample_interval_s"};

/// Field `name` (a kEnvFields name) of `e` as text, as the store shows it: whole numbers in
/// decimal, drop_caches 0 or 1, duration_s as SQLite writes a REAL ("20.0", "2.5"). Throws
/// std::out_of_range for a name that is not in kEnvFields.
std::string env_field(const Environment& e, std::string_view name);

/// The `result` message.
struct Result {
  double score = 0;            ///< lpm, UnixBench aggregation over the passes
  std::uint64_t failures = 0;  ///< failed loops, all passes
  std::string failure_examples_json = "[]";
};

/// One boot's outcome joined with its cell, for tables and comparisons.
struct BootResult {
  BootId boot_id = 0;
  std::string cell_id;
  std::string kernel;          ///< matrix kernel name
  std::string patchset;
  std::string fs;
  std::string mkfs_label;      ///< e.g. "agcount=4", "defaults"
  unsigned vcpus = 0;
  std::string workload;        ///< cell's workload name
  std::string workload_kind;   ///< "shell1" or "shell8"
  unsigned copies = 0;
  unsigned repeat = 0;
  BootStatus status = BootStatus::pending;
  std::optional<double> score;        ///< lpm; nullopt unless status is done
  std::uint64_t loops = 0;            ///< sum over passes
  std::uint64_t loop_failures = 0;    ///< sum over passes
  std::uint64_t inodegc_throttle = 0; ///< sum of xfs:xfs_inodegc_throttle over passes
  bool throttle_counted = false;      ///< some pass reported the tracepoint
  unsigned guest_page_size = 0;       ///< from hello; 0 if none
  std::string kernel_release;         ///< from hello
  std::string failure;                ///< last failure's "phase: message", "" if none
  /// XFS: mean over the boot's passes of the allocation groups its load's inodes were seen
  /// in, and the filesystem's AG count; nullopt when no pass reported a placement.
  std::optional<double> inode_ags;
  std::optional<unsigned> agcount;
  std::string layout;                 ///< results.env_layout ("" without a result)
};

/// The machine rlab runs on around one boot (read from /proc/loadavg and /proc/stat just
/// before the domain starts and just after it is gone), and the boot's pinning.
struct BootHost {
  unsigned cpus = 0;            ///< online host CPUs
  double load1_before = 0;      ///< 1-minute load average before the boot
  double load1_after = 0;       ///< 1-minute load average after it
  double busy_fraction = 0;     ///< non-idle share of all host CPU time over the boot, [0, 1]; includes the guest's own QEMU
  double steal_fraction = 0;    ///< stolen share of all host CPU time (the host is itself a guest), [0, 1]
  double seconds = 0;           ///< wall seconds between the two readings
  std::string vcpu_pins = "[]"; ///< JSON array of each vCPU's host cpuset; "[]" unpinned
  std::string emulator_pin;     ///< host cpuset of the emulator threads; "" unpinned
};

/// What one boot ran on, read back from its host's libvirt and its guest after it started
/// (table boot_platform).
struct BootPlatform {
  std::string domain_type;       ///< libvirt's `<domain type>`: "kvm" or "qemu" (TCG)
  std::string guest_hypervisor;  ///< the guest's view: "kvm", "none"; "" from an agent that does not say
  unsigned host_page_kib = 0;    ///< the host's base page size, KiB; 0 unknown
  std::string vcpu_cpus = "[]";  ///< JSON array: the host cpuset each vCPU may run on
  std::string emulator_cpus;     ///< the emulator threads' host cpuset
};

/// A boot's platform with its cell (Store::boot_platforms).
struct BootPlatformRow {
  BootId boot_id = 0;
  std::string cell_id;
  unsigned repeat = 0;
  BootPlatform platform;
};

/// One boot as a noise report reads it (Store::boot_timings).
struct BootTiming {
  BootId boot_id = 0;
  std::string cell_id;          ///< CellRow::id
  unsigned repeat = 0;
  int order_index = -1;
  BootStatus status = BootStatus::pending;
  std::optional<double> started_unix_s;  ///< start (seconds since 1970, UTC); nullopt if never started
  std::optional<double> score;  ///< lpm over the counted passes; nullopt unless done
  unsigned warmup_passes = 0;   ///< the cell's warm-up passes (the first ones)
  std::vector<double> pass_lpm; ///< lpm of every stored pass by index, warm-up passes included
  /// Per stored pass (same order as pass_lpm): the guest's vCPU share over the pass's samples
  /// (their vcpu_share weighted by host_s); nullopt when no sample of the pass has one.
  std::vector<std::optional<double>> pass_vcpu_share;
  /// Per stored pass (same order as pass_lpm): the host's steal over the pass's samples (their
  /// host_steal, the stolen share of all host CPUs' time in [0, 1], weighted by host_s);
  /// nullopt when no sample of the pass has one.
  std::vector<std::optional<double>> pass_host_steal;
  std::optional<BootHost> host; ///< nullopt when not recorded
};

/// One stored `rlab noise` report. Relative figures are fractions (0.05 = 5%); nullopt where
/// the report could not compute one (too few boots or passes).
struct NoiseReportRow {
  std::int64_t id = 0;
  std::optional<RunId> run;     ///< the run that measured it
  std::string cell_id;
  std::string control_id;       ///< == cell_id when the cell was its own control
  std::string created_at;       ///< ISO 8601 UTC
  unsigned boots = 0;           ///< successful boots of the cell
  std::optional<double> boot_rel_stddev, pass_rel_stddev;
  std::optional<double> drift_per_hour, drift_ci_low, drift_ci_high;  ///< relative change per hour, 95% CI
  std::optional<double> load_correlation;  ///< Pearson r of score against host busy fraction
  std::optional<double> mde_4, mde_8, mde_16;  ///< minimum detectable effect, 4/8/16 boots a side
  std::optional<double> vcpu_share_mean;         ///< mean vCPU share of the counted passes (version 3)
  std::optional<double> vcpu_share_correlation;  ///< Pearson r of pass lpm and vCPU share (version 3)
  std::string report_json = "{}";  ///< the whole report (docs/noise.md)
};

/// What Store::thin() removed.
struct Thinning {
  /// Finished runs (done, failed, interrupted) that ended before the cutoff, oldest first:
  /// every one of them, whether or not it still had samples (their run directories may go too).
  std::vector<RunId> old_runs;
  std::uint64_t samples_deleted = 0;  ///< rows of `samples` removed by this call
  bool vacuumed = false;              ///< VACUUM ran after the deletion and succeeded
  std::string vacuum_error;           ///< why VACUUM failed ("" when it ran or was not needed)
};

/// The SQLite store. Safe to call from several threads (one connection, serialised by a
/// mutex). Opening the same file from several processes is fine (WAL, busy timeout 10 s).
class Store {
 public:
  /// Opens or creates the database at `path` (parent directories are created), enables WAL
  /// and foreign keys, and creates or upgrades the schema. Throws StoreError; NotAStoreError,
  /// leaving the file unchanged, when it is not an SQLite database or is one without rlab's
  /// schema version (another program's database).
  static std::unique_ptr<Store> open(const std::filesystem::path& path);
  /// Opens the store at `path` for reading only (SQLite read-only, 10 s busy timeout): it
  /// never creates, migrates or writes the file, and reads a store of any schema version
  /// (queries of columns an older version lacks throw StoreError). Throws StoreError
  /// "<path>: no results store" when there is no such file, or naming SQLite's message when
  /// it cannot be opened; NotAStoreError for a directory, a file that is not SQLite, or an
  /// SQLite database without rlab's schema version. Every write method then throws
  /// StoreError.
  static std::unique_ptr<Store> open_read_only(const std::filesystem::path& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// Records a new run (status "running") and returns its id.
  RunId create_run(const NewRun& run);
  /// Adds `cells` to `run` and one pending boot per (cell, repeat), repeats 0..repeats-1,
  /// in one transaction. Throws StoreError on a duplicate cell id.
  void add_cells(RunId run, const std::vector<CellRow>& cells, unsigned repeats);
  /// Records the position of a boot in the run's shuffled order.
  void set_boot_order(BootId boot, int order_index);
  /// Adds pending boots to cells of run `run`: `extra[i].second` more repeats of cell id
  /// `extra[i].first`, numbered after the cell's last repeat, ordered after the run's boots and
  /// interleaved (the first new repeat of every cell, then the second, ...). One transaction;
  /// returns the boots added. Throws StoreError naming a cell the run does not have.
  std::size_t add_repeats(RunId run, const std::vector<std::pair<std::string, unsigned>>& extra);
  /// Sets the run's final status (done, failed, interrupted) and finish time.
  void finish_run(RunId run, RunStatus status);

  /// A run; nullopt when there is none with that id.
  std::optional<RunInfo> run(RunId id) const;
  /// The newest run (highest id), if any.
  std::optional<RunId> latest_run() const;
  /// All runs, newest first (matrix_text left empty).
  std::vector<RunInfo> runs() const;

  /// All boots of a run, ordered by order_index (unset last), then id.
  std::vector<BootRef> boots(RunId run) const;
  /// What `rlab run --resume` must still do: boots that are pending or running (a run
  /// killed mid-boot), plus failed ones when `include_failed`. Same order as boots().
  std::vector<BootRef> unfinished_boots(RunId run, bool include_failed = false) const;
  /// The boot of `cell_id`/`repeat` in `run`; throws StoreError if absent.
  BootId boot_id(RunId run, const std::string& cell_id, unsigned repeat) const;

  /// Marks a boot running on `host_uri` as libvirt domain `domain` with its console log at
  /// `console_log`; increments attempts. Discards passes and samples left by an earlier,
  /// unfinished attempt of the same boot (failures are kept as history).
  void start_boot(BootId boot, const std::string& host_uri, const std::string& domain,
                  const std::string& console_log);
  /// Records the kernel identity (kept once per kernel_key) and the image key of the boot.
  void record_images(BootId boot, const KernelIdentity& kernel, const std::string& image_key);
  /// Records the agent's hello facts for the boot.
  void record_hello(BootId boot, const Hello& hello);
  /// Records `seconds` (wall clock, host side) from starting the boot's domain to the agent's
  /// hello (boots.boot_s; start_boot() clears it). Throws StoreError for an unknown boot.
  void record_boot_seconds(BootId boot, double seconds);
  /// boots.boot_s: seconds from domain start to hello; nullopt when no hello arrived (or the
  /// boot ran before the column existed). Throws StoreError for an unknown boot.
  std::optional<double> boot_seconds(BootId boot) const;
  /// Every boot of run `run` that said hello, in boot order (none for an unknown run).
  std::vector<BootPhases> boot_phases(RunId run) const;
  /// Records one sample with its host facts (NULL where nullopt). Throws StoreError.
  void record_sample(BootId boot, const Sample& sample);
  /// A boot's samples by pass, then t_s (none for an unknown boot).
  std::vector<Sample> samples(BootId boot) const;
  /// Deletes the samples (the agent's periodic readings, the bulk of a store) of every run
  /// that finished before `before_iso` (ISO 8601 UTC, compared as text with runs.finished_at),
  /// in one transaction, then VACUUMs the file when any row went (or 8 MiB or more of the file
  /// are free pages, say from an earlier VACUUM that failed), so the disk gets the space back. Runs, cells, boots, passes, results, failures, verdicts and bisections stay; a
  /// running run is never touched. A VACUUM that fails (e.g. the disk is full: it needs about
  /// the file's size free) leaves the deletion in place and is reported in vacuum_error.
  /// Throws StoreError when the deletion fails (nothing is deleted then).
  Thinning thin(const std::string& before_iso);
  /// Records one pass; a pass with the same index replaces the earlier row.
  void record_pass(BootId boot, const Pass& pass);
  /// Records the result and its environment and marks the boot done.
  void record_result(BootId boot, const Result& result, const Environment& env);
  /// Records a failure in `phase` with the tail of the console and marks the boot failed.
  void record_failure(BootId boot, FailurePhase phase, const std::string& message,
                      const std::string& console_tail);

  /// Every boot of a run with its cell, score and pass totals, in the matrix's cell order
  /// (kernel axis order first), then repeat.
  std::vector<BootResult> boot_results(RunId run) const;

  /// Records the host facts around a boot (replacing an earlier attempt's). Throws StoreError.
  void record_boot_host(BootId boot, const BootHost& host);
  /// Records what a boot ran on (replacing an earlier attempt's). Throws StoreError.
  void record_boot_platform(BootId boot, const BootPlatform& p);
  /// The recorded platform of every boot of a run, by boot id.
  std::vector<BootPlatformRow> boot_platforms(RunId run) const;
  /// Every boot of a run with start time, score, passes and host facts, in run order
  /// (order_index, then id).
  std::vector<BootTiming> boot_timings(RunId run) const;
  /// Stores a noise report; returns its id. `created_at` is set to now when empty.
  std::int64_t add_noise_report(const NoiseReportRow& row);
  /// Stored noise reports whose cell id matches the SQLite GLOB `cell_glob` ("" = all),
  /// newest first, at most `limit`.
  std::vector<NoiseReportRow> noise_reports(const std::string& cell_glob, std::size_t limit = 100) const;

 private:
  friend struct detail::Access;
  explicit Store(std::filesystem::path path);
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  mutable std::mutex mu_;
};

}  // namespace rlab::store
