#include "attribution/profile.hpp"

#include "rlab/protocol/json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <utility>

namespace rlab::attribution {
namespace {

constexpr double kNsPerJiffy = 1e9 / 100;  // USER_HZ

constexpr std::array<std::pair<Family, std::string_view>, 10> kNames = {{
    {Family::tracepoint, "tracepoint"}, {Family::xfs_stats, "xfs_stats"}, {Family::vmstat, "vmstat"},
    {Family::psi, "psi"},               {Family::cpu, "cpu"},             {Family::stat, "stat"},
    {Family::lock, "lock"},             {Family::offcpu, "offcpu"},       {Family::oncpu, "oncpu"},
    {Family::agheader, "agheader"},
}};

constexpr std::string_view kAgPrefix = "agheader.";

/// "[AGI of AG 3 waited]" for "agheader.AGI.3.wait_ns", "[AGI of AG 3 held]" for ".held_ns";
/// "" for any other total.
std::string agheader_total_key(std::string_view name) {
  if (name.rfind(kAgPrefix, 0) != 0) return "";
  name.remove_prefix(kAgPrefix.size());
  const auto dot1 = name.find('.');
  const auto dot2 = dot1 == std::string_view::npos ? dot1 : name.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos) return "";
  const auto field = name.substr(dot2 + 1);
  const char* what = field == "wait_ns" ? "waited" : field == "held_ns" ? "held" : nullptr;
  if (!what) return "";
  return "[" + std::string(name.substr(0, dot1)) + " of AG " + std::string(name.substr(dot1 + 1, dot2 - dot1 - 1)) + " " +
         what + "]";
}

std::string join(const std::vector<std::string>& frames) {
  std::string k;
  for (const auto& f : frames) k += (k.empty() ? "" : ";") + f;
  return k;
}

double total(const protocol::Attribution& a, const std::string& name) {
  const auto it = a.totals.find(name);
  return it == a.totals.end() ? 0.0 : static_cast<double>(it->second);
}

/// The families an attribution collected (its totals name them), with their values.
std::map<Family, std::map<std::string, double>> attribution_values(const protocol::Attribution& a) {
  std::map<Family, std::map<std::string, double>> v;
  if (a.totals.count("lock.waits")) {
    auto& m = v[Family::lock];
    m["[all]"] = total(a, "lock.wait_ns");
    m["[AGI buffer]"] = total(a, "xfs_agi.wait_ns");
    m["[AGF buffer]"] = total(a, "xfs_agf.wait_ns");
    m["[XFS buffer locks]"] = total(a, "xfs_buf.wait_ns");
  }
  if (a.totals.count("offcpu.D.waits")) {
    auto& m = v[Family::offcpu];
    m["[D all]"] = total(a, "offcpu.D.wait_ns");
    m["[S all]"] = total(a, "offcpu.S.wait_ns");
  }
  if (a.totals.count("oncpu.samples")) v[Family::oncpu]["[all]"] = total(a, "oncpu.sampled_ns");
  if (a.totals.count("agheader.agcount")) {
    auto& m = v[Family::agheader];
    for (const auto& [name, n] : a.totals)
      if (const auto key = agheader_total_key(name); !key.empty()) m[key] += static_cast<double>(n);
  }
  for (const auto& r : a.stacks) {
    if (r.family == "lock" && v.count(Family::lock)) {
      v[Family::lock][r.frames.empty() ? "[other stacks]" : join(r.frames)] += static_cast<double>(r.total_ns);
    } else if ((r.family == "offcpu.D" || r.family == "offcpu.S") && v.count(Family::offcpu)) {
      const std::string state = r.family.substr(7);
      v[Family::offcpu][r.frames.empty() ? "[" + state + " other stacks]" : state + ";" + join(r.frames)] +=
          static_cast<double>(r.total_ns);
    } else if (r.family == "oncpu" && v.count(Family::oncpu)) {
      v[Family::oncpu][r.frames.empty() ? "[other stacks]" : join(r.frames)] += static_cast<double>(r.total_ns);
    } else if ((r.family == "agheader.wait" || r.family == "agheader.hold") && v.count(Family::agheader)) {
      const std::string kind = r.family.substr(9);
      v[Family::agheader][r.frames.empty() ? "[" + kind + " other stacks]" : kind + ";" + join(r.frames)] +=
          static_cast<double>(r.total_ns);
    }
  }
  return v;
}

}  // namespace

std::string_view family_name(Family f) {
  for (const auto& [fam, name] : kNames)
    if (fam == f) return name;
  return "?";
}

std::optional<Family> parse_family(std::string_view name) {
  for (const auto& [fam, n] : kNames)
    if (n == name) return fam;
  return std::nullopt;
}

bool is_time(Family f) {
  return f == Family::psi || f == Family::cpu || f == Family::lock || f == Family::offcpu || f == Family::oncpu ||
         f == Family::agheader;
}

std::string_view row_kind_name(RowKind k) {
  switch (k) {
    case RowKind::stack: return "stack";
    case RowKind::part: return "part";
    case RowKind::counter: return "counter";
    case RowKind::total: return "total";
    case RowKind::pressure: return "pressure";
  }
  return "?";
}

bool is_context(RowKind k) { return k == RowKind::total || k == RowKind::pressure; }

RowKind row_kind(Family f, std::string_view key) {
  switch (f) {
    case Family::psi: return RowKind::pressure;
    case Family::cpu: return RowKind::total;
    case Family::tracepoint:
    case Family::xfs_stats:
    case Family::vmstat:
    case Family::stat: return RowKind::counter;
    case Family::lock:
    case Family::offcpu:
    case Family::oncpu:
    case Family::agheader: break;
  }
  if (f == Family::offcpu && key.size() > 2 && (key[0] == 'D' || key[0] == 'S') && key[1] == ';')
    key.remove_prefix(2);
  else if (f == Family::agheader && (key.rfind("wait;", 0) == 0 || key.rfind("hold;", 0) == 0))
    key.remove_prefix(5);
  const std::string_view first = key.substr(0, key.find(';'));
  for (std::size_t pos = 0; pos <= key.size();) {
    const std::size_t end = std::min(key.find(';', pos), key.size());
    if (end > pos && key[pos] != '[') return RowKind::stack;  // a kernel frame
    pos = end + 1;
  }
  auto ends_with = [](std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
  };
  if (first == "[all]" || first == "[D all]" || first == "[S all]" || first == "[no stack]" ||
      ends_with(first, "other stacks]"))
    return RowKind::total;
  return RowKind::part;
}

void add_pass(BootProfile& p, std::uint64_t loops, const protocol::Counters& c,
              const std::optional<protocol::Attribution>& a) {
  std::map<Family, std::map<std::string, double>> v;
  for (const auto& [k, n] : c.tracepoints) v[Family::tracepoint][k] = static_cast<double>(n);
  for (const auto& [k, n] : c.xfs_stats) v[Family::xfs_stats][k] = static_cast<double>(n);
  for (const auto& [k, n] : c.vmstat)
    if (k.rfind("nr_", 0) != 0) v[Family::vmstat][k] = static_cast<double>(n);
  for (const auto& [k, n] : c.pressure) v[Family::psi][k] = 1000.0 * static_cast<double>(n);
  for (const char* state : {"user", "nice", "system", "iowait", "irq", "softirq", "steal"})
    if (const auto it = c.cpu.find(state); it != c.cpu.end())
      v[Family::cpu][state] = kNsPerJiffy * static_cast<double>(it->second);
  v[Family::stat]["ctxt"] = static_cast<double>(c.ctxt);
  v[Family::stat]["processes"] = static_cast<double>(c.forks);
  for (const Family f : {Family::tracepoint, Family::xfs_stats, Family::vmstat, Family::psi, Family::cpu})
    v[f];  // collected with every pass, even when nothing moved (zero deltas are omitted)
  if (a)
    for (auto& [f, m] : attribution_values(*a)) v[f] = std::move(m);

  std::set<Family> here;
  for (const auto& [f, m] : v) here.insert(f);
  if (!p.any_pass) {
    p.collected = here;
  } else {
    std::set<Family> both;
    for (const Family f : p.collected)
      if (here.count(f)) both.insert(f);
    p.collected = std::move(both);
  }
  p.any_pass = true;
  p.loops += loops;
  for (auto& [f, m] : v)
    for (auto& [k, x] : m) p.values[f][k] += x;
}

protocol::Attribution read_stored_attribution(const std::string& text) {
  return nlohmann::json::parse(text).get<protocol::Attribution>();
}

BootProfile profile_of(const std::vector<store::CountedPass>& passes) {
  BootProfile p;
  for (const auto& pass : passes) {
    protocol::Counters c;
    std::optional<protocol::Attribution> a;
    try {
      c = nlohmann::json::parse(pass.counters_json).get<protocol::Counters>();
      if (pass.attribution_json) a = read_stored_attribution(*pass.attribution_json);
    } catch (const std::exception&) {
      c = {};
      a.reset();
    }
    add_pass(p, pass.loops, c, a);
  }
  return p;
}

std::string short_stack(std::string_view key, std::size_t frames) {
  std::string out;
  if (key.size() > 2 && (key[0] == 'D' || key[0] == 'S') && key[1] == ';') {  // offcpu state
    out = std::string(1, key[0]) + ": ";
    key.remove_prefix(2);
  } else if (key.rfind("wait;", 0) == 0 || key.rfind("hold;", 0) == 0) {  // agheader wait or hold
    out = std::string(key.substr(0, 4)) + ": ";
    key.remove_prefix(5);
  }
  const std::size_t head = out.size();
  std::size_t n = 0, pos = 0;
  while (pos <= key.size()) {
    const std::size_t end = std::min(key.find(';', pos), key.size());
    if (n == frames) return out + " < …";
    out += (out.size() > head ? " < " : "") + std::string(key.substr(pos, end - pos));
    ++n;
    pos = end + 1;
  }
  return out;
}

}  // namespace rlab::attribution
