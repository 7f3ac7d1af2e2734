// Label sets and bounded label values (see labels.hpp).
#include "metrics/labels.hpp"

#include <unistd.h>

#include <array>
#include <charconv>
#include <tuple>

namespace rlab::metrics {

prometheus::Labels CellLabels::to_labels() const {
  return {{"kernel", kernel},
          {"patchset", patchset.empty() ? "none" : patchset},
          {"page_size", std::to_string(page_size)},
          {"fs", fs},
          {"mkfs", mkfs},
          {"vcpus", std::to_string(vcpus)},
          {"copies", std::to_string(copies)},
          {"workload", workload},
          {"host", host}};
}

bool CellLabels::operator<(const CellLabels& o) const {
  return std::tie(kernel, patchset, page_size, fs, mkfs, vcpus, copies, workload, host) <
         std::tie(o.kernel, o.patchset, o.page_size, o.fs, o.mkfs, o.vcpus, o.copies, o.workload,
                  o.host);
}

std::string host_label(std::string_view uri, std::string_view local) {
  auto scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos) return std::string(local);
  auto rest = uri.substr(scheme_end + 3);
  auto authority = rest.substr(0, rest.find_first_of("/?"));
  if (auto at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  if (!authority.empty() && authority.front() == '[') {  // [v6]:port
    auto close = authority.find(']');
    authority = authority.substr(1, close == std::string_view::npos ? authority.npos : close - 1);
  } else if (auto colon = authority.find(':'); colon != std::string_view::npos) {
    authority = authority.substr(0, colon);
  }
  if (authority.empty()) return std::string(local);
  return std::string(authority);
}

CellLabels cell_labels(const matrix::Cell& c, std::string_view uri) {
  return {c.kernel.name, c.kernel.patchset, c.page_size, std::string(matrix::to_string(c.filesystem.fs)), c.filesystem.label,
          c.vcpus, c.copies, c.workload.name, host_label(uri, local_hostname())};
}

std::string local_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "localhost";
  return buf;
}

namespace {
struct StatGroup {
  std::string_view group;
  std::array<std::string_view, 8> names;  // "" past the end of the group
};
// Field order of the XFS stats file (fs/xfs/xfs_stats.h), for the groups that show inode
// life cycle and inactivation work: directory ops, transactions, inode cache, log, inode
// cluster flushes, vnode life cycle.
constexpr std::array<StatGroup, 6> kGroups{{
    {"dir", {"lookup", "create", "remove", "getdents"}},
    {"trans", {"sync", "async", "empty"}},
    {"ig", {"attempts", "found", "frecycle", "missed", "dup", "reclaims", "attrchg"}},
    {"log", {"writes", "blocks", "noiclogs", "force", "force_sleep"}},
    {"icluster", {"iflush_count", "flushcnt", "flushinode"}},
    {"vnodes", {"active", "alloc", "get", "hold", "rele", "reclaim", "remove", "free"}},
}};
}  // namespace

std::string xfs_stat_name(std::string_view key) {
  auto dot = key.find('.');
  if (dot == std::string_view::npos) return "";
  auto group = key.substr(0, dot);
  auto idx_text = key.substr(dot + 1);
  unsigned idx = 0;
  auto [end, ec] = std::from_chars(idx_text.data(), idx_text.data() + idx_text.size(), idx);
  if (ec != std::errc{} || end != idx_text.data() + idx_text.size()) return "";
  for (const auto& g : kGroups) {
    if (g.group != group) continue;
    if (idx >= g.names.size() || g.names[idx].empty()) return "";
    return std::string(group) + "_" + std::string(g.names[idx]);
  }
  return "";
}

std::string inodegc_event(std::string_view tp) {
  constexpr std::string_view prefix = "xfs:xfs_inodegc_";
  if (tp.substr(0, prefix.size()) != prefix || tp.size() == prefix.size()) return "";
  auto ev = tp.substr(prefix.size());
  for (char c : ev)
    if (!((c >= 'a' && c <= 'z') || c == '_')) return "";
  return std::string(ev);
}

}  // namespace rlab::metrics
