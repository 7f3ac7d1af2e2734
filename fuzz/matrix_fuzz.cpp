// libFuzzer target: matrix.yaml text. parse_matrix must either return a matrix or throw
// MatrixError (docs/matrix.md); any other exception, a crash or a sanitizer report is a bug.
// A matrix that loads must expand to the number of cells its axes promise, within the boot
// limit, with unique cell ids.
#include "matrix/matrix.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>

/// libFuzzer entry point: `data` is the text of a matrix file.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rlab::matrix::Matrix m;
  try {
    // Relative paths resolve under a directory that does not exist: with file checks on
    // they fail cleanly; with them off (odd sizes) validation goes on past them.
    rlab::matrix::LoadOptions opt;
    opt.check_paths = size % 2 == 0;
    m = rlab::matrix::parse_matrix(text, "/nonexistent-rlab-fuzz/matrix.yaml", opt);
  } catch (const rlab::matrix::MatrixError& e) {
    if (std::string(e.what()).empty()) {
      std::fprintf(stderr, "MatrixError without a message\n");
      std::abort();
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parse_matrix threw something other than MatrixError: %s\n", e.what());
    std::abort();
  }
  const auto cells = rlab::matrix::expand_cells(m);
  const std::size_t promised = m.kernel_axis.size() * m.filesystem_axis.size() *
                               m.vcpus_axis.size() * m.workload_axis.size();
  std::set<std::string> ids;
  for (const auto& c : cells) ids.insert(c.id);
  if (cells.size() != promised || ids.size() != cells.size() ||
      cells.size() * m.repeats > rlab::matrix::kMaxBoots) {
    std::fprintf(stderr, "expansion broke its promise: %zu cells, %zu ids, %zu promised\n",
                 cells.size(), ids.size(), promised);
    std::abort();
  }
  return 0;
}
