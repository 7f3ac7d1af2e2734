#include "store/schema.hpp"

namespace rlab::store::detail {

const char* const kSchemaSql = R"SQL(
CREATE TABLE IF NOT EXISTS runs (
  id            INTEGER PRIMARY KEY,
  kind          TEXT NOT NULL DEFAULT 'matrix',
  status        TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'done', 'failed', 'interrupted')),
  created_at    TEXT NOT NULL,
  finished_at   TEXT,
  matrix_path   TEXT NOT NULL,
  matrix_text   TEXT NOT NULL,
  matrix_sha256 TEXT NOT NULL,
  seed          INTEGER NOT NULL,
  rlab_version  TEXT NOT NULL,
  hostname      TEXT NOT NULL,
  note          TEXT NOT NULL DEFAULT ''
);

CREATE TABLE IF NOT EXISTS kernels (
  kernel_key     TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  kernel_release TEXT NOT NULL,
  source_commit  TEXT NOT NULL,
  config_sha256  TEXT NOT NULL,
  page_size_kib  INTEGER NOT NULL,
  patchset       TEXT NOT NULL DEFAULT '',
  first_seen     TEXT NOT NULL,
  origin         TEXT NOT NULL DEFAULT ''  -- version 9: where the kernel came from ('' before)
);

CREATE TABLE IF NOT EXISTS images (
  image_key  TEXT PRIMARY KEY,
  first_seen TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS cells (
  id               INTEGER PRIMARY KEY,
  run_id           INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  cell_key         TEXT NOT NULL,
  kernel           TEXT NOT NULL,
  patchset         TEXT NOT NULL,
  page_size        INTEGER NOT NULL,
  fs               TEXT NOT NULL,
  mkfs_label       TEXT NOT NULL,
  mkfs_options     TEXT NOT NULL,
  mount_options    TEXT NOT NULL,
  vcpus            INTEGER NOT NULL,
  workload         TEXT NOT NULL,
  workload_kind    TEXT NOT NULL,
  scripts_per_loop INTEGER NOT NULL,
  copies           INTEGER NOT NULL,
  passes           INTEGER NOT NULL,
  duration_s       REAL NOT NULL,
  UNIQUE (run_id, cell_key)
);

CREATE TABLE IF NOT EXISTS boots (
  id             INTEGER PRIMARY KEY,
  cell_id        INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,
  repeat         INTEGER NOT NULL,
  order_index    INTEGER,
  status         TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts       INTEGER NOT NULL DEFAULT 0,
  host_uri       TEXT,
  domain         TEXT,
  console_log    TEXT,
  started_at     TEXT,
  finished_at    TEXT,
  kernel_key     TEXT REFERENCES kernels(kernel_key),
  image_key      TEXT REFERENCES images(image_key),
  guest_page_size      INTEGER,
  guest_nr_cpus        INTEGER,
  guest_kernel_release TEXT,
  agent_version        TEXT,
  guest_mem_total_kib  INTEGER,
  guest_tracepoints    TEXT,
  boot_s               REAL,
  guest_init_s         REAL,  -- version 7: the guest's boot timeline (its clock, seconds)
  guest_agent_s        REAL,
  guest_hello_s        REAL,
  UNIQUE (cell_id, repeat)
);

CREATE TABLE IF NOT EXISTS passes (
  id            INTEGER PRIMARY KEY,
  boot_id       INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
  pass          INTEGER NOT NULL,
  loops         INTEGER NOT NULL,
  failures      INTEGER NOT NULL,
  duration_s    REAL NOT NULL,
  lpm           REAL NOT NULL,
  latency_json  TEXT NOT NULL,
  counters_json TEXT NOT NULL,
  -- version 4: XFS placement of the load's inodes (NULL on other filesystems)
  inode_ags     INTEGER,
  agcount       INTEGER,
  inodes_seen   INTEGER,
  -- version 5: the counting window (duration_s is UnixBench's pass time; before 5 the window)
  window_s      REAL,
  -- version 5: where the pass's time went (protocol Attribution object; NULL when off)
  attribution_json TEXT,
  UNIQUE (boot_id, pass)
);

CREATE TABLE IF NOT EXISTS samples (
  id            INTEGER PRIMARY KEY,
  boot_id       INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
  pass          INTEGER NOT NULL,
  t_s           REAL NOT NULL,
  loops         INTEGER NOT NULL,
  failures      INTEGER NOT NULL,
  counters_json TEXT NOT NULL,
  -- version 3: the host side of the sample's interval (NULL where not read; docs/store.md)
  host_s        REAL,
  host_busy     REAL,
  host_steal    REAL,
  host_mhz      REAL,
  vcpu_share    REAL
);
CREATE INDEX IF NOT EXISTS samples_boot ON samples(boot_id, pass, t_s);

CREATE TABLE IF NOT EXISTS results (
  boot_id               INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,
  score                 REAL NOT NULL,
  failures              INTEGER NOT NULL,
  failure_examples_json TEXT NOT NULL,
  recorded_at           TEXT NOT NULL,
  env_host              TEXT NOT NULL,
  env_accel             TEXT NOT NULL,
  env_cpu_model         TEXT NOT NULL,
  env_cpu_options       TEXT NOT NULL,
  env_memory_mib        INTEGER NOT NULL,
  env_vcpus             INTEGER NOT NULL,
  env_page_size         INTEGER NOT NULL,
  env_kernel_release    TEXT NOT NULL,
  env_config_sha256     TEXT NOT NULL,
  env_fs                TEXT NOT NULL,
  env_mkfs_options      TEXT NOT NULL,
  env_mount_options     TEXT NOT NULL,
  env_agent_version     TEXT NOT NULL,
  env_workload          TEXT NOT NULL,
  env_copies            INTEGER NOT NULL,
  env_passes            INTEGER NOT NULL,
  env_duration_s        REAL NOT NULL,
  env_locale            TEXT NOT NULL,
  -- version 4: how the load ran (rows of older stores: how rlab ran it then)
  env_layout            TEXT NOT NULL DEFAULT 'per-copy',
  env_input             TEXT NOT NULL DEFAULT 'rlab-generated (before schema 4)',
  env_drop_caches       INTEGER NOT NULL DEFAULT 1,
  env_runner            TEXT NOT NULL DEFAULT 'rlab',
  env_disk              TEXT NOT NULL DEFAULT 'virtio',
  -- version 5: what the guest collected besides the score (rows of older stores: nothing)
  env_attribution       TEXT NOT NULL DEFAULT 'off',
  env_sample_interval_s REAL NOT NULL DEFAULT 1.0  -- version 7: seconds between periodic samples, 0 none
);

CREATE TABLE IF NOT EXISTS failures (
  id           INTEGER PRIMARY KEY,
  boot_id      INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
  phase        TEXT NOT NULL,
  message      TEXT NOT NULL,
  console_tail TEXT NOT NULL,
  recorded_at  TEXT NOT NULL
);

-- How a cell was measured beyond its workload columns: warm-up passes run before the
-- counted ones (passes 0 .. warmup_passes-1 of each boot; kept, not in the score).
CREATE TABLE IF NOT EXISTS cell_methods (
  cell_id       INTEGER PRIMARY KEY REFERENCES cells(id) ON DELETE CASCADE,
  warmup_passes INTEGER NOT NULL
);

-- The machine rlab runs on around each boot (/proc/loadavg, /proc/stat) and the boot's pinning.
CREATE TABLE IF NOT EXISTS boot_host (
  boot_id        INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,
  cpus           INTEGER NOT NULL,
  load1_before   REAL NOT NULL,
  load1_after    REAL NOT NULL,
  busy_fraction  REAL NOT NULL,
  steal_fraction REAL NOT NULL,
  seconds        REAL NOT NULL,
  vcpu_pins      TEXT NOT NULL,
  emulator_pin   TEXT NOT NULL
);

-- version 6: what a boot ran on, read back after it started (not what rlab asked for): libvirt's
-- domain type ('kvm', or 'qemu' for TCG), the guest's own view of its hypervisor ('kvm' when
-- KVM's hypervisor services answered it, 'none', '' from an older agent), the host's base page
-- size in KiB (0 unknown), and the host CPUs each vCPU (JSON array of cpusets) and the emulator
-- threads (a cpuset) may run on, as libvirt reports them for the running domain.
CREATE TABLE IF NOT EXISTS boot_platform (
  boot_id          INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,
  domain_type      TEXT NOT NULL,
  guest_hypervisor TEXT NOT NULL,
  host_page_kib    INTEGER NOT NULL,
  vcpu_cpus        TEXT NOT NULL,
  emulator_cpus    TEXT NOT NULL
);

-- `rlab noise` reports: the noise of a cell at a time (docs/noise.md).
CREATE TABLE IF NOT EXISTS noise_reports (
  id               INTEGER PRIMARY KEY,
  run_id           INTEGER REFERENCES runs(id) ON DELETE SET NULL,
  cell_key         TEXT NOT NULL,
  control_key      TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  boots            INTEGER NOT NULL,
  boot_rel_stddev  REAL,
  pass_rel_stddev  REAL,
  drift_per_hour   REAL,
  drift_ci_low     REAL,
  drift_ci_high    REAL,
  load_correlation REAL,
  mde_4            REAL,
  mde_8            REAL,
  mde_16           REAL,
  report_json      TEXT NOT NULL,
  vcpu_share_mean        REAL,  -- version 3
  vcpu_share_correlation REAL   -- version 3
);
CREATE INDEX IF NOT EXISTS noise_reports_cell ON noise_reports(cell_key, created_at);

-- `rlab bisect` sessions (docs/bisect.md): what each was started with and how it ended, the
-- store runs that booted each commit (purpose "ends" or the commit under test of a step), and
-- the steps git asked about.
CREATE TABLE IF NOT EXISTS bisect_sessions (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  tree TEXT NOT NULL,
  good_ref TEXT NOT NULL, bad_ref TEXT NOT NULL,
  good_commit TEXT NOT NULL, bad_commit TEXT NOT NULL,
  cell_id TEXT NOT NULL,
  matrix_path TEXT NOT NULL, matrix_text TEXT NOT NULL,
  direction TEXT NOT NULL,
  alpha REAL NOT NULL, min_effect REAL NOT NULL,
  initial_boots INTEGER NOT NULL, cap_boots INTEGER NOT NULL,
  commit_count INTEGER NOT NULL,
  status TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
  first_bad TEXT NOT NULL DEFAULT '', candidates_json TEXT NOT NULL DEFAULT '[]',
  checks_json TEXT NOT NULL DEFAULT '',
  against_cell_id TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS bisect_batch_commits (
  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  commit_sha TEXT NOT NULL,
  purpose TEXT NOT NULL,
  PRIMARY KEY (session_id, run_id, commit_sha));
CREATE TABLE IF NOT EXISTS bisect_steps (
  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),
  seq INTEGER NOT NULL,
  commit_sha TEXT NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('good', 'bad', 'skip')),
  samples INTEGER NOT NULL, median REAL NOT NULL, change_vs_good REAL NOT NULL,
  p_vs_good REAL NOT NULL, p_vs_bad REAL NOT NULL, reason TEXT NOT NULL,
  answered_at TEXT NOT NULL,
  good_median REAL NOT NULL DEFAULT 0, bad_median REAL NOT NULL DEFAULT 0,
  reference_samples INTEGER NOT NULL DEFAULT 0,
  ends_differ INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (session_id, commit_sha));

CREATE INDEX IF NOT EXISTS cells_run ON cells(run_id);
CREATE INDEX IF NOT EXISTS cells_key ON cells(cell_key);
CREATE INDEX IF NOT EXISTS boots_cell ON boots(cell_id, status);
CREATE INDEX IF NOT EXISTS failures_boot ON failures(boot_id);

-- One row per boot with its cell, identity and totals: the base of every report.
CREATE VIEW IF NOT EXISTS boot_results AS
SELECT b.id AS boot_id, c.run_id, c.cell_key, c.kernel, c.patchset, c.page_size, c.fs,
       c.mkfs_label, c.mkfs_options, c.vcpus, c.workload, c.copies, c.passes, c.duration_s,
       b.repeat, b.order_index, b.status, b.host_uri, b.kernel_key, b.image_key,
       k.source_commit, k.config_sha256,
       b.guest_page_size, b.guest_kernel_release, b.agent_version,
       r.score, r.recorded_at,
       (SELECT COALESCE(SUM(p.loops), 0) FROM passes p WHERE p.boot_id = b.id) AS loops,
       (SELECT COALESCE(SUM(p.failures), 0) FROM passes p WHERE p.boot_id = b.id) AS loop_failures,
       (SELECT SUM(json_extract(p.counters_json, '$.tracepoints."xfs:xfs_inodegc_throttle"'))
          FROM passes p WHERE p.boot_id = b.id) AS inodegc_throttle
FROM boots b
JOIN cells c ON c.id = b.cell_id
LEFT JOIN kernels k ON k.kernel_key = b.kernel_key
LEFT JOIN results r ON r.boot_id = b.id;

-- The newest result of every cell key over all runs (for metrics and nightly history).
CREATE VIEW IF NOT EXISTS latest_cell_results AS
SELECT * FROM boot_results br
WHERE br.score IS NOT NULL
  AND br.boot_id = (SELECT b2.boot_id FROM boot_results b2
                    WHERE b2.cell_key = br.cell_key AND b2.score IS NOT NULL
                    ORDER BY b2.recorded_at DESC, b2.boot_id DESC LIMIT 1);
)SQL";

const AddedColumn kAddedColumns[] = {
    {"boots", "boot_s", "REAL"},  // version 2: seconds from domain start to the agent's hello
    // version 3: the host side of each sample's interval
    {"samples", "host_s", "REAL"},
    {"samples", "host_busy", "REAL"},
    {"samples", "host_steal", "REAL"},
    {"samples", "host_mhz", "REAL"},
    {"samples", "vcpu_share", "REAL"},
    {"noise_reports", "vcpu_share_mean", "REAL"},
    {"noise_reports", "vcpu_share_correlation", "REAL"},
    // version 4: how the load ran, and where its inodes went on XFS
    {"results", "env_layout", "TEXT NOT NULL DEFAULT 'per-copy'"},
    {"results", "env_input", "TEXT NOT NULL DEFAULT 'rlab-generated (before schema 4)'"},
    {"results", "env_drop_caches", "INTEGER NOT NULL DEFAULT 1"},
    {"results", "env_runner", "TEXT NOT NULL DEFAULT 'rlab'"},
    {"results", "env_disk", "TEXT NOT NULL DEFAULT 'virtio'"},
    {"passes", "inode_ags", "INTEGER"},
    {"passes", "agcount", "INTEGER"},
    {"passes", "inodes_seen", "INTEGER"},
    // version 5: where the time went
    {"results", "env_attribution", "TEXT NOT NULL DEFAULT 'off'"},
    {"passes", "attribution_json", "TEXT"},
    {"passes", "window_s", "REAL"},
    // the steps of bisect sessions begun before each step booted both ends alongside it
    {"bisect_steps", "good_median", "REAL NOT NULL DEFAULT 0"},
    {"bisect_steps", "bad_median", "REAL NOT NULL DEFAULT 0"},
    {"bisect_steps", "reference_samples", "INTEGER NOT NULL DEFAULT 0"},
    // the checks of a session's culprit (kernel_bisect/culprit.hpp; '' before they ran)
    {"bisect_sessions", "checks_json", "TEXT NOT NULL DEFAULT ''"},
    // version 7: how often the agent sampled during a pass (every boot before sampled each second)
    {"results", "env_sample_interval_s", "REAL NOT NULL DEFAULT 1.0"},
    {"boots", "guest_init_s", "REAL"},   // and the guest's boot timeline (NULL before)
    {"boots", "guest_agent_s", "REAL"},
    {"boots", "guest_hello_s", "REAL"},
    // version 8: a gap bisection's second cell ('' for one cell, as every session before)
    {"bisect_sessions", "against_cell_id", "TEXT NOT NULL DEFAULT ''"},
    // and whether a step's own boots of the ends still differed (1 before: a session whose
    // step found they did not ended there, and is never resumed)
    {"bisect_steps", "ends_differ", "INTEGER NOT NULL DEFAULT 1"},
    // version 9: where each kernel came from (build::kernel_origin(); '' for kernels stored before)
    {"kernels", "origin", "TEXT NOT NULL DEFAULT ''"},
};
const int kAddedColumnCount = sizeof kAddedColumns / sizeof kAddedColumns[0];

}  // namespace rlab::store::detail
