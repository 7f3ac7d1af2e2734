#pragma once
// The bare guest (workload `runner: bare`, docs/agent.md "The bare guest"): UnixBench's own
// looper, multi.sh and tst.sh started by rlab's minimal /init (images/bare/init, booted as
// `rdinit=/bare-init`) with no agent beside them, in the same kernel, initramfs and machine as
// every other cell. The guest gets its parameters on the kernel command line, prints one
// "RLAB-BARE" line per copy and pass on its serial console and powers off; rlab reads the
// console libvirt keeps after the domain is gone and scores it as the agent would have.
#include "matrix/matrix.hpp"
#include "rlab/protocol/messages.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::run {

/// The bare guest's output is missing, malformed or reports a failure; the message says what
/// and where (pass, copy) and quotes the guest's words.
struct BareOutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Where the bare guest finds the disk under test: a block device by path (brd's RAM disk,
/// "/dev/ram0") or a virtio disk by its serial.
struct BareDisk {
  std::string device;  ///< e.g. "/dev/ram0"; empty: find the disk by `serial`
  std::string serial;  ///< e.g. "rlab-fs"
};

/// The words added to the kernel command line of a bare boot of `cell`: rdinit=/bare-init and
/// rlab.bare.{fs, device|serial, mount, copies, passes (warm-up ones included), seconds,
/// scripts, drop_caches}, separated by blanks, with a leading blank. Throws
/// std::invalid_argument when the cell is not one the matrix accepts for runner "bare"
/// (mkfs options, mount options with blanks or quotes, a duration not in whole seconds).
std::string bare_cmdline(const matrix::Cell& cell, const BareDisk& disk);

/// One copy's line: "RLAB-BARE pass=<p> copy=<c> status=<s> start_s=<uptime> end_s=<uptime>
/// output=<the looper's stderr, newlines as blanks>".
struct BareCopy {
  unsigned pass = 0, copy = 0;
  int status = 0;                      ///< the looper's exit status
  double start_s = 0, end_s = 0;       ///< guest uptime (s) at the copy's start and at EOF on its stderr
  std::optional<std::uint64_t> count;  ///< loops, from the looper's "COUNT|<n>|..." line
  std::string output;                  ///< what the looper and its loops wrote to stderr
};

/// Everything the bare guest printed, in order.
struct BareReport {
  bool begun = false, ended = false;     ///< saw "RLAB-BARE begin" / "RLAB-BARE end"
  std::optional<std::string> error;      ///< "RLAB-BARE error=<why>": the guest gave up
  std::string kernel_release;            ///< uname -r
  std::optional<std::uint64_t> page_size;  ///< bytes, getconf PAGESIZE
  std::optional<unsigned> nproc;         ///< online CPUs
  std::vector<BareCopy> copies;
};

/// Parses a serial console: "RLAB-BARE " lines anywhere in a line (the kernel may print
/// before them), "\r" tolerated, other lines ignored. A copy line whose fields do not parse
/// throws BareOutputError quoting it.
BareReport parse_bare_console(std::string_view console);

/// The guest's facts as the agent's hello carries them (agent_version "none (bare guest)",
/// kernel release, page size, CPUs). Throws BareOutputError when the guest did not begin,
/// gave up (its error), or did not print them.
protocol::Hello bare_hello(const BareReport& report);

/// The load's result as the agent reports it: per pass, the copies' loops summed and the
/// pass's time as UnixBench's Run takes it (the copies' mean time from start to EOF on the
/// looper's stderr, at least `duration_s`), lpm = loops * 60 / time; the score is UnixBench's
/// over the passes from `warmup` on. Throws BareOutputError when the guest gave up or did not
/// end, or a pass lacks a copy, or a copy's looper failed or printed no count.
protocol::Result bare_result(const BareReport& report, unsigned copies, unsigned passes, unsigned warmup,
                             double duration_s);

}  // namespace rlab::run
