#include "counters/counters.hpp"

#include <charconv>
#include <stdexcept>
#include <vector>

namespace rlab::agent {
namespace {

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <class F>
void for_each_line(std::string_view text, F f) {
  std::size_t n = 1;
  while (!text.empty()) {
    auto nl = text.find('\n');
    f(text.substr(0, nl), n++);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

std::uint64_t number(std::string_view w, const char* file, std::size_t line) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || p != w.data() + w.size())
    throw std::runtime_error(std::string(file) + " line " + std::to_string(line) + ": expected a number, got \"" +
                             std::string(w) + "\"");
  return v;
}

std::uint64_t minus(std::uint64_t later, std::uint64_t earlier) { return later >= earlier ? later - earlier : later; }

/// later - earlier per name (index-wise when both tables list the same names), calling
/// f(name, later, earlier_or_nullptr).
template <class F>
void pair_up(const CounterTable& a, const CounterTable& b, F f) {
  if (a.names == b.names) {
    for (std::size_t i = 0; i < b.names.size(); ++i) f(b.names[i], b.values[i], &a.values[i]);
    return;
  }
  const CounterMap am = a.to_map();
  for (std::size_t i = 0; i < b.names.size(); ++i) {
    auto it = am.find(b.names[i]);
    f(b.names[i], b.values[i], it == am.end() ? nullptr : &it->second);
  }
}

}  // namespace

CounterTable::CounterTable(std::initializer_list<std::pair<std::string, std::uint64_t>> init) {
  for (const auto& [k, v] : init) {
    names.push_back(k);
    values.push_back(v);
  }
}

CounterMap CounterTable::to_map() const {
  CounterMap m;
  for (std::size_t i = 0; i < names.size(); ++i) m[names[i]] = values[i];
  return m;
}

std::string& CounterTable::name_at(std::size_t k) {
  if (names.size() <= k) names.resize(k + 1), values.resize(k + 1);
  return names[k];
}

void CounterTable::keep(std::size_t k) {
  names.resize(k);
  values.resize(k);
}

ProcStat parse_proc_stat(std::string_view text) {
  static const char* kCpuFields[] = {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"};
  ProcStat s;
  bool have_cpu = false, have_ctxt = false;
  for_each_line(text, [&](std::string_view line, std::size_t n) {
    auto w = words(line);
    if (w.empty()) return;
    if (w[0] == "cpu") {
      if (w.size() < 5) throw std::runtime_error("/proc/stat line " + std::to_string(n) + ": short cpu line");
      for (std::size_t i = 0; i < 8 && i + 1 < w.size(); ++i) s.cpu[kCpuFields[i]] = number(w[i + 1], "/proc/stat", n);
      have_cpu = true;
    } else if (w[0] == "ctxt" && w.size() >= 2) {
      s.ctxt = number(w[1], "/proc/stat", n);
      have_ctxt = true;
    } else if (w[0] == "processes" && w.size() >= 2) {
      s.forks = number(w[1], "/proc/stat", n);
    }
  });
  if (!have_cpu) throw std::runtime_error("/proc/stat: no aggregate \"cpu\" line");
  if (!have_ctxt) throw std::runtime_error("/proc/stat: no \"ctxt\" line");
  return s;
}

void parse_vmstat_into(std::string_view text, CounterTable& t) {
  std::size_t i = 0;
  for_each_line(text, [&](std::string_view line, std::size_t n) {
    auto w = words(line);
    if (w.empty()) return;
    if (w.size() != 2) throw std::runtime_error("/proc/vmstat line " + std::to_string(n) + ": expected \"name value\"");
    t.name_at(i).assign(w[0]);
    t.values[i++] = number(w[1], "/proc/vmstat", n);
  });
  t.keep(i);
}

namespace {
/// A table parser's result as a map.
template <void (*Into)(std::string_view, CounterTable&)>
CounterMap as_map(std::string_view text) {
  CounterTable t;
  Into(text, t);
  return t.to_map();
}
}  // namespace

CounterMap parse_vmstat(std::string_view text) { return as_map<parse_vmstat_into>(text); }

CounterMap parse_pressure(std::string_view text, std::string_view resource) {
  CounterMap m;
  const std::string file = "/proc/pressure/" + std::string(resource);
  for_each_line(text, [&](std::string_view line, std::size_t n) {
    auto w = words(line);
    if (w.empty()) return;
    if (w[0] != "some" && w[0] != "full")
      throw std::runtime_error(file + " line " + std::to_string(n) + ": expected \"some\" or \"full\"");
    bool found = false;
    for (auto f : w) {
      if (f.substr(0, 6) == "total=") {
        m[std::string(resource) + "." + std::string(w[0])] = number(f.substr(6), file.c_str(), n);
        found = true;
      }
    }
    if (!found) throw std::runtime_error(file + " line " + std::to_string(n) + ": no total=");
  });
  return m;
}

void parse_xfs_stats_into(std::string_view text, CounterTable& t) {
  std::size_t k = 0;
  for_each_line(text, [&](std::string_view line, std::size_t n) {
    auto w = words(line);
    if (w.size() < 2) return;  // e.g. an empty trailing line
    for (std::size_t i = 1; i < w.size(); ++i) {
      char idx[24];
      auto [end, ec] = std::to_chars(idx, idx + sizeof idx, i - 1);
      (void)ec;
      std::string& name = t.name_at(k);
      name.assign(w[0]);
      name += '.';
      name.append(idx, end);
      t.values[k++] = number(w[i], "xfs stats", n);
    }
  });
  if (k == 0) throw std::runtime_error("xfs stats: no counters");
  t.keep(k);
}

CounterMap parse_xfs_stats(std::string_view text) { return as_map<parse_xfs_stats_into>(text); }

std::optional<std::uint64_t> parse_hist_hits(std::string_view text) {
  const auto totals = text.find("Totals:");
  if (totals == std::string_view::npos) return std::nullopt;
  std::optional<std::uint64_t> hits;
  for_each_line(text.substr(totals), [&](std::string_view line, std::size_t n) {
    auto w = words(line);
    if (w.size() == 2 && w[0] == "Hits:") hits = number(w[1], "hist", n);
  });
  return hits;
}

protocol::Counters delta(const Snapshot& a, const Snapshot& b) {
  protocol::Counters c;
  for (const auto& [k, v] : b.tracepoints) {
    auto it = a.tracepoints.find(k);
    c.tracepoints[k] = it == a.tracepoints.end() ? v : minus(v, it->second);
  }
  pair_up(a.xfs_stats, b.xfs_stats, [&](const std::string& k, std::uint64_t v, const std::uint64_t* old) {
    const std::uint64_t d = old ? minus(v, *old) : v;
    if (d) c.xfs_stats[k] = d;
  });
  for (const auto& [k, v] : b.stat.cpu) {
    auto it = a.stat.cpu.find(k);
    c.cpu[k] = it == a.stat.cpu.end() ? v : minus(v, it->second);
  }
  c.ctxt = minus(b.stat.ctxt, a.stat.ctxt);
  c.forks = minus(b.stat.forks, a.stat.forks);
  for (const auto& [k, v] : b.pressure) {
    auto it = a.pressure.find(k);
    c.pressure[k] = it == a.pressure.end() ? v : minus(v, it->second);
  }
  pair_up(a.vmstat, b.vmstat, [&](const std::string& k, std::uint64_t v, const std::uint64_t* old) {
    const auto d = static_cast<std::int64_t>(v - (old ? *old : 0));
    if (d) c.vmstat[k] = d;
  });
  return c;
}

}  // namespace rlab::agent
