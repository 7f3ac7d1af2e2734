#pragma once
// Stores filled through the Store API with data shaped like real runs: a matrix of two
// kernels x XFS (defaults, agcount=4) x 2 vCPUs, three passes per boot with the protocol's
// counters (tracepoints, xfs_stats, cpu), results with a full environment.
#include "matrix/matrix.hpp"
#include "store/store.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rlab::testing {

inline const char* const kMatrixText = R"(kernels:
  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}
  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}
axes:
  kernel: ["6.12", 6.12+inline-inactivation]
  filesystem: [{fs: xfs, mkfs: [[], [-d, agcount=4]]}]
  vcpus: [2]
  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]
  repeats: 10
)";

/// What one boot measured.
struct BootSpec {
  double score = 0;                           ///< lpm
  std::map<std::string, double> tracepoints;  ///< hits per pass
  store::Environment env;                     ///< recorded with the result
  bool fail = false;                          ///< record a boot failure instead
};

/// The environment of a TCG boot of `cell_kernel` (as recorded by rlab run).
inline store::Environment tcg_env(const std::string& fs_mkfs_json, bool patched) {
  store::Environment e;
  e.host = "qemu:///system";
  e.accel = "tcg";
  e.cpu_model = "max";
  e.cpu_options = "pauth=off";
  e.memory_mib = 1024;
  e.vcpus = 2;
  e.page_size = 65536;
  e.kernel_release = patched ? "6.12.57+rlab-inline" : "6.12.57+rlab";
  e.config_sha256 = patched ? "c2f1e0aa" : "9b1d77e3";
  e.fs = "xfs";
  e.mkfs_options = fs_mkfs_json;
  e.mount_options = "";
  e.agent_version = "0.1.0";
  e.workload = "shell1";
  e.copies = 2;
  e.passes = 3;
  e.duration_s = 20;
  e.locale = "C";
  return e;
}

/// Fills a new run of kind `kind` from kMatrixText (or `matrix_text`, stored as the matrix at
/// `matrix_path`): `spec(cell_id, kernel, repeat)` gives each boot; boots of cells `spec` marks
/// with score <= 0 are left pending. Returns the run id.
inline store::RunId fill_run(
    store::Store& st, const std::string& kind,
    const std::function<BootSpec(const std::string& cell, const std::string& kernel, unsigned repeat)>& spec,
    const std::string& matrix_text = kMatrixText, const std::string& commit = "",
    const std::string& matrix_path = "/nonexistent/matrix.yaml") {
  auto m = matrix::parse_matrix(matrix_text, matrix_path, matrix::LoadOptions{.check_paths = false});
  const auto run = st.create_run({m.path.string(), matrix_text, 7, kind, ""});
  const auto cells = matrix::expand_cells(m);
  st.add_cells(run, matrix::cell_rows(cells), m.repeats);
  for (const auto& c : cells)
    for (unsigned r = 0; r < m.repeats; ++r) {
      const BootSpec b = spec(c.id, c.kernel.name, r);
      if (b.score <= 0 && !b.fail) continue;
      const auto id = st.boot_id(run, c.id, r);
      st.start_boot(id, b.env.host, "rlab-" + std::to_string(id), "/tmp/console.log");
      store::KernelIdentity k;
      k.kernel_key = "k-" + c.kernel.name + b.env.kernel_release + commit;
      k.name = c.kernel.name;
      k.kernel_release = b.env.kernel_release;
      k.source_commit = commit.empty() ? "6.12.57-1" : commit;
      k.config_sha256 = b.env.config_sha256;
      k.patchset = c.kernel.patchset;
      st.record_images(id, k, "img-1");
      st.record_hello(id, {65536, 2, b.env.kernel_release, "0.1.0", 1000000, "[]"});
      if (b.fail) {
        st.record_failure(id, rlab::store::FailurePhase::boot, "guest did not say hello within 300 s", "[  0.0] Booting");
        continue;
      }
      for (unsigned p = 0; p < 3; ++p) {
        const double lpm = b.score * (1.0 + 0.01 * (static_cast<double>(p) - 1.0));
        const auto loops = static_cast<std::uint64_t>(std::llround(lpm * 20.0 / 60.0));
        std::string tp;
        for (const auto& [name, hits] : b.tracepoints)
          tp += (tp.empty() ? "" : ",") + ("\"" + name + "\":" + std::to_string(std::llround(hits)));
        const std::string counters =
            "{\"tracepoints\":{" + tp + "},\"xfs_stats\":{\"ig.0\":812,\"vnodes.1\":40}," +
            "\"cpu\":{\"user\":1200,\"system\":800,\"idle\":30},\"ctxt\":52000,\"forks\":3100}";
        rlab::store::Pass pass;
        pass.index = p;
        pass.loops = loops;
        pass.duration_s = 20.0;
        pass.lpm = lpm;
        pass.latency_json = R"({"bounds_s":[0.1],"counts":[1,0]})";
        pass.counters_json = counters;
        st.record_pass(id, pass);
      }
      st.record_result(id, {b.score, 0, "[]"}, b.env);
    }
  st.finish_run(run, rlab::store::RunStatus::done);
  return run;
}

}  // namespace rlab::testing
