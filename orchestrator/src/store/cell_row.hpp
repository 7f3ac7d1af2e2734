#pragma once
// One cell of a run as the store keeps it (table `cells`): plain values, no matrix types, so
// the store depends on nothing of how a matrix is read. matrix::cell_rows() makes these from a
// matrix's cells.
#include <string>
#include <vector>

namespace rlab::store {

/// A cell as stored: what it boots, on which filesystem, at how many vCPUs, with which load.
struct CellRow {
  std::string id;                          ///< "<kernel>/<fs id>/<N>vcpu/<workload>", unique in a run
  std::string kernel;                      ///< the matrix's kernel name, e.g. "6.12"
  std::string patchset;                    ///< the kernel's patch set label ("" for none)
  unsigned page_size = 65536;              ///< guest page size, bytes (4096, 16384 or 65536)
  std::string fs;                          ///< "xfs" or "ext4"
  std::string mkfs_label;                  ///< e.g. "agcount=4", "defaults"
  std::vector<std::string> mkfs_options;   ///< mkfs argv words after the program
  std::string mount_options;               ///< `mount -o` value, "" for none
  unsigned vcpus = 1;                      ///< guest vCPUs, 1..512
  std::string workload;                    ///< the workload's name in cell ids, e.g. "shell1"
  std::string workload_kind;               ///< "shell1" or "shell8"
  unsigned scripts_per_loop = 1;           ///< 1 (shell1) or 8 (shell8)
  unsigned copies = 1;                     ///< concurrent loopers
  unsigned passes = 1;                     ///< counted passes per boot
  double duration_s = 60;                  ///< seconds per pass
  unsigned warmup_passes = 0;              ///< passes run before the counted ones, not scored
};

}  // namespace rlab::store
