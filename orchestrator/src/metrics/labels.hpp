#pragma once
// Label sets of rlab's metrics. Every value is bounded: names from the matrix (kernel,
// patchset, fs, mkfs label, workload), small integers (page size, vCPUs, copies) and host
// names. A commit SHA or run id is never a label (see rlab_kernel_info and the store).
#include "matrix/matrix.hpp"

#include <prometheus/labels.h>

#include <string>
#include <string_view>

namespace rlab::metrics {

/// The labels of one cell's series.
struct CellLabels {
  std::string kernel;      ///< the matrix's kernel name, e.g. "6.12"
  std::string patchset;    ///< "" for none (exposed as "none")
  unsigned page_size = 0;  ///< bytes, e.g. 65536
  std::string fs;          ///< "xfs" / "ext4"
  std::string mkfs;        ///< mkfs option-set label, e.g. "agcount=4", "defaults"
  unsigned vcpus = 0;
  unsigned copies = 0;     ///< parallel loopers
  std::string workload;    ///< the matrix's workload name, e.g. "shell1"
  std::string host;        ///< host_label() of the libvirt host the cell ran on

  /// As Prometheus labels (all nine keys, always present; empty patchset -> "none").
  prometheus::Labels to_labels() const;
  bool operator<(const CellLabels& o) const;
  bool operator==(const CellLabels& o) const = default;
};

/// The `host` label of a libvirt URI: its host part ("qemu+ssh://arm-01/system" -> "arm-01",
/// user and port dropped), or `local_hostname` (the machine that ran rlab) for a local URI
/// such as "qemu:///system" or an empty one.
std::string host_label(std::string_view libvirt_uri, std::string_view local_hostname);

/// The labels of `cell` booted on the libvirt host `libvirt_uri` (host_label() against this
/// machine's name), for LiveMetrics calls from the code running cells.
CellLabels cell_labels(const matrix::Cell& cell, std::string_view libvirt_uri);

/// The name of this machine (gethostname), "localhost" if unavailable.
std::string local_hostname();

/// The `stat` label for an XFS stats key "<group>.<index>" (0-based index after the group
/// name in /sys/fs/xfs/.../stats), e.g. "vnodes.6" -> "vnodes_reclaim", "ig.0" ->
/// "ig_attempts"; "" for keys outside the documented selection (they are not exported).
std::string xfs_stat_name(std::string_view key);

/// The `event` label for a tracepoint "xfs:xfs_inodegc_<event>" -> "<event>"; "" for others.
std::string inodegc_event(std::string_view tracepoint);

}  // namespace rlab::metrics
