#pragma once
// The store's SQL schema (docs/store.md). Internal to store/.

namespace rlab::store::detail {

/// Schema version stored in PRAGMA user_version. 2 added boots.boot_s; 3 added the host
/// facts of each sample (samples.host_s, host_busy, host_steal, host_mhz, vcpu_share) and
/// noise_reports.vcpu_share_mean, vcpu_share_correlation; 4 added how the load ran
/// (results.env_layout, env_input, env_drop_caches, env_runner, env_disk) and the XFS placement
/// of each pass (passes.inode_ags, agcount, inodes_seen); 5 added where the time went
/// (results.env_attribution, passes.attribution_json) and the counting window beside
/// UnixBench's pass time (passes.window_s); 6 added what each boot ran on, read back from its
/// host and guest (boot_platform); 7 added how often the agent sampled during a pass
/// (results.env_sample_interval_s; 1.0 in older rows, when every boot sampled each second);
/// 8 added a gap bisection's second cell (bisect_sessions.against_cell_id; '' in older rows)
/// and whether a step's ends still differed (bisect_steps.ends_differ; 1 in older rows);
/// 9 added where each kernel came from (kernels.origin: Debian package, git tree and commit,
/// prebuilt Image or full .config SHA-256; '' in older rows).
inline constexpr int kSchemaVersion = 9;

/// CREATE statements of the current version (tables, indexes, views), idempotent.
extern const char* const kSchemaSql;

/// A column added after version 1: Store::open() adds it (ALTER TABLE ... ADD COLUMN) to an
/// older store whose table lacks it, keeping every row (the new column is NULL in them).
struct AddedColumn {
  const char* table;
  const char* column;
  const char* decl;  ///< type and constraints, e.g. "REAL"
};

/// Every AddedColumn, oldest first; each is also in kSchemaSql for new stores.
extern const AddedColumn kAddedColumns[];
extern const int kAddedColumnCount;

}  // namespace rlab::store::detail
