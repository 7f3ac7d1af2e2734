#pragma once
// A store's nightly history for change-point tests: 30 nightly runs of one kernel on XFS and
// ext4 (3 boots a night, 3% noise), each night a commit of its own; XFS is 12% slower from
// night 18 on. Used by `rlab detect`'s tests and the docs' example of it.
#include "matrix/matrix.hpp"
#include "stats/random.hpp"
#include "store/store.hpp"

#include <cstdio>
#include <string>

namespace rlab::testing {

inline const char* const kHistoryMatrix = R"(kernels:
  nightly: {source: {debian: "6.12", suite: trixie}, page_size: 64k}
axes:
  kernel: [nightly]
  filesystem: [{fs: xfs}, {fs: ext4}]
  vcpus: [2]
  workload: [{type: shell1, copies: vcpus, passes: 1, duration_s: 20}]
  repeats: 3
)";
inline const std::string kHistoryXfs = "nightly/xfs-defaults/2vcpu/shell1";
inline const std::string kHistoryExt4 = "nightly/ext4-defaults/2vcpu/shell1";
inline constexpr std::size_t kNights = 30, kBadNight = 18;

/// A 40-digit commit id for night `n` (the tree's HEAD that night).
inline std::string commit_of(std::size_t n) {
  char buf[41];
  std::snprintf(buf, sizeof buf, "%08zx%032x", 0xabc00 + n, 0x5eed);
  return buf;
}

/// Fills `st` with the kNights nightly runs of kHistoryMatrix (stored as the matrix at
/// `matrix_path`), then one matrix run of the same cells that is not part of the history.
inline void fill_nightly_history(store::Store& st, const std::string& matrix_path = "/nonexistent/nightly.yaml") {
  auto m = matrix::parse_matrix(kHistoryMatrix, matrix_path, matrix::LoadOptions{.check_paths = false});
  const auto cells = matrix::expand_cells(m);
  stats::Rng rng(77);
  for (std::size_t n = 0; n < kNights; ++n) {
    const auto run = st.create_run({m.path.string(), kHistoryMatrix, n, "nightly", ""});
    st.add_cells(run, matrix::cell_rows(cells), m.repeats);
    for (const auto& c : cells)
      for (unsigned r = 0; r < m.repeats; ++r) {
        const auto id = st.boot_id(run, c.id, r);
        st.start_boot(id, "qemu:///system", "d", "c");
        store::KernelIdentity k{"k" + std::to_string(n), "nightly", "6.13.0-rc" + std::to_string(n),
                                commit_of(n), "cfg", 64, ""};
        st.record_images(id, k, "img");
        st.record_hello(id, {65536, 2, k.kernel_release, "0.1.0", 1000000, "[]"});
        double score = 270 * (1 + 0.03 * rng.normal());
        if (c.filesystem.fs == matrix::Fs::kXfs && n >= kBadNight) score *= 0.88;  // -12%
        st.record_pass(id, {0, static_cast<std::uint64_t>(score / 3), 0, 20, score, "{}", "{}"});
        store::Environment env;
        env.accel = "tcg";
        st.record_result(id, {score, 0, "[]"}, env);
      }
    st.finish_run(run, rlab::store::RunStatus::done);
  }
  // A matrix run of the same cell that is not part of the nightly history.
  const auto other = st.create_run({m.path.string(), kHistoryMatrix, 1, "matrix", ""});
  st.add_cells(other, matrix::cell_rows(cells), 1);
}

}  // namespace rlab::testing
