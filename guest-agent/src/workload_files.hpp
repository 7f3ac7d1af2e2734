#pragma once
// The files of the shell1/shell8 load, written into each looper's directory.
#include <string>

namespace rlab::agent {

/// The input the script sorts: rlab's own ASCII text, about 8.5 KB in about 360 lines, some
/// of which contain "the" (UnixBench's sort.src has those proportions). Deterministic.
const std::string& sort_input_text();

/// The four-line script one copy runs (UnixBench's tst.sh semantics): sort, od | sort -n,
/// grep the | tee | wc, rm; with `set -e` so any failing step fails the copy.
const std::string& copy_script_text();

/// One loop (UnixBench's multi.sh semantics): starts $1 concurrent `/bin/sh copy.sh`, waits
/// for each, exits 1 if any failed.
const std::string& loop_script_text();

}  // namespace rlab::agent
