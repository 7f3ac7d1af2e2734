#pragma once
// The four reports of a night, written into <out>/<YYYY-MM-DD>-run<id>/:
//   report.html   self-contained page: tables and SVG plots (svg.hpp), inline CSS, no script
//   summary.txt   LKP-style text: compare's tables against the previous night and the baseline
//   kcidb.json    KCIDB I/O schema v5.3: checkouts (one per kernel), builds, tests (one per
//                 cell and one per gap)
//   junit.xml     JUnit XML: one testcase per cell and per gap; a regression is a <failure>,
//                 a failed boot (a gap without a ratio) an <error>
// docs/nightly.md describes each file.
#include "nightly/analysis.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace rlab::nightly {

/// The HTML page (UTF-8, one file).
std::string render_html(const NightAnalysis& r);

/// The text summary: header (run, previous night, baseline), one line per cell, the compare
/// tables (compare::render_text), the change points and the bisections.
std::string render_summary(const NightAnalysis& r);

/// The KCIDB document {"version": {"major": 5, "minor": 3}, "checkouts", "builds", "tests"}.
/// Ids are "rlab:<run>:<kernel>" (checkout), "rlab:<run>:<kernel>:build" and
/// "rlab:<run>:<cell id>" (test of a cell), "rlab:<run>:gap:<cell id> ÷ <against cell id>" (test
/// of a gap: its ratio tonight as the dimensionless "number"); origin "rlab"; test path
/// "unixbench.<workload>.<fs>[-<mkfs id>].vcpus<N>"; status FAIL/ERROR/PASS (CellOutcome::
/// status), the median score as the test's "number" {value, unit "lpm"}; a build's status PASS
/// or FAIL (it did not build); misc carries the figures. No property is null (the schema
/// forbids it).
nlohmann::json to_kcidb(const NightAnalysis& r);

/// The test path of a cell in KCIDB, e.g. "unixbench.shell1.xfs.vcpus2",
/// "unixbench.shell1.xfs-agcount4.vcpus2"; characters outside [.a-zA-Z0-9_-] become '_'.
std::string kcidb_path(const CellOutcome& c);

/// The test path of a gap in KCIDB: its first cell's path (kcidb_path) and "gap_" with the
/// words of the second cell's path that differ from the first's, joined by '_', e.g.
/// "unixbench.shell1.xfs.vcpus2.gap_ext4", "unixbench.shell1.xfs.vcpus4.gap_vcpus1"; from the
/// cell ids when a cell is not in the night's run. Characters outside [.a-zA-Z0-9_-] become '_'.
std::string kcidb_gap_path(const NightAnalysis& r, const GapOutcome& g);

/// The JUnit XML document (<testsuites><testsuite name="rlab nightly run N">...).
std::string render_junit(const NightAnalysis& r);

/// Writes the four files into `out_dir`/r.dir_name() (created; each file written atomically)
/// and returns that directory. Throws std::filesystem::filesystem_error or
/// std::runtime_error naming the file that could not be written.
std::filesystem::path write_reports(const NightAnalysis& r, const std::filesystem::path& out_dir);

/// Removes the oldest night directories ("<YYYY-MM-DD>-run<id>", by date then run id) under
/// `out_dir` beyond the newest `keep` (`nightly.keep_reports`); anything else there is left
/// alone. Returns how many were removed. Never throws (a directory that cannot be removed
/// stays, and is tried again the next night).
std::size_t prune_reports(const std::filesystem::path& out_dir, unsigned keep);

}  // namespace rlab::nightly
