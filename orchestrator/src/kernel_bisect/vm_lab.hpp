#pragma once
// The real Lab: every batch of commits is a run::Batch carried out by run::run_batch, the one
// batch runner `rlab run` uses too (run/batch.hpp): each commit of the session's tree built with
// the cell's page size, config fragments and patches (image::ensure_guest_images: ccache,
// content-addressed cache), all before any boot, then booted `runs` times on the matrix's
// first libvirt host that can run the cells (HostUse::kFirstFitting), interleaved
// (run::interleaved_order), as many boots at once as the host's vCPU budget holds, pinned,
// created paused, obeying a stop signal, as in any run. Every batch is an ordinary store run (kind
// "bisect") with one cell per commit whose kernel is the commit -- two for a gap session, the
// session's cell and the one it is measured against, booted side by side in every round, one
// kernel build serving both -- so `rlab results` and `rlab compare` read it like any other run.
// A gap session's samples are the first cell's score over the second's, round by round.
#include "kernel_bisect/lab.hpp"
#include "kernel_bisect/session.hpp"
#include "matrix/matrix.hpp"
#include "util/usage_error.hpp"

#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace rlab::kernel_bisect {

/// A stop signal arrived while measuring: the batch is stored as interrupted and no answer is
/// given for the commit.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Receives progress lines ("build 3f2a1b: [ 41s, 812 steps] CC fs/xfs/xfs_icache.o").
using ProgressLine = std::function<void(std::string_view line)>;

/// The session's cell at `commit`: the kernel is the git tree at that commit (named by its
/// first 12 hex digits, which also start the cell id); filesystem, vCPUs, workload, page size,
/// fragments and patches stay the cell's.
matrix::Cell cell_at(const matrix::Cell& cell, const std::filesystem::path& tree,
                     const std::string& commit);

/// A build error in one line: the first line of `what` (the failing step and its log file),
/// then " | " and the compiler's first ": error:" line, searched in the build log that line
/// names ("...; log <path>:") and then in the rest of `what`; just the first line if none.
std::string brief_build_failure(const std::string& what);

/// Lab that builds and boots.
class VmLab : public Lab {
 public:
  /// `agent`: the static aarch64 agent ("" -> image::default_agent_binary()).
  VmLab(SessionDb& db, const Session& session, std::filesystem::path agent, ProgressLine progress_line = {});
  ~VmLab() override;
  std::vector<double> stored(const std::string& commit, const std::string& purpose) override;
  std::vector<bisection::Measurement> measure(const std::vector<LabRequest>& requests,
                                           const std::string& purpose) override;
  std::optional<KernelFacts> kernel_facts(const std::string& commit) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlab::kernel_bisect
