#pragma once
// The results table of one run: kernel x filesystem variant x vCPUs (x workload) -> score
// (lpm, the median over the boots) +- relative stddev, and inodegc throttle events per 1,000
// loops. Text in the style of LKP's comparison tables (kernels side by side, "%change" against
// the first kernel), in the words and columns of `rlab compare` (results/vocabulary.hpp), and
// JSON and CSV for machines.
#include "attribution/ag_table.hpp"
#include "stats/verdict.hpp"
#include "store/store.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace rlab::results {

/// One cell's aggregate over its repeats (boots).
struct CellSummary {
  std::string cell_id;
  std::string kernel;
  std::string fs;
  std::string mkfs_label;
  unsigned vcpus = 0;
  std::string workload;
  unsigned copies = 0;
  unsigned boots = 0;          ///< boots of the cell in the run
  unsigned done = 0;           ///< boots with a result
  unsigned failed = 0;         ///< boots recorded as failed
  std::vector<double> scores;  ///< lpm of each done boot, by repeat
  std::optional<double> median;  ///< median of scores (lpm); nullopt when no score
  /// Sample stddev / mean of scores (a fraction, docs/statistics.md); nullopt when < 2 scores.
  std::optional<double> rel_stddev;
  std::uint64_t loops = 0;     ///< loops of all done boots
  /// xfs:xfs_inodegc_throttle events per 1,000 loops over the done boots; nullopt when no
  /// pass reported the tracepoint (ext4, or a kernel without it).
  std::optional<double> throttle_per_kloop;
  /// UnixBench's index of the median score in this guest (protocol::unixbench_index: lpm /
  /// 42.4 * 10 for shell1, / 6.0 * 10 for shell8); nullopt without a score.
  std::optional<double> index;
  /// XFS: mean over the done boots of the allocation groups the load's inodes were seen in
  /// per pass, and the filesystem's AG count; nullopt when no pass reported a placement.
  std::optional<double> inode_ags;
  std::optional<unsigned> agcount;
  std::string layout;          ///< "shared" or "per-copy" ("" when no boot has a result)
  /// XFS: which AG headers (AGI, AGF, AGFL per allocation group) the done boots waited for and
  /// held, per 1,000 loops (attribution/ag_table.hpp); nullopt when no pass carried AG header
  /// totals. Filled by load_table().
  std::optional<attribution::AgTable> ag_headers;
  /// "repeat <r>: <phase>: <message>" of each failed boot.
  std::vector<std::string> failures;
};

/// The noise a boot's score has on this host, for saying how many boots a verdict needs.
struct HostNoise {
  double rel_stddev = 0;  ///< boot-to-boot relative stddev of a cell's score (fraction)
  std::string source;     ///< where it comes from, e.g. "rlab noise of cell C, 2026-12-01"
};

/// How the run's guests came up, medians over its boots that said hello (store::BootPhases):
/// host seconds from domain start to hello, and on the guest's own clock (instruction time
/// under icount) when /init began, the agent started and its hello was made.
struct BootSummary {
  std::size_t boots = 0;  ///< boots with a hello
  std::optional<double> boot_s, init_s, agent_s, hello_s;  ///< nullopt when no boot recorded one
};

/// One run's table.
struct ResultsTable {
  store::RunInfo run;
  std::vector<std::string> kernels;  ///< column order: first appearance in the run's cells
  std::vector<CellSummary> cells;    ///< ordered by fs, mkfs label, vcpus, workload, kernel
  stats::VerdictOptions verdict;     ///< how a kernel's score is judged against the first kernel's
  /// The measured noise: the newest stored `rlab noise` report, else the pooled relative
  /// stddev of this run's cells with 2+ boots; nullopt when neither exists.
  std::optional<HostNoise> noise;
  std::optional<BootSummary> boot;  ///< nullopt when no boot of the run said hello
};

/// The verdict of `c`'s scores against `base`'s (the first kernel's cell of the same row);
/// nullopt when either side has no score.
std::optional<stats::Comparison> judge(const CellSummary& base, const CellSummary& c, const stats::VerdictOptions& opt);

/// Aggregates a run's boots (store::Store::boot_results) per cell.
ResultsTable summarize(const store::RunInfo& run, const std::vector<store::BootResult>& boots);

/// Reads run `run` from `st` and summarizes it, with the host's measured noise (HostNoise) and
/// each cell's AG header table (CellSummary::ag_headers); throws store::StoreError when absent.
ResultsTable load_table(const store::Store& st, store::RunId run);

/// Writes the text table in `rlab compare --kernels`' columns (results/vocabulary.hpp): per
/// (fs, mkfs, vCPUs, workload) the rows score_lpm (median ± %stddev, the boots of each kernel),
/// this guest's UnixBench index, and on XFS inodegc throttle/1k loops and the allocation groups
/// the load's inodes were seen in (xfs_inode_ags); the first kernel is the base column, every
/// other kernel a group with its %change against it, and on the score's row p and the verdict
/// (judge(): different, same or unknown). The legend under the table says what a verdict needs
/// and, with the measured noise, how many boots a side would resolve a 5% and the minimum
/// effect's change. Cells with an AG header table get it under the table, one block per cell.
void render_text(const ResultsTable& t, std::ostream& out);

/// The table as JSON: {"run": {...}, "kernels": [...], "cells": [{cell_id, kernel, fs, mkfs,
/// vcpus, workload, copies, boots, done, failed, scores, median_lpm, rel_stddev,
/// unixbench_index, throttle_per_1k_loops, inode_ags, agcount, layout, loops, vs_first:
/// {kernel, change, p, verdict, reason} or null, and "ag_headers" (attribution::ag_table_json) only
/// for cells with an AG header table}]}; absent figures are null.
nlohmann::json to_json(const ResultsTable& t);

/// The table as CSV (util/csv.hpp), one record per cell (a cell is one kernel's), under the
/// header run, cell, kernel, fs, mkfs, vcpus, workload, copies, boots, done, failed, median_lpm,
/// rel_stddev, unixbench_index, inodegc_throttle_per_1k_loops, base_kernel, change, p, verdict;
/// the last four judge the cell against the first kernel's cell of its row (judge()) and are
/// empty for the first kernel or an unjudged cell. Fractions stay fractions; absent figures
/// are empty fields.
void render_csv(const ResultsTable& t, std::ostream& out);

}  // namespace rlab::results
