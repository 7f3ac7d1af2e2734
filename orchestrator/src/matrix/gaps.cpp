// `gaps:`: pairs of cells whose score ratio the nightly follows (docs/matrix.md "Gaps").
#include "matrix/gaps.hpp"

#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>

namespace rlab::matrix::detail {
namespace {

/// A cell id's four parts: kernel, filesystem variant id, "<N>vcpu", workload name.
using Parts = std::array<std::string, 4>;

Parts parts_of(const Cell& c) {
  return {c.kernel.name, c.filesystem.id(), std::to_string(c.vcpus) + "vcpu", c.workload.name};
}

constexpr const char* kHint =
    "; name one cell a side (its id or a unique part), or two values of one axis other than the "
    "kernel (e.g. [xfs-defaults, ext4-defaults]) to pair every cell of the first with the cell "
    "that differs only there";

}  // namespace

std::vector<Gap> parse_gaps(const Checker& ck, const YAML::Node& n, const Matrix& m) {
  ck.check_list(n, "gaps");
  const std::vector<Cell> cells = expand_cells(m);
  std::vector<Parts> parts;
  std::vector<std::string> ids;
  for (const auto& c : cells) {
    parts.push_back(parts_of(c));
    ids.push_back(c.id);
  }
  // The values of each axis as they appear in cell ids (position 0: the kernel).
  std::array<std::vector<std::string>, 4> axis;
  for (const auto& p : parts)
    for (std::size_t i = 0; i < p.size(); ++i)
      if (std::find(axis[i].begin(), axis[i].end(), p[i]) == axis[i].end()) axis[i].push_back(p[i]);
  const auto on_axis = [&](std::size_t i, const std::string& v) {
    return std::find(axis[i].begin(), axis[i].end(), v) != axis[i].end();
  };

  std::vector<Gap> out;
  std::map<std::pair<std::string, std::string>, std::size_t> named;  // pair -> entry
  for (std::size_t e = 0; e < n.size(); ++e) {
    const std::string what = fmt::format("gaps[{}]", e);
    const YAML::Node& entry = n[e];
    if (!entry.IsSequence() || entry.size() != 2 || !entry[0].IsScalar() || !entry[1].IsScalar())
      ck.fail(entry, what + ": expected a pair [cell, against cell], e.g. [xfs-defaults, ext4-defaults]");
    const std::string a = ck.string(entry[0], what + "[0]"), b = ck.string(entry[1], what + "[1]");
    if (a == b) ck.fail(entry[1], fmt::format("{}: both sides are '{}'; a gap is between two different cells", what, a));
    if (on_axis(0, a) && on_axis(0, b))
      ck.fail(entry, fmt::format("{}: '{}' and '{}' are kernels; a gap compares two cells of one kernel (kernels "
                                 "are compared night by night, and by `rlab compare --kernels`)",
                                 what, a, b));
    std::vector<std::pair<std::string, std::string>> pairs;
    std::size_t axis_of = 0;
    for (std::size_t i = 1; i < axis.size() && !axis_of; ++i)
      if (on_axis(i, a) && on_axis(i, b)) axis_of = i;
    if (axis_of) {
      // Every cell with `a` at that place, with the cell equal but for `b` there (the matrix is
      // a full product of its axes, so it exists).
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (parts[c][axis_of] != a) continue;
        Parts want = parts[c];
        want[axis_of] = b;
        const auto d = std::find(parts.begin(), parts.end(), want);
        if (d != parts.end()) pairs.emplace_back(ids[c], ids[static_cast<std::size_t>(d - parts.begin())]);
      }
    } else {
      std::array<std::string, 2> sel;
      for (std::size_t side = 0; side < 2; ++side) {
        try {
          sel[side] = select_cell_id(ids, side == 0 ? a : b);
        } catch (const UsageError& x) {
          ck.fail(entry[side], fmt::format("{}[{}]: {}{}", what, side, x.what(), kHint));
        }
      }
      if (sel[0] == sel[1])
        ck.fail(entry, fmt::format("{}: both sides select the cell {}; a gap is between two different cells", what, sel[0]));
      const auto kernel = [&](const std::string& id) {
        return parts[static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin())][0];
      };
      if (kernel(sel[0]) != kernel(sel[1]))
        ck.fail(entry, fmt::format("{}: {} and {} run different kernels ({}, {}); a gap compares two cells of one "
                                   "kernel",
                                   what, sel[0], sel[1], kernel(sel[0]), kernel(sel[1])));
      pairs.emplace_back(sel[0], sel[1]);
    }
    for (auto& [first, second] : pairs) {
      if (const auto it = named.find({first, second}); it != named.end())
        ck.fail(entry, fmt::format("{}: the gap {} ÷ {} is already named by gaps[{}]", what, first, second, it->second));
      named.emplace(std::pair{first, second}, e);
      out.push_back({first, second, e});
    }
  }
  return out;
}

}  // namespace rlab::matrix::detail
