#pragma once
// The files of the shell1/shell8 load (docs/agent.md "shell1 as UnixBench runs it"): the input
// the scripts sort and rlab's two scripts, which behave as UnixBench's multi.sh and tst.sh.
#include <cstddef>
#include <string>
#include <string_view>

namespace rlab::agent {

/// The figures of an input that drive the pipeline's work: `sort` (lines, distinct lines),
/// `od` (bytes), `grep the | tee | wc` (matching lines and their bytes).
struct InputStats {
  std::size_t bytes = 0;           ///< total, newlines included
  std::size_t lines = 0;           ///< newline-terminated lines
  std::size_t distinct_lines = 0;
  std::size_t the_lines = 0;       ///< lines containing "the" anywhere (what `grep the` matches)
  std::size_t the_bytes = 0;       ///< their bytes, newlines included
  bool printable_ascii = true;     ///< only bytes 32..126 and '\n'
};

/// Measures `text` (a final line without '\n' counts as a line).
InputStats input_stats(std::string_view text);

/// The figures of UnixBench's testdir/sort.src (362 lines, 8,546 bytes, 273 distinct lines,
/// 35 lines with "the" holding 924 bytes), which sort_input_text() reproduces exactly.
InputStats unixbench_input_stats();

/// rlab's own input: shell-script-like ASCII lines generated from rlab's vocabulary by a fixed
/// generator, with exactly unixbench_input_stats()'s figures. Deterministic (same bytes in
/// every build); contains no UnixBench text.
const std::string& sort_input_text();

/// One copy of the pipeline (tst.sh's behaviour): sort "$1" > sort.$$; od sort.$$ | sort -n
/// -k 1 > od.$$; grep the sort.$$ | tee grep.$$ | wc > wc.$$; rm the four files. No `set -e`:
/// its exit status is rm's.
const std::string& copy_script_text();

/// One loop (multi.sh's behaviour): starts $1 background `/bin/sh $RLAB_PGMS/copy.sh sort.src`
/// in the current directory, then a plain `wait`, so its status is 0 whatever the copies did.
const std::string& loop_script_text();

}  // namespace rlab::agent
