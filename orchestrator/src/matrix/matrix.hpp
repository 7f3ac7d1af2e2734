#pragma once
// matrix.yaml: the schema's in-memory form, loading with validation, and expansion into
// cells. The schema is documented in docs/matrix.md.
#include "store/cell_row.hpp"
#include "build/kernel_spec.hpp"
#include "util/usage_error.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::matrix {

/// A problem in a matrix file. what() is "<file>:<line>:<col>: <message>" (1-based line and
/// column of the offending key or value), the form editors and compilers use.
struct MatrixError : std::runtime_error {
  MatrixError(std::filesystem::path file, int line, int col, const std::string& message);
  std::filesystem::path file;
  int line = 0;  ///< 1-based; 0 when the problem is not tied to a place (e.g. unreadable file)
  int col = 0;   ///< 1-based
  std::string message;  ///< the message without the file:line:col prefix
};

/// The filesystems a cell can make on its scratch disk.
enum class Fs { kXfs, kExt4 };

/// "xfs" or "ext4": the matrix's word, the agent's `prepare.fs`, the store's `cells.fs`.
std::string_view to_string(Fs fs);

/// The filesystem named `word` ("xfs", "ext4"); nullopt for any other word.
std::optional<Fs> parse_fs(std::string_view word);

/// One filesystem variant of the `filesystem` axis: a filesystem and one mkfs option set.
struct Filesystem {
  Fs fs = Fs::kXfs;
  std::vector<std::string> mkfs_options;   ///< argv words after the program, e.g. {"-d", "agcount=4"}
  std::string mount_options;               ///< `mount -o` value; "" for none
  /// Short human label of the option set: "defaults" when there are no options, else the
  /// matrix's `label`, else derived from the words (e.g. "agcount=4").
  std::string label;
  /// The part of a cell id naming this variant: "xfs-agcount4", "ext4-defaults"
  /// (characters outside [A-Za-z0-9.+_-] dropped).
  std::string id() const;
};

/// Who runs a workload's load in the guest (`workload[].runner`, docs/matrix.md).
enum class Runner {
  kRlab,       ///< "rlab": the agent runs rlab's own shell1 scripts (the default)
  kUnixbench,  ///< "unixbench": UnixBench's looper, multi.sh and tst.sh, packed beside the agent
  kBare,       ///< "bare": the same under rlab's minimal /init, no agent (run/bare_guest.hpp)
};

/// "rlab", "unixbench" or "bare": the matrix's word, also the agent protocol's and the stored
/// environment's.
std::string_view to_string(Runner r);

/// Whether `r` runs UnixBench's own scripts (and so needs the `unixbench:` directory).
inline bool runs_unixbench_scripts(Runner r) { return r != Runner::kRlab; }

/// Where a workload's loopers work (`workload[].layout`).
enum class Layout {
  kShared,   ///< "shared": every looper in one test directory, as UnixBench does (the default)
  kPerCopy,  ///< "per-copy": a directory per looper; on XFS their files spread over the AGs
};
/// "shared" or "per-copy": the matrix's word, also the protocol's and the stored environment's.
std::string_view to_string(Layout l);

/// What the agent collects about where the time went, per pass (`workload[].attribution`,
/// docs/attribution.md).
enum class Attribution {
  kOff,     ///< "off": nothing beyond the load's own counters
  kCounts,  ///< "counts": family totals (lock waits, off-CPU D/S, AGI/AGF buffer waits, on-CPU samples)
  kStacks,  ///< "stacks": those and the top `attribution_top` kernel stacks per family (the default)
  kFull,    ///< "full": stacks, and off-CPU time in interruptible sleep S too (about 0.5% of the loops more)
};
/// "off", "counts", "stacks" or "full": the matrix's word, also the protocol's (protocol::AttributionLevel) and the stored
/// environment's.
std::string_view to_string(Attribution a);

/// The load one cell runs (UnixBench shell1 semantics, see docs/protocol.md `run`).
struct Workload {
  std::string name;               ///< label in cell ids: the matrix's `name`, else "shell1"/"shell8", plus "-c<N>" for a fixed copies count
  std::string kind;               ///< "shell1" or "shell8"
  unsigned scripts_per_loop = 1;  ///< 1 (shell1) or 8 (shell8)
  std::optional<unsigned> copies; ///< parallel loopers; nullopt = the cell's vCPU count (`copies: vcpus`)
  unsigned passes = 1;            ///< passes per boot (score: geometric mean after dropping the worst passes/3)
  double duration_s = 60;         ///< seconds per pass
  /// Passes run before the counted ones and left out of the score (`warmup_passes`, default
  /// 0); they are stored like the others (docs/noise.md "Warm-up").
  unsigned warmup_passes = 0;
  /// Guest hygiene (`drop_caches`, default false as in UnixBench): the agent also drops the
  /// page cache, dentries and inodes while settling before every pass.
  bool drop_caches = false;
  /// `layout`: where the loopers work.
  Layout layout = Layout::kShared;
  /// `input`: the file shipped to the guest as the input the scripts sort (at most
  /// protocol::kMaxInputBytes); nullopt: the agent's generated input.
  std::optional<std::filesystem::path> input_path;
  std::optional<std::string> input;  ///< input_path's bytes, read when the matrix is loaded
  /// "sha256:<hex>" of the input the guest sorts: of `input`'s bytes, or of the agent's
  /// generated input (protocol::kGeneratedInputSha256). Part of the environment.
  std::string input_id;
  /// `runner`: who runs the load in the guest.
  Runner runner = Runner::kRlab;
  /// `unixbench`: a UnixBench directory (holding src/looper.c, src/timeit.c, pgms/multi.sh,
  /// pgms/tst.sh, testdir/sort.src); runners "unixbench" and "bare" only.
  std::filesystem::path unixbench_dir;
  /// `attribution`: where the time went, collected in the guest per pass (docs/attribution.md).
  Attribution attribution = Attribution::kStacks;
  unsigned attribution_top = 20;  ///< `attribution_top`: stacks kept per family and pass, 1..200
  /// `sample_interval_s`: seconds between the agent's periodic samples during a pass (loops so
  /// far, counter deltas; the host's steal and vCPU share beside each), 0 or 0.1..600. Default
  /// 0: none, only the samples at the window's start and end, so the guest runs nothing of
  /// rlab's during the window (a 1 s sample costs about 3% of the loops under icount,
  /// docs/benchmarks.md "Fidelity"). Part of the environment: cells compare only at equal values.
  double sample_interval_s = 0;
};

/// Where the filesystem under test lives (`guest.disk.backing`).
enum class DiskBacking { kVirtio, kRam };

/// Name of a DiskBacking as written in the matrix and stored: "virtio", "ram".
const char* to_string(DiskBacking d);

/// Hardware acceleration of the guests.
enum class Accel { kAuto, kKvm, kTcg };

/// Name of an Accel as written in the matrix and stored: "auto", "kvm", "tcg".
const char* to_string(Accel a);

/// Where guest time comes from (`guest.clock`, docs/matrix.md "Deterministic mode").
enum class GuestClock {
  kRealtime,  ///< the host's clock: the guest's seconds are host seconds (default)
  kIcount,    ///< QEMU instruction counting (`-icount shift=N,sleep=off`, TCG only): a guest
              ///< nanosecond is 2^N executed instructions, idle time is skipped
  kAuto,      ///< `clock: auto`: kIcount where the guests run under TCG, kRealtime under KVM;
              ///< settled once per run against its hosts (settle_clock), never booted as such
};

/// Name of a GuestClock as written in the matrix: "realtime", "icount", "auto".
const char* to_string(GuestClock c);

/// QEMU's accepted range of `-icount shift=N` (N in [0, 10]; "auto" adapts to the host and
/// is not deterministic, so rlab does not offer it).
inline constexpr unsigned kMaxIcountShift = 10;
/// `guest.icount_shift` when the matrix gives none: 2^4 = 16 ns of guest time per
/// instruction (62.5 M instructions per guest second). On the 2-core x86_64 lab machine a
/// 1-vCPU shell1 cell then runs about 3.5 loops per guest second, near the 2.4 per host second
/// of real time on a quiet host, so a pass costs about as much host time in either mode.
inline constexpr unsigned kDefaultIcountShift = 4;

/// `guest.pinning` (docs/matrix.md "Pinning"): where guests' vCPUs and QEMU's emulator
/// threads run on the host (libvirt `<cputune>`).
struct Pinning {
  bool vcpus = false;     ///< pin each vCPU of a running guest to a host CPU of its own (`vcpus: auto`)
  bool emulator = false;  ///< pin QEMU's emulator threads to the guest's CPUs (`emulator: vcpus`)
  /// Host CPUs rlab may pin to (`host_cpus`); empty: every online CPU of the host, in
  /// topology order (core by core).
  std::vector<unsigned> host_cpus;
  /// Allow more running pinned vCPUs than host CPUs (CPUs are then shared); refused otherwise.
  bool allow_oversubscription = false;
};

/// The `guest:` section.
struct Guest {
  unsigned memory_mib = 2048;  ///< guest RAM in MiB
  std::string cpu_model = "auto";  ///< QEMU CPU model; "auto": "host" under KVM, "max" under TCG
  Accel accel = Accel::kAuto;
  unsigned disk_gib = 2;       ///< size of the disk holding the filesystem under test
  /// `disk.backing`: where the filesystem under test lives. kVirtio: a fresh sparse raw file
  /// on the host behind virtio-blk; kRam: a RAM disk inside the guest (brd, disk_gib large;
  /// guest memory is raised by as much), so host I/O never enters the measurement.
  DiskBacking disk_backing = DiskBacking::kVirtio;
  bool disk_backing_given = false;  ///< the matrix set `disk.backing` (else it follows the clock)
  Pinning pinning;             ///< `guest.pinning`; default: no pinning
  GuestClock clock = GuestClock::kRealtime;       ///< `guest.clock`
  unsigned icount_shift = kDefaultIcountShift;    ///< `guest.icount_shift`; used with kIcount only
  /// `guest.host_page_size`: the base page size (KiB: 4, 16 or 64) a host must run with to get
  /// the cells — the report's machines run 64 KiB pages; 0 (`any`, the default): any host.
  unsigned host_page_kib = 0;
  /// The `-icount shift=N` a guest gets: icount_shift under kIcount, nullopt under kRealtime.
  /// Throws std::logic_error under kAuto: a boot's clock is settled first (settle_clock).
  std::optional<unsigned> icount() const;
};

/// Resolves `accel: auto`: KVM when `host_arch` is "aarch64" and `kvm_usable` (/dev/kvm can be
/// opened read-write), else TCG. kKvm and kTcg are returned unchanged.
Accel resolve_accel(Accel requested, const std::string& host_arch, bool kvm_usable);

/// resolve_accel() for the machine rlab runs on (uname machine, access("/dev/kvm", R_OK|W_OK)).
Accel resolve_accel_local(Accel requested);

/// The QEMU CPU model for resolved `accel` (kKvm or kTcg): `cpu_model` unless it is "auto",
/// then "host" for KVM and "max" for TCG.
std::string resolve_cpu_model(const Guest& guest, Accel accel);

/// How rlab reaches the guest agent's virtio-serial channel on a host (`hosts[].agent_link`).
enum class AgentLink {
  /// A unix socket QEMU binds in the boot's directory, connected to directly: QEMU on rlab's
  /// own machine only, and a socket rlab's user may connect to; survives a libvirtd restart.
  /// Default for qemu:///session, and for qemu:///system when rlab runs as root.
  kSocket,
  /// virDomainOpenChannel over the host's libvirt connection (ssh, tcp, tls: libvirt's own
  /// transport and auth); ends when the connection does. Default for every other URI.
  kLibvirt,
};

/// "socket" or "libvirt".
std::string_view to_string(AgentLink link);

/// The agent link a host gets without `agent_link`: kSocket for qemu:///session, and for
/// qemu:///system when this process is root (its QEMU's socket belongs to libvirt's QEMU
/// user, whom a non-root member of the libvirt group cannot connect to); kLibvirt otherwise.
AgentLink default_agent_link(const std::string& uri);

/// One libvirt host of the `hosts:` section.
/// How a boot's files (kernel, initramfs, scratch disk, console log) reach a host
/// (`hosts[].files`).
enum class HostFiles {
  /// rlab's own paths (the run directory): the host's QEMU must see them at the same place —
  /// this machine, or a shared mount. Default for qemu:///system and qemu:///session.
  kPaths,
  /// Volumes of a storage pool on the host (vm/storage.hpp): nothing shared. Default for every
  /// other URI.
  kVolumes,
};

/// "paths" or "volumes".
std::string_view to_string(HostFiles f);

/// The default files of `uri`: kPaths for a local URI, else kVolumes.
HostFiles default_host_files(const std::string& uri);

/// The storage pool of hosts with `files: volumes` when `pool` is not given.
inline constexpr std::string_view kDefaultPool = "default";

/// Seconds a guest may take from domain start to the agent's hello (TCG on a loaded host is slow).
inline constexpr double kDefaultHelloTimeoutS = 180;

struct Host {
  std::string uri;          ///< libvirt connection URI, e.g. "qemu:///system", "qemu+ssh://arm-01/system"
  unsigned vcpu_budget = 0; ///< vCPUs of concurrently running cells on this host, >= 1
  AgentLink agent_link = AgentLink::kSocket;  ///< `agent_link`, default_agent_link(uri) when absent
  HostFiles files = HostFiles::kPaths;        ///< `files`, default_host_files(uri) when absent
  /// `pool`: the storage pool of files: volumes (kDefaultPool when absent); "" with kPaths.
  std::string pool;
  /// `hello_timeout_s`: seconds from a domain's start to its agent's hello before the boot
  /// fails (hello-timeout), 10..3600; default kDefaultHelloTimeoutS. Raise it for hosts whose
  /// guests boot slowly: an emulated host whose KVM guests are themselves emulated.
  double hello_timeout_s = kDefaultHelloTimeoutS;
  /// `hello_retries`: how often a boot that got no hello (a guest that hung or was never
  /// scheduled before its agent started) is booted again on this host, 0..5; default 0. Each
  /// attempt's failure stays stored as history (as with `--retry-failed`). For hosts whose
  /// nested guests now and then hang in early boot: an emulated KVM host.
  unsigned hello_retries = 0;
  /// `liveness_timeout_s`: seconds of silence from a guest's agent during the load before
  /// rlab sends it a liveness probe, and again the probe's deadline before the boot fails
  /// (timeout: liveness probe unanswered), 5..3600; default 30. Host seconds; under icount
  /// both scale with the guest's clock. Raise it for hosts whose guests are starved for
  /// long stretches; lower it to give up on a hung guest sooner.
  double liveness_timeout_s = 30;
};


/// `nightly:`: what `rlab nightly` does around the matrix's run (docs/nightly.md).
struct Nightly {
  /// `nightly.tree`: the kernel git tree bisections run in (`--tree` overrides); "" -> the
  /// bisections a night calls for are listed, not started. Must exist as a directory at load.
  std::filesystem::path tree;
  /// `nightly.fetch`: git remotes (names such as `origin`, or URLs) fetched before the run in
  /// `tree` and in every kernel's `source.git` tree, so refs such as `origin/linux-6.6.y` and
  /// the commits a bisection needs are tonight's (with no tree at all, the night reports that
  /// as a failed fetch). A fetch that fails is reported, not fatal.
  std::vector<std::string> fetch;
  /// `nightly.remeasure_minutes`: wall minutes the night may spend after its run booting more
  /// of the cells whose comparison came out unknown (nightly/remeasure.hpp); 0 -> none.
  double remeasure_minutes = 0;
  /// `nightly.bisect_minutes`: wall minutes the night's bisections may take; a bisection still
  /// running then stops between steps and the next night resumes it. 0 -> no limit.
  double bisect_minutes = 0;
  /// `nightly.keep_reports`: the newest night report directories kept under the reports
  /// directory, [1, 100000]; older ones are removed after each night's reports are written.
  unsigned keep_reports = 400;
  /// `nightly.thin_after_days`: days, [1, 36500], after which a finished run's samples (the
  /// agent's periodic readings) and run directory (consoles, logs) are removed, after each
  /// night; its boots, passes, scores, failures (with their console tails), verdicts and
  /// bisections stay for good.
  unsigned thin_after_days = 90;
};

/// One pair of `gaps:` (docs/matrix.md "Gaps"): two cells of the same kernel whose score
/// ratio, cell_id's over against_cell_id's, `rlab nightly` follows from night to night and
/// bisects when it falls (kernel_bisect::StartOptions::against).
struct Gap {
  std::string cell_id;          ///< the numerator: its score falling relative to the other's is a regression
  std::string against_cell_id;  ///< the denominator: a cell of the same kernel
  std::size_t entry = 0;        ///< index of the `gaps:` entry that named the pair (one entry may name several)
};

/// A loaded, validated matrix file. Relative paths in the file are resolved against the
/// file's directory; all paths here are absolute.
struct Matrix {
  std::filesystem::path path;   ///< the file loaded (absolute)
  std::string text;             ///< its exact contents (stored with every run)
  /// Every `kernels:` entry by name, with `extends` applied and paths resolved.
  std::map<std::string, build::KernelSpec> kernels;
  std::vector<std::string> kernel_axis;     ///< `axes.kernel`, in file order, each a key of `kernels`
  std::vector<unsigned> vcpus_axis;         ///< `axes.vcpus`, each in [1, 512]
  std::vector<Filesystem> filesystem_axis;  ///< `axes.filesystem` flattened: one entry per (fs, mkfs option set)
  std::vector<Workload> workload_axis;      ///< `axes.workload`
  /// Fresh boots per cell (`axes.repeats`): the number, or with the mapping form the settled
  /// clock's (before a `clock: auto` is settled, the larger of the two).
  unsigned repeats = 1;
  /// `axes.repeats` in its mapping form, `{icount: N, realtime: M}`: boots per cell for each
  /// clock, each in [1, 1000] (a real-time cell needs more boots for a verdict at the same
  /// effect than a deterministic one); nullopt for a plain number.
  std::optional<std::pair<unsigned, unsigned>> repeats_by_clock;  ///< (icount, realtime)
  std::uint64_t seed = 0;       ///< shuffle seed; when the file has none, chosen at load time
  bool seed_from_file = false;  ///< whether `seed` came from the file
  Guest guest;
  std::vector<Host> hosts;      ///< default: {"qemu:///system", number of online host CPUs}
  std::filesystem::path results;  ///< SQLite store; default <matrix dir>/results/rlab.db
  std::optional<std::string> push_url;  ///< Prometheus Pushgateway URL (`push:`), if any
  /// The control cell's id (`control:`, resolved by select_cell_id at load): a fixed cell
  /// booted in every repeat that `rlab nightly` drift-corrects against and `rlab noise`
  /// interleaves with when no --control is given.
  std::optional<std::string> control;
  Nightly nightly;              ///< `nightly:` (what `rlab nightly` does around the run)
  /// `gaps:` expanded into pairs of cell ids, in entry order and, within an entry, in cell
  /// order; empty without the key. Only `rlab nightly` reads them: a run boots the same cells
  /// with or without.
  std::vector<Gap> gaps;
  /// `cache.max_gib`: the artifact cache's disk budget in GiB, (0, 1e6]; nullopt -> half the
  /// cache's filesystem ($RLAB_CACHE_MAX_GIB overrides both; build/cache_budget.hpp).
  std::optional<double> cache_max_gib;
};

/// Settles the guest clock of `m` to `clock` (kIcount or kRealtime): `guest.clock`, the boots
/// per cell (`repeats` from the mapping form, when given) and the filesystem's disk (a RAM disk
/// under icount unless `disk.backing` is given, docs/matrix.md "Deterministic mode"). The
/// loader applies it to a clock the file fixes (`icount`, `realtime`, or `auto` with `accel:
/// tcg` or `kvm`); a run settles `clock: auto` with `accel: auto` against its hosts
/// (run/clock.hpp). Throws std::invalid_argument for kAuto.
void settle_clock(Matrix& m, GuestClock clock);

/// One cell: a point of kernel x filesystem variant x vCPUs x workload. Repeats of a cell are
/// separate boots of the same cell (see store/).
struct Cell {
  /// Stable id, "<kernel>/<fs id>/<N>vcpu/<workload name>", e.g.
  /// "6.12/xfs-agcount4/2vcpu/shell1". Unique within a matrix; the same cell of two runs has
  /// the same id.
  std::string id;
  build::KernelSpec kernel;
  Filesystem filesystem;
  unsigned vcpus = 1;
  Workload workload;
  unsigned copies = 1;          ///< resolved: workload.copies or vcpus
  unsigned page_size = 65536;   ///< bytes, from kernel.page_size_kib; the guest must report it
};

/// The most boots (cells x repeats) one matrix may expand to; a larger one is refused at
/// `axes` before anything is built (a night of 144-vCPU cells is a few hundred boots).
inline constexpr std::uint64_t kMaxBoots = 100000;

/// Options of load_matrix().
struct LoadOptions {
  /// Require that referenced files exist (fragments, patches, git trees). Off only to inspect
  /// a matrix meant for another machine.
  bool check_paths = true;
};

/// Reads, validates and resolves a matrix file. Throws MatrixError (file:line:col) on: YAML
/// syntax errors, nesting deeper than the parser's limit (2000), a second YAML document, unknown keys, duplicate keys, wrong types, empty axes, vcpus outside
/// [1, 512], unknown kernel names (axes or `extends`), `extends` cycles, missing files,
/// duplicate cell ids, more than kMaxBoots boots, a `control:` or `gaps:` selector that names
/// no single cell, a gap whose two cells run different kernels or are one cell, a gap pair
/// named twice; MatrixError with line 0 when the file cannot be read.
Matrix load_matrix(const std::filesystem::path& path, const LoadOptions& options = {});

/// The same, from text (for tests and for a run's stored matrix); `path` names it in errors
/// and anchors relative paths.
Matrix parse_matrix(const std::string& text, const std::filesystem::path& path,
                    const LoadOptions& options = {});

/// The git trees `nightly.fetch` fetches in: `nightly.tree` first, then every kernel's
/// `source.git` tree, each once, in that order (empty without any).
std::vector<std::filesystem::path> fetch_trees(const Matrix& m);

/// The results store a command uses: `db` when given, else the `results:` of the matrix file
/// `matrix` (read without checking its other paths). Throws MatrixError as load_matrix does.
std::filesystem::path store_path(const std::filesystem::path& db, const std::filesystem::path& matrix);

/// All cells, in axis order: kernel (outermost), filesystem variant, vcpus, workload.
std::vector<Cell> expand_cells(const Matrix& m);

/// `cells` as the store keeps them (store::CellRow), one row per cell in the same order: the
/// kernel's name and patch set, the filesystem's type, label and options, the workload's name,
/// kind and pass plan, vCPUs, copies and page size.
std::vector<store::CellRow> cell_rows(const std::vector<Cell>& cells);

/// The cell id among `ids` that `selector` names: the id itself, else the only id containing
/// it (the selectors of `rlab bisect --cell`, `rlab noise`, `--control`, `control:`). Throws
/// UsageError "no cell matches '<selector>'; cells: <ids>" or "'<selector>'
/// matches <n> cells, name one: <those ids>". `ids` may repeat an id (one per boot).
std::string select_cell_id(const std::vector<std::string>& ids, const std::string& selector);

/// The cell of `m` that `selector` names (select_cell_id over expand_cells(m)): `rlab bisect
/// --cell/--against`, `rlab noise --cell/--control`. Throws UsageError as select_cell_id does,
/// prefixed with the matrix's path.
Cell select_cell(const Matrix& m, const std::string& selector);

}  // namespace rlab::matrix
