#pragma once
// Test support for tests that run the real rlab binary on real guests: the binary's argv, the
// static aarch64 agent, and the small matrix of the cached 64K 6.12 kernel they boot.
#include "image/guest_images.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace rlab::testing {

/// `rlab` followed by `args`: the binary ctest names in RLAB_BIN, else the build tree's.
inline std::vector<std::string> rlab_argv(std::vector<std::string> args) {
  const char* bin = std::getenv("RLAB_BIN");
  std::vector<std::string> argv{bin && *bin ? bin : RLAB_BINARY_DIR "/orchestrator/rlab"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

/// The static aarch64 agent (image::default_agent_binary), built first the README's way
/// (`cmake --preset aarch64-agent`, target rlab-agent) when there is none. Throws
/// util::ProcessError when that build fails.
inline std::filesystem::path agent_binary() {
  try {
    return image::default_agent_binary();
  } catch (const std::exception&) {
    util::ProcessOptions o;
    o.cwd = RLAB_SOURCE_DIR;
    o.timeout = std::chrono::minutes(30);
    util::run_checked({"cmake", "--preset", "aarch64-agent"}, o);
    util::run_checked({"cmake", "--build", "build/aarch64", "--target", "rlab-agent"}, o);
    return image::default_agent_binary();
  }
}

/// The directory of one real run, /var/tmp/rlab-<name>-<pid> (under /var/tmp: QEMU's user
/// must reach the run directory next to the store, so it is world-searchable), emptied first;
/// removed when the test ends unless it failed (then kept to look at).
struct RunDir {
  std::filesystem::path dir;
  std::filesystem::path matrix;  ///< dir / "matrix.yaml"
  explicit RunDir(const std::string& name) {
    namespace fs = std::filesystem;
    dir = fs::path("/var/tmp") / ("rlab-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    matrix = dir / "matrix.yaml";
  }
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  ~RunDir() {
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
  }
  /// Writes `text` as the matrix file.
  void write(const std::string& text) const { std::ofstream(matrix) << text; }
};

/// UnixBench's directory (src/, pgms/, testdir/): $RLAB_UNIXBENCH, else the reference copy
/// beside the checkout (../shared/reference/byte-unixbench/UnixBench); "" when neither holds
/// src/looper.c.
inline std::filesystem::path unixbench_dir() {
  namespace fs = std::filesystem;
  if (const char* c = std::getenv("RLAB_UNIXBENCH"); c && *c && fs::exists(fs::path(c) / "src" / "looper.c"))
    return c;
  const fs::path ref = fs::path(RLAB_SOURCE_DIR) / ".." / "shared" / "reference" / "byte-unixbench" / "UnixBench";
  return fs::exists(ref / "src" / "looper.c") ? fs::canonical(ref) : fs::path();
}

/// Why the tests that run UnixBench's own programs cannot run on this checkout: "" when
/// unixbench_dir() found them, else the reason and how to supply them (for GTEST_SKIP).
/// UnixBench's sources are reference material this repository does not ship.
inline std::string unixbench_missing() {
  if (!unixbench_dir().empty()) return "";
  return "no UnixBench directory: set RLAB_UNIXBENCH to one (src/, pgms/, testdir/), or keep "
         "shared/reference/byte-unixbench beside the checkout";
}

/// The shape of a small matrix of the cached 64K 6.12 kernel (TCG, 1 GiB, 2 GiB disk): by
/// default one shell1 pass of `duration_s` per boot, one repeat, `results: rlab.db` beside the
/// file. The one matrix the tests against real guests start from.
struct SmallMatrix {
  /// Each filesystem variant: an `fs:` name ("xfs") or a whole flow mapping
  /// ("{fs: xfs, mkfs: [[-d, agcount=4]]}").
  std::vector<std::string> filesystems{"xfs"};
  unsigned vcpus = 1;
  unsigned duration_s = 5;
  /// `workload:` items as flow mappings; none: one shell1 pass of `duration_s`, copies: vcpus.
  std::vector<std::string> workloads;
  unsigned repeats = 1;
  unsigned seed = 11;
  /// YAML lines added under `kernels:` after "6.12" (e.g. a patched kernel extending it), and
  /// the `kernel:` axis.
  std::string extra_kernels;
  std::string kernel_axis = "[\"6.12\"]";
  /// `hosts:` items as (uri, vCPU budget, agent_link or "" for the URI's default); none: no
  /// `hosts:` key (the local libvirtd).
  std::vector<std::tuple<std::string, unsigned, std::string>> hosts;
  /// `files:` of every host item whose URI is not local: "paths" (a second libvirtd of this
  /// machine sees rlab's paths) or "volumes" (one that shares no filesystem).
  std::string remote_files = "paths";
  /// `hello_timeout_s:` of every host item; 0: not set (the default).
  unsigned hello_timeout_s = 0;
  /// `hello_retries:` of every host item; 0: not set (the default, none).
  unsigned hello_retries = 0;
  /// `liveness_timeout_s:` of every host item; 0: not set (the default, 30 s).
  unsigned liveness_timeout_s = 0;
  /// The `guest:` mapping, flow style.
  std::string guest = "{memory_mib: 1024, cpu: auto, accel: auto, disk_gib: 2}";
};

/// The YAML text of `m`.
inline std::string small_matrix(const SmallMatrix& m) {
  std::string t = "kernels:\n  \"6.12\":\n    source: {debian: \"6.12\", suite: trixie}\n"
                  "    page_size: 64k\n" + m.extra_kernels + "axes:\n  kernel: " + m.kernel_axis +
                  "\n  filesystem:\n";
  for (const auto& fs : m.filesystems) t += (fs.starts_with("{") ? "    - " : "    - fs: ") + fs + "\n";
  t += "  vcpus: [" + std::to_string(m.vcpus) + "]\n  workload:\n";
  if (m.workloads.empty())
    t += "    - {type: shell1, copies: vcpus, passes: 1, duration_s: " + std::to_string(m.duration_s) + "}\n";
  for (const auto& w : m.workloads) t += "    - " + w + "\n";
  t += "  repeats: " + std::to_string(m.repeats) + "\nguest: " + m.guest +
       "\nresults: rlab.db\nseed: " + std::to_string(m.seed) + "\n";
  if (!m.hosts.empty()) t += "hosts:\n";
  for (const auto& [uri, budget, link] : m.hosts)
    t += "  - {uri: \"" + uri + "\", vcpus: " + std::to_string(budget) +
         (link.empty() ? "" : ", agent_link: " + link) +
         (uri.find(":///") == std::string::npos ? ", files: " + m.remote_files : "") +
         (m.hello_timeout_s ? ", hello_timeout_s: " + std::to_string(m.hello_timeout_s) : "") +
         (m.hello_retries ? ", hello_retries: " + std::to_string(m.hello_retries) : "") +
         (m.liveness_timeout_s ? ", liveness_timeout_s: " + std::to_string(m.liveness_timeout_s) : "") + "}\n";
  return t;
}

}  // namespace rlab::testing
