// Cells, labels, accel resolution and the error type of matrix/.
#include "matrix/matrix.hpp"
#include "util/usage_error.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rlab::matrix {

MatrixError::MatrixError(std::filesystem::path f, int l, int c, const std::string& msg)
    : std::runtime_error(f.string() + ":" + std::to_string(l) + ":" + std::to_string(c) + ": " +
                         msg),
      file(std::move(f)), line(l), col(c), message(msg) {}

std::string Filesystem::id() const {
  std::string out = std::string(to_string(fs)) + "-";
  for (char ch : label)
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '+' || ch == '_' ||
        ch == '-')
      out += ch;
  return out;
}

const char* to_string(DiskBacking d) { return d == DiskBacking::kRam ? "ram" : "virtio"; }

const char* to_string(Accel a) {
  switch (a) {
    case Accel::kKvm: return "kvm";
    case Accel::kTcg: return "tcg";
    default: return "auto";
  }
}

Accel resolve_accel(Accel requested, const std::string& host_arch, bool kvm_usable) {
  if (requested != Accel::kAuto) return requested;
  return host_arch == "aarch64" && kvm_usable ? Accel::kKvm : Accel::kTcg;
}

Accel resolve_accel_local(Accel requested) {
  struct utsname u {};
  std::string arch = ::uname(&u) == 0 ? u.machine : "";
  return resolve_accel(requested, arch, ::access("/dev/kvm", R_OK | W_OK) == 0);
}

std::string resolve_cpu_model(const Guest& guest, Accel accel) {
  if (guest.cpu_model != "auto") return guest.cpu_model;
  return accel == Accel::kKvm ? "host" : "max";
}

std::vector<Cell> expand_cells(const Matrix& m) {
  std::vector<Cell> cells;
  for (const auto& kname : m.kernel_axis) {
    const build::KernelSpec& k = m.kernels.at(kname);
    for (const auto& fs : m.filesystem_axis) {
      for (unsigned v : m.vcpus_axis) {
        for (const auto& w : m.workload_axis) {
          Cell c;
          c.id = kname + "/" + fs.id() + "/" + std::to_string(v) + "vcpu/" + w.name;
          c.kernel = k;
          c.filesystem = fs;
          c.vcpus = v;
          c.workload = w;
          c.copies = w.copies.value_or(v);
          c.page_size = k.page_size_kib * 1024;
          cells.push_back(std::move(c));
        }
      }
    }
  }
  return cells;
}

std::string select_cell_id(const std::vector<std::string>& ids, const std::string& selector) {
  std::vector<std::string> hits;
  for (const auto& id : ids) {
    if (id == selector) return id;
    if (!selector.empty() && id.find(selector) != std::string::npos &&
        std::find(hits.begin(), hits.end(), id) == hits.end())
      hits.push_back(id);
  }
  if (hits.size() == 1) return hits.front();
  // The selector is echoed cut to 80 bytes (an option value may be any size); each id once.
  const std::string shown = selector.size() > 80 ? selector.substr(0, 80) + "..." : selector;
  if (hits.empty()) {
    std::vector<std::string> cells;
    for (const auto& id : ids)
      if (std::find(cells.begin(), cells.end(), id) == cells.end()) cells.push_back(id);
    throw UsageError(fmt::format("no cell matches '{}'; cells: {}", shown, fmt::join(cells, ", ")));
  }
  throw UsageError(
      fmt::format("'{}' matches {} cells, name one: {}", shown, hits.size(), fmt::join(hits, ", ")));
}

Cell select_cell(const Matrix& m, const std::string& selector) {
  auto cells = expand_cells(m);
  std::vector<std::string> ids;
  for (const auto& c : cells) ids.push_back(c.id);
  std::string id;
  try {
    id = select_cell_id(ids, selector);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", m.path.string(), e.what()));
  }
  return *std::find_if(cells.begin(), cells.end(), [&](const auto& c) { return c.id == id; });
}

std::vector<store::CellRow> cell_rows(const std::vector<Cell>& cells) {
  std::vector<store::CellRow> rows;
  rows.reserve(cells.size());
  for (const auto& c : cells)
    rows.push_back({.id = c.id,
                    .kernel = c.kernel.name,
                    .patchset = c.kernel.patchset,
                    .page_size = c.page_size,
                    .fs = std::string(to_string(c.filesystem.fs)),
                    .mkfs_label = c.filesystem.label,
                    .mkfs_options = c.filesystem.mkfs_options,
                    .mount_options = c.filesystem.mount_options,
                    .vcpus = c.vcpus,
                    .workload = c.workload.name,
                    .workload_kind = c.workload.kind,
                    .scripts_per_loop = c.workload.scripts_per_loop,
                    .copies = c.copies,
                    .passes = c.workload.passes,
                    .duration_s = c.workload.duration_s,
                    .warmup_passes = c.workload.warmup_passes});
  return rows;
}

}  // namespace rlab::matrix
