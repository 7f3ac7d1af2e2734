#pragma once
// `rlab compare`: base against new, cell by cell, with rlab's verdict rule (stats/verdict.hpp)
// on the boots' scores (lpm), after refusing pairs whose environments differ in anything but
// the axis under comparison (the kernel). Two runs are paired by cell id; two kernels of one
// run by filesystem variant, vCPUs, workload and copies.
#include "compare/boots.hpp"
#include "compare/drift.hpp"
#include "attribution/ag_table.hpp"
#include "attribution/flame.hpp"
#include "attribution/rank.hpp"
#include "stats/verdict.hpp"
#include "util/usage_error.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rlab::compare {

/// What is compared with what.
enum class Mode {
  runs,     ///< run A against run B, each cell id against itself
  kernels,  ///< kernel K1 against kernel K2 inside one run
};

/// One side of the comparison.
struct Side {
  std::int64_t run = 0;
  std::string kernel;  ///< matrix kernel name (kernels mode); "" in runs mode
};

/// Thresholds and the axis.
struct CompareOptions {
  stats::VerdictOptions verdict;  ///< alpha, minimum effect
  attribution::RankOptions movers;  ///< the "what changed" ranking's false discovery rate and rows
  stats::SamplingPlan plan;       ///< doubling plan for "measure more" advice (cap per side)
  /// Environment fields (kEnvFields names) allowed to differ between base and new: the
  /// kernel build under comparison.
  std::vector<std::string> axis_fields = {"kernel_release", "config_sha256"};
  /// Drift correction: a cell id (or a unique part of one) of a control cell booted in every
  /// repeat of both runs; "" = none (compare/drift.hpp).
  std::string control;
  /// Whether each compared row gets its "what changed" explanation: the counter ranking, the
  /// differential flame trees and the AG header table (CellComparison::movers, flames,
  /// ag_headers). false leaves them empty and skips their cost.
  bool what_changed = true;
};

/// Why a pair was refused: the first environment field that differs.
struct EnvMismatch {
  std::string field;      ///< kEnvFields name, e.g. "accel"
  std::string where;      ///< "base vs new", "base boots" or "new boots"
  std::string first;      ///< value on the base side (or of the side's first boot)
  std::string second;     ///< value on the new side (or of the differing boot)
  std::string message() const;  ///< e.g. "environment field `accel` differs (base vs new): tcg vs kvm"
};


/// State of one row.
enum class RowStatus { compared, refused, base_only, new_only, error };

/// "compared", "refused", "base only", "new only", "error".
std::string_view row_status_name(RowStatus s);

/// One cell pair.
struct CellComparison {
  std::string label;       ///< cell id (runs mode) or "fs(mkfs).Nvcpu.workload" (kernels mode)
  std::string base_cell;   ///< cell ids ("" when the side lacks the cell)
  std::string new_cell;
  RowStatus status = RowStatus::compared;
  std::vector<double> base_scores;  ///< lpm per boot
  std::vector<double> new_scores;
  std::optional<stats::Comparison> result;  ///< set when status == compared
  std::optional<EnvMismatch> mismatch;      ///< set when status == refused
  std::string error;                        ///< set when status == error
  /// The noise next to the effect (compared rows with 2+ boots a side): the pooled relative
  /// stddev of one boot, sqrt((sd_base^2 + sd_new^2) / 2) / mean_base, and the minimum
  /// detectable effect of this comparison, at alpha = options' alpha, power 0.9 and the
  /// smaller side's boots (stats/power.hpp). Fractions.
  std::optional<double> noise;
  std::optional<double> mde;
  /// Unknown verdicts only: boots per side to have next and how many more that is for each
  /// side. Chosen from the noise: the fewest boots whose minimum detectable effect reaches
  /// the effect sought, max(minimum effect, |observed change|), within the cap; by doubling
  /// when the noise is unknown or already small enough. All 0 when the cap is reached or
  /// the noise needs more than the cap (stays unknown; `beyond_cap` says which).
  std::size_t next_boots_per_side = 0;
  bool beyond_cap = false;  ///< the noise needs more than the cap for the effect sought
  std::size_t more_base = 0;
  std::size_t more_new = 0;
  /// What changed between the sides' boots, across every counter family, per 1,000 loops
  /// (attribution/rank.hpp); nullopt for refused and one-sided rows.
  std::optional<attribution::Ranking> movers;
  /// Differential flame trees (attribution/flame.hpp) of the stack families both sides
  /// collected (lock, offcpu, oncpu, agheader waits); empty where movers is nullopt.
  std::map<attribution::Family, attribution::FlameNode> flames;
  /// XFS: the AG header buffers (AGI, AGF, AGFL) per allocation group on both sides
  /// (attribution/ag_table.hpp); nullopt where movers is nullopt or neither side's passes carry
  /// AG header totals.
  std::optional<attribution::AgComparison> ag_headers;
  /// UnixBench's index of each side's median score in this guest (protocol::unixbench_index;
  /// nullopt for a workload without a UnixBench baseline or a side without boots).
  std::optional<double> base_index, new_index;
  /// XFS: mean allocation groups the load's inodes were seen in per pass, each side.
  std::optional<double> base_inode_ags, new_inode_ags;
  /// different and new's median is lower: fewer loops per minute.
  bool regression() const;
};

/// The whole comparison: one row per cell pair (compare_runs, compare_kernels).
struct ComparisonTable {
  Mode mode = Mode::runs;
  Side base;
  Side next;  ///< the "new" side
  CompareOptions options;
  std::vector<CellComparison> cells;  ///< compared/refused/error rows by label, then one-sided rows
  std::optional<DriftCorrection> drift;  ///< set when options.control was given
};

/// The pure core: compares the given boots (already filtered to each side).
ComparisonTable compare_boots(Mode mode, const Side& base, const Side& next,
                            const std::vector<BootData>& base_boots,
                            const std::vector<BootData>& new_boots, const CompareOptions& opt);

/// Run `base_run` against run `new_run`. Throws store::StoreError naming a missing run, and
/// UsageError for a control selector that names no single cell or a control with
/// no scored boot in one of the runs.
ComparisonTable compare_runs(const store::Store& st, std::int64_t base_run, std::int64_t new_run,
                           const CompareOptions& opt);

/// Kernel `base_kernel` against `new_kernel` in run `run`. Throws store::StoreError naming a
/// missing run, or UsageError naming a kernel the run has no scored boot of (or a
/// bad control, as compare_runs).
ComparisonTable compare_kernels(const store::Store& st, std::int64_t run, const std::string& base_kernel,
                              const std::string& new_kernel, const CompareOptions& opt);

/// The first environment difference, or nullopt: each side's boots must agree in every
/// field, and the sides in every field outside `axis_fields`.
std::optional<EnvMismatch> find_mismatch(const std::vector<const BootData*>& base,
                                         const std::vector<const BootData*>& next,
                                         const std::vector<std::string>& axis_fields);

}  // namespace rlab::compare
