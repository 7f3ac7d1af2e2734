#include "attribution/ag_table.hpp"

#include "attribution/profile.hpp"
#include "stats/descriptive.hpp"


#include <algorithm>
#include <cmath>
#include <tuple>

namespace rlab::attribution {
namespace {

constexpr std::string_view kPrefix = "agheader.";
/// The wait_share key of the waits without a stack (BootAgHeaders::short_wait_ns).
const std::string kShortWaits = "short waits";

int header_rank(const std::string& h) { return h == "AGI" ? 0 : h == "AGF" ? 1 : h == "AGFL" ? 2 : 3; }

/// The AG's number; "64+" sorts after every numbered AG.
long ag_number(const std::string& ag) {
  try {
    return std::stol(ag) + (ag.find('+') != std::string::npos ? 1 : 0);
  } catch (const std::exception&) {
    return 1L << 30;
  }
}

bool known_header(std::string_view h) { return h == "AGI" || h == "AGF" || h == "AGFL"; }

/// {header, AG} and field of a total "agheader.<H>.<ag>.<field>"; nullopt for any other name.
std::optional<std::pair<AgHeader, std::string>> parse_total(std::string_view name) {
  if (name.rfind(kPrefix, 0) != 0) return std::nullopt;
  name.remove_prefix(kPrefix.size());
  const auto d1 = name.find('.');
  if (d1 == std::string_view::npos) return std::nullopt;
  const auto d2 = name.find('.', d1 + 1);
  if (d2 == std::string_view::npos || !known_header(name.substr(0, d1))) return std::nullopt;
  return std::make_pair(AgHeader{std::string(name.substr(0, d1)), std::string(name.substr(d1 + 1, d2 - d1 - 1))},
                        std::string(name.substr(d2 + 1)));
}

/// The header of a stack's first frame "[AGI of AG 3]"; nullopt for any other frame.
std::optional<AgHeader> parse_header_frame(std::string_view f) {
  constexpr std::string_view kOf = " of AG ";
  if (f.size() < 3 || f.front() != '[' || f.back() != ']') return std::nullopt;
  f = f.substr(1, f.size() - 2);
  const auto at = f.find(kOf);
  if (at == std::string_view::npos || !known_header(f.substr(0, at))) return std::nullopt;
  return AgHeader{std::string(f.substr(0, at)), std::string(f.substr(at + kOf.size()))};
}

void add_total(AgHeaderCounts& c, const std::string& field, double v) {
  if (field == "waits") c.waits += v;
  else if (field == "contended") c.contended += v;
  else if (field == "wait_ns") c.wait_ns += v;
  else if (field == "holds") c.holds += v;
  else if (field == "held_ns") c.held_ns += v;
  else if (field == "max_held_ns") c.max_held_ns = std::max(c.max_held_ns, v);
}

/// Adds one pass's AG header totals and stacks to `b`; false when the pass has none.
bool add_pass(BootAgHeaders& b, const protocol::Attribution& a) {
  const auto agcount = a.totals.find("agheader.agcount");
  if (agcount == a.totals.end()) return false;
  b.collected = true;
  b.agcount = static_cast<unsigned>(agcount->second);
  if (const auto d = a.totals.find("agheader.dropped"); d != a.totals.end()) b.dropped += static_cast<double>(d->second);
  for (const auto& [name, v] : a.totals)
    if (const auto t = parse_total(name)) add_total(b.counts[t->first], t->second, static_cast<double>(v));
  for (const auto& r : a.stacks) {
    const bool wait = r.family == "agheader.wait", hold = r.family == "agheader.hold";
    if (!wait && !hold) continue;
    b.stacks = true;
    if (r.frames.empty()) continue;  // the stacks the guest did not keep: unclassified
    const auto at = parse_header_frame(r.frames.front());
    if (!at) continue;
    const TaskKind kind = classify_stack(r.frames);
    // Waits and holds the guest walked no stack for (shorter than its threshold, or released
    // by another task) say who only when their task does (xfsaild): else they stay out of the
    // kinds, which then describe the long ones.
    if (kind == TaskKind::other && std::find(r.frames.begin(), r.frames.end(), "[no stack]") != r.frames.end()) {
      if (wait) b.short_wait_ns[*at] += static_cast<double>(r.total_ns);
      continue;
    }
    if (wait) {
      b.wait_ns_by_kind[*at][kind] += static_cast<double>(r.total_ns);
    } else {
      const std::string& last = r.frames.back();
      const std::string task = r.frames.size() > 1 && last.size() > 2 && last.front() == '[' ? last : "";
      b.held_ns_by_holder[*at][kind][task] += static_cast<double>(r.total_ns);
    }
  }
  return true;
}

/// The boots that count: with agheader totals and loops.
std::vector<const BootAgHeaders*> counted(const std::vector<BootAgHeaders>& boots) {
  std::vector<const BootAgHeaders*> out;
  for (const auto& b : boots)
    if (b.collected && b.loops > 0) out.push_back(&b);
  return out;
}

double per_kloop_ms(double ns, std::uint64_t loops) { return 1000.0 * ns / static_cast<double>(loops) / 1e6; }

/// "the inodegc worker [kworker/1:2]": the kind with most held time, its task with most held time.
std::string held_most_by(const std::vector<const BootAgHeaders*>& boots, const AgHeader& at) {
  std::map<TaskKind, std::map<std::string, double>> by;
  for (const auto* b : boots)
    if (const auto it = b->held_ns_by_holder.find(at); it != b->held_ns_by_holder.end())
      for (const auto& [kind, tasks] : it->second)
        for (const auto& [task, ns] : tasks) by[kind][task] += ns;
  const std::map<std::string, double>* best_tasks = nullptr;
  TaskKind best = TaskKind::other;
  double best_ns = 0;
  for (const auto& [kind, tasks] : by) {
    double ns = 0;
    for (const auto& [t, v] : tasks) ns += v;
    if (ns > best_ns) best_ns = ns, best = kind, best_tasks = &tasks;
  }
  if (!best_tasks) return "";
  const auto task = std::max_element(best_tasks->begin(), best_tasks->end(),
                                     [](const auto& x, const auto& y) { return x.second < y.second; });
  return std::string(task_kind_name(best)) + (task->first.empty() ? "" : " " + task->first);
}

/// The row of `at` over `boots`.
AgHeaderRow row_of(const std::vector<const BootAgHeaders*>& boots, const AgHeader& at) {
  AgHeaderRow r;
  r.at = at;
  std::vector<double> waited, held;
  AgHeaderCounts sum;
  std::map<TaskKind, double> kinds;
  double short_ns = 0;
  bool stacks = false;
  for (const auto* b : boots) {
    AgHeaderCounts c;
    if (const auto it = b->counts.find(at); it != b->counts.end()) c = it->second;
    waited.push_back(per_kloop_ms(c.wait_ns, b->loops));
    held.push_back(per_kloop_ms(c.held_ns, b->loops));
    sum.waits += c.waits;
    sum.contended += c.contended;
    sum.wait_ns += c.wait_ns;
    sum.max_held_ns = std::max(sum.max_held_ns, c.max_held_ns);
    stacks |= b->stacks;
    if (const auto it = b->wait_ns_by_kind.find(at); it != b->wait_ns_by_kind.end())
      for (const auto& [k, ns] : it->second) kinds[k] += ns;
    if (const auto it = b->short_wait_ns.find(at); it != b->short_wait_ns.end()) short_ns += it->second;
  }
  r.waited_ms_per_kloop = stats::median(waited);
  r.held_ms_per_kloop = stats::median(held);
  if (sum.waits > 0) r.contended_share = sum.contended / sum.waits;
  if (stacks && sum.wait_ns > 0) {
    double classified = 0;
    for (const auto& [k, ns] : kinds) {
      r.wait_share[std::string(task_kind_name(k))] = ns / sum.wait_ns;
      classified += ns;
    }
    if (short_ns > 0) r.wait_share[kShortWaits] = short_ns / sum.wait_ns, classified += short_ns;
    if (classified < sum.wait_ns) r.wait_share["unclassified"] = (sum.wait_ns - classified) / sum.wait_ns;
  }
  r.longest_hold_ms = sum.max_held_ns / 1e6;
  r.held_most_by = held_most_by(boots, at);
  return r;
}

std::vector<AgHeader> headers_of(const std::vector<const BootAgHeaders*>& boots) {
  std::map<AgHeader, bool> seen;
  for (const auto* b : boots)
    for (const auto& [at, c] : b->counts)
      if (c.waits > 0 || c.holds > 0 || c.wait_ns > 0 || c.held_ns > 0) seen[at] = true;
  std::vector<AgHeader> out;
  for (const auto& [at, x] : seen) out.push_back(at);
  return out;
}

std::optional<double> change_of(double base, double next) {
  if (base <= 0) return std::nullopt;
  return (next - base) / base;
}

}  // namespace

std::string AgHeader::name() const { return header + " of AG " + ag; }

bool AgHeader::operator<(const AgHeader& o) const {
  return std::make_tuple(header_rank(header), header, ag_number(ag), ag) <
         std::make_tuple(header_rank(o.header), o.header, ag_number(o.ag), o.ag);
}

std::string_view task_kind_name(TaskKind k) {
  switch (k) {
    case TaskKind::unlinking: return "unlinking tasks";
    case TaskKind::inodegc: return "the inodegc worker";
    case TaskKind::creating: return "creating tasks";
    case TaskKind::renames: return "renames";
    case TaskKind::writes: return "writes";
    case TaskKind::writeback: return "metadata writeback (xfsaild)";
    case TaskKind::log: return "log";
    case TaskKind::other: return "other";
  }
  return "other";
}

TaskKind classify_stack(const std::vector<std::string>& frames) {
  auto has = [&](auto pred) { return std::any_of(frames.begin(), frames.end(), pred); };
  auto named = [&](std::initializer_list<std::string_view> names) {
    return has([&](const std::string& f) { return std::find(names.begin(), names.end(), f) != names.end(); });
  };
  auto prefixed = [&](std::initializer_list<std::string_view> prefixes) {
    return has([&](const std::string& f) {
      return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return f.rfind(p, 0) == 0; });
    });
  };
  if (named({"xfs_inodegc_worker"})) return TaskKind::inodegc;
  if (named({"do_unlinkat", "xfs_remove"})) return TaskKind::unlinking;
  if (named({"xfs_rename"})) return TaskKind::renames;
  if (named({"xfs_create", "xfs_create_tmpfile"})) return TaskKind::creating;
  if (named({"xfs_file_write_iter", "xfs_bmapi_write"}) || prefixed({"xfs_alloc_vextent"})) return TaskKind::writes;
  // A hold xfsaild took and I/O completion released has no stack, only its task: "[xfsaild/vdb]".
  if (prefixed({"xfsaild", "[xfsaild/"}) || named({"xfs_buf_delwri_submit_nowait", "xfs_buf_item_push"}))
    return TaskKind::writeback;
  if (prefixed({"xlog_", "xfs_log_"})) return TaskKind::log;
  return TaskKind::other;
}

BootAgHeaders ag_headers_of(const std::vector<store::CountedPass>& passes) {
  BootAgHeaders b;
  for (const auto& pass : passes) {
    if (!pass.attribution_json) continue;
    protocol::Attribution a;
    try {
      a = read_stored_attribution(*pass.attribution_json);
    } catch (const std::exception&) {
      continue;  // a store written by another rlab: the pass adds nothing
    }
    if (add_pass(b, a)) b.loops += pass.loops;
  }
  return b;
}

bool any_ag_headers(const std::vector<BootAgHeaders>& boots) {
  return std::any_of(boots.begin(), boots.end(), [](const BootAgHeaders& b) { return b.collected; });
}

AgTable ag_table(const std::vector<BootAgHeaders>& all, std::size_t top) {
  const auto boots = counted(all);
  AgTable t;
  t.boots = boots.size();
  for (const auto* b : boots) {
    if (b->agcount) t.agcount = b->agcount;
    t.dropped += b->dropped;
  }
  if (boots.empty()) return t;
  for (const auto& at : headers_of(boots)) t.rows.push_back(row_of(boots, at));
  std::stable_sort(t.rows.begin(), t.rows.end(), [](const AgHeaderRow& x, const AgHeaderRow& y) {
    return std::tie(x.waited_ms_per_kloop, x.held_ms_per_kloop) > std::tie(y.waited_ms_per_kloop, y.held_ms_per_kloop);
  });
  if (top > 0 && t.rows.size() > top) {
    t.left_out = t.rows.size() - top;
    for (std::size_t i = top; i < t.rows.size(); ++i) t.left_out_waited_ms_per_kloop += t.rows[i].waited_ms_per_kloop;
    t.rows.resize(top);
  }
  return t;
}

std::optional<AgComparison> ag_compare(const std::vector<BootAgHeaders>& base, const std::vector<BootAgHeaders>& next,
                                       std::size_t top) {
  if (!any_ag_headers(base) && !any_ag_headers(next)) return std::nullopt;
  const AgTable a = ag_table(base, 0), b = ag_table(next, 0);
  AgComparison c;
  c.base_boots = a.boots;
  c.new_boots = b.boots;
  std::map<AgHeader, AgHeaderChange> joined;
  for (const auto& r : a.rows) {
    auto& x = joined[r.at];
    x.at = r.at;
    x.base_waited_ms_per_kloop = r.waited_ms_per_kloop;
    x.base_held_ms_per_kloop = r.held_ms_per_kloop;
  }
  for (const auto& r : b.rows) {
    auto& x = joined[r.at];
    x.at = r.at;
    x.new_waited_ms_per_kloop = r.waited_ms_per_kloop;
    x.new_held_ms_per_kloop = r.held_ms_per_kloop;
    x.next = r;
  }
  for (auto& [at, x] : joined) {
    x.waited_change = change_of(x.base_waited_ms_per_kloop, x.new_waited_ms_per_kloop);
    x.held_change = change_of(x.base_held_ms_per_kloop, x.new_held_ms_per_kloop);
    c.rows.push_back(std::move(x));
  }
  auto moved = [](const AgHeaderChange& x) {
    return std::make_tuple(std::fabs(x.new_waited_ms_per_kloop - x.base_waited_ms_per_kloop),
                           std::fabs(x.new_held_ms_per_kloop - x.base_held_ms_per_kloop));
  };
  std::stable_sort(c.rows.begin(), c.rows.end(), [&](const auto& x, const auto& y) { return moved(x) > moved(y); });
  if (top > 0 && c.rows.size() > top) {
    c.left_out = c.rows.size() - top;
    c.rows.resize(top);
  }
  return c;
}

}  // namespace rlab::attribution
