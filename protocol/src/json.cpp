// JSON conversion with validation. Every reader takes the place ("run.copies",
// "result.passes[2].lpm") so errors name exactly what was wrong.
#include "rlab/protocol/json.hpp"

#include <cmath>
#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <optional>

namespace rlab::protocol {
namespace {

using nlohmann::json;

const char* kind(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "an unsupported value";
  }
}

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw ProtocolException(ProtocolError{ErrorCode::bad_field, where + ": " + what, {}});
}

[[noreturn]] void wrong(const std::string& where, const char* expected, const json& v) {
  std::string got = kind(v);
  if (v.is_number()) got += " (" + v.dump() + ")";
  bad(where, std::string("expected ") + expected + ", got " + got);
}

void read(const json& v, const std::string& w, std::uint64_t& out) {
  if (v.is_number_unsigned()) out = v.get<std::uint64_t>();
  else wrong(w, "an unsigned integer", v);
}
void read(const json& v, const std::string& w, std::uint32_t& out) {
  std::uint64_t x = 0;
  read(v, w, x);
  if (x > std::numeric_limits<std::uint32_t>::max()) bad(w, "out of range: " + v.dump());
  out = static_cast<std::uint32_t>(x);
}
void read(const json& v, const std::string& w, std::int64_t& out) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    bad(w, "out of range: " + v.dump());
  if (v.is_number_integer()) out = v.get<std::int64_t>();
  else wrong(w, "an integer", v);
}
void read(const json& v, const std::string& w, int& out) {
  std::int64_t x = 0;
  read(v, w, x);
  if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
    bad(w, "out of range: " + v.dump());
  out = static_cast<int>(x);
}
void read(const json& v, const std::string& w, double& out) {
  if (v.is_number()) out = v.get<double>();
  else wrong(w, "a number", v);
}
void read(const json& v, const std::string& w, bool& out) {
  if (v.is_boolean()) out = v.get<bool>();
  else wrong(w, "a boolean", v);
}
void read(const json& v, const std::string& w, std::string& out) {
  if (v.is_string()) out = v.get<std::string>();
  else wrong(w, "a string", v);
}
/// A number for an error message: "%g", so 1e300 stays short.
std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void read(const json& v, const std::string& w, Counters& m);
void read(const json& v, const std::string& w, Histogram& m);
void read(const json& v, const std::string& w, PassReport& m);
void read(const json& v, const std::string& w, StackRow& m);
void read(const json& v, const std::string& w, Attribution& m);

template <class T>
void read(const json& v, const std::string& w, std::vector<T>& out) {
  if (!v.is_array()) wrong(w, "an array", v);
  out.clear();
  out.resize(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) read(v[i], w + "[" + std::to_string(i) + "]", out[i]);
}
template <class T>
void read(const json& v, const std::string& w, std::map<std::string, T>& out) {
  if (!v.is_object()) wrong(w, "an object", v);
  out.clear();
  for (auto it = v.begin(); it != v.end(); ++it) read(it.value(), w + "." + it.key(), out[it.key()]);
}

/// Field access on one object, naming fields "<where>.<key>".
class Fields {
 public:
  Fields(const json& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j_.is_object()) wrong(where_, "an object", j_);
  }
  template <class T>
  void req(const char* key, T& out) const {
    const json* v = find(key);
    if (!v) bad(at(key), "missing");
    read(*v, at(key), out);
  }
  /// Leaves `out` as is (the default) when the key is absent or null.
  template <class T>
  void opt(const char* key, T& out) const {
    if (const json* v = find(key)) read(*v, at(key), out);
  }
  template <class T>
  void opt(const char* key, std::optional<T>& out) const {
    out.reset();
    if (const json* v = find(key)) read(*v, at(key), out.emplace());
  }
  std::string at(const char* key) const { return where_ + "." + key; }

 private:
  const json* find(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  const json& j_;
  std::string where_;
};

/// An enum field sent as its word (to_string): absent or null leaves `out` as is; any other
/// word is a bad_field naming the allowed ones ("expected \"a\", \"b\" or \"c\", got \"d\"").
template <class E>
void read_word(const Fields& f, const char* key, E& out, std::initializer_list<E> all) {
  std::optional<std::string> word;
  f.opt(key, word);
  if (!word) return;
  std::string expected;
  std::size_t i = 0;
  for (E e : all) {
    if (*word == to_string(e)) {
      out = e;
      return;
    }
    expected += std::string(i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + "\"" + to_string(e) + "\"";
    ++i;
  }
  bad(f.at(key), "expected " + expected + ", got \"" + *word + "\"");
}

void read(const json& v, const std::string& w, Counters& m) {
  Fields f(v, w);
  m = Counters{};
  f.opt("tracepoints", m.tracepoints);
  f.opt("xfs_stats", m.xfs_stats);
  f.opt("cpu", m.cpu);
  f.opt("ctxt", m.ctxt);
  f.opt("forks", m.forks);
  f.opt("pressure", m.pressure);
  f.opt("vmstat", m.vmstat);
}

void read(const json& v, const std::string& w, Histogram& m) {
  Fields f(v, w);
  f.req("bounds_s", m.bounds_s);
  f.req("counts", m.counts);
  f.opt("sum_s", m.sum_s);
  f.opt("max_s", m.max_s);
  if (m.counts.size() != m.bounds_s.size() + 1)
    bad(f.at("counts"), "expected " + std::to_string(m.bounds_s.size() + 1) + " entries (bounds + 1), got " +
                            std::to_string(m.counts.size()));
}

const char* const kStackFamilies[] = {"lock", "offcpu.D", "offcpu.S", "oncpu", "agheader.wait", "agheader.hold"};

void read(const json& v, const std::string& w, StackRow& m) {
  Fields f(v, w);
  f.req("family", m.family);
  if (std::find(std::begin(kStackFamilies), std::end(kStackFamilies), m.family) == std::end(kStackFamilies))
    bad(f.at("family"), "expected \"lock\", \"offcpu.D\", \"offcpu.S\", \"oncpu\", \"agheader.wait\" or \"agheader.hold\", got \"" +
                            m.family + "\"");
  f.req("frames", m.frames);
  f.req("count", m.count);
  f.req("total_ns", m.total_ns);
}

void read(const json& v, const std::string& w, PassReport& m) {
  Fields f(v, w);
  f.req("id", m.id);
  f.req("pass", m.pass);
  f.req("loops", m.loops);
  f.req("failures", m.failures);
  f.req("duration_s", m.duration_s);
  f.req("lpm", m.lpm);
  f.opt("window_s", m.window_s);
  if (m.window_s < 0 || m.window_s > m.duration_s + 1e-6)
    bad(f.at("window_s"), "must be in [0, duration_s], got " + shortest(m.window_s));
  f.req("latency", m.latency);
  f.req("counters", m.counters);
  f.opt("caches_dropped", m.caches_dropped);
  m.placement.reset();
  if (const auto it = v.find("placement"); it != v.end() && !it->is_null()) {
    Fields pf(*it, f.at("placement"));
    auto& pl = m.placement.emplace();
    pf.req("agcount", pl.agcount);
    pf.req("ags", pl.ags);
    pf.req("inodes", pl.inodes);
    if (pl.ags > pl.agcount)
      bad(pf.at("ags"), "must be at most agcount (" + std::to_string(pl.agcount) + "), got " + std::to_string(pl.ags));
  }
  f.opt("attribution", m.attribution);
}

void read(const json& v, const std::string& w, Attribution& m) {
  Fields f(v, w);
  m = Attribution{};
  f.opt("totals", m.totals);
  f.opt("stacks", m.stacks);
  f.opt("unavailable", m.unavailable);
}

/// RFC 4648 base64 with padding.
std::string base64_encode(const std::string& bytes) {
  using namespace boost::archive::iterators;
  using It = base64_from_binary<transform_width<std::string::const_iterator, 6, 8>>;
  std::string out(It(bytes.begin()), It(bytes.end()));
  out.append((3 - bytes.size() % 3) % 3, '=');
  return out;
}

/// Inverse of base64_encode; throws naming `where` on characters outside the alphabet or a
/// length that is not a multiple of 4.
std::string base64_decode(const std::string& text, const std::string& where) {
  using namespace boost::archive::iterators;
  using It = transform_width<binary_from_base64<std::string::const_iterator>, 8, 6>;
  if (text.size() % 4 != 0) bad(where, "base64 length must be a multiple of 4, got " + std::to_string(text.size()));
  const std::size_t pad = text.size() - text.find_last_not_of('=') - 1;
  if (text.empty()) return {};
  if (pad > 2) bad(where, "too much base64 padding");
  const auto body_end = text.end() - static_cast<std::ptrdiff_t>(pad);
  if (std::find_if(text.begin(), body_end, [](unsigned char c) {
        return !(std::isalnum(c) || c == '+' || c == '/');
      }) != body_end)
    bad(where, "not base64");
  std::string padded(text.begin(), body_end);
  padded.append(pad, 'A');  // decodes to zero bits, cut below
  std::string out(It(padded.begin()), It(padded.end()));
  out.resize(out.size() - pad);
  return out;
}

void require_positive(const Fields& f, const char* key, double v) {
  if (!(v > 0)) bad(f.at(key), "must be > 0, got " + std::to_string(v));
}

json counters_json(const Counters& m) {
  json j = json::object();
  j["tracepoints"] = m.tracepoints;
  j["xfs_stats"] = m.xfs_stats;
  j["cpu"] = m.cpu;
  j["ctxt"] = m.ctxt;
  j["forks"] = m.forks;
  j["pressure"] = m.pressure;
  j["vmstat"] = m.vmstat;
  return j;
}

}  // namespace

// ------------------------------------------------------------------------------ to_json

void to_json(json& j, const HelloRequest& m) {
  j = {{"type", "hello"}, {"id", m.id}, {"protocol", m.protocol}};
}
void to_json(json& j, const Prepare& m) {
  j = {{"type", "prepare"}, {"id", m.id}, {"fs", m.fs}, {"mkfs_options", m.mkfs_options},
       {"mount_options", m.mount_options}, {"mountpoint", m.mountpoint}};
  if (m.device) j["device"] = *m.device;
  if (m.serial) j["serial"] = *m.serial;
}
void to_json(json& j, const Run& m) {
  j = {{"type", "run"}, {"id", m.id}, {"workload", m.workload}, {"copies", m.copies},
       {"passes", m.passes}, {"duration_s", m.duration_s}, {"scripts_per_loop", m.scripts_per_loop},
       {"workdir", m.workdir}, {"sample_interval_s", m.sample_interval_s}, {"pause_s", m.pause_s},
       {"drop_caches", m.drop_caches}, {"layout", to_string(m.layout)}, {"runner", to_string(m.runner)},
       {"unixbench_dir", m.unixbench_dir}, {"attribution", to_string(m.attribution)},
       {"attribution_top", m.attribution_top}};
  if (m.input) j["input_base64"] = base64_encode(*m.input);
}
void to_json(json& j, const Shutdown& m) {
  j = {{"type", "shutdown"}, {"id", m.id}, {"poweroff", m.poweroff}};
}
void to_json(json& j, const Hello& m) {
  j = {{"type", "hello"}, {"protocol", m.protocol}, {"agent_version", m.agent_version},
       {"kernel_release", m.kernel_release}, {"page_size", m.page_size}, {"nr_cpus", m.nr_cpus},
       {"mem_total_kib", m.mem_total_kib}, {"tracepoints", m.tracepoints},
       {"hist_triggers", m.hist_triggers},
       {"tracepoint_counting", m.tracepoint_counting}, {"xfs_stats", m.xfs_stats}, {"pid1", m.pid1}};
  if (!m.hypervisor.empty()) j["hypervisor"] = m.hypervisor;
  if (m.init_uptime_s) j["init_uptime_s"] = *m.init_uptime_s;
  if (m.agent_uptime_s) j["agent_uptime_s"] = *m.agent_uptime_s;
  if (m.uptime_s) j["uptime_s"] = *m.uptime_s;
  if (m.id) j["id"] = *m.id;
}
void to_json(json& j, const Prepared& m) {
  j = {{"type", "prepared"}, {"id", m.id}, {"device", m.device}, {"fs", m.fs},
       {"mkfs_output", m.mkfs_output}, {"elapsed_s", m.elapsed_s}};
}
void to_json(json& j, const Counters& m) { j = counters_json(m); }
void to_json(json& j, const Histogram& m) {
  j = {{"bounds_s", m.bounds_s}, {"counts", m.counts}, {"sum_s", m.sum_s}, {"max_s", m.max_s}};
}
void to_json(json& j, const Sample& m) {
  j = {{"type", "sample"}, {"id", m.id}, {"pass", m.pass}, {"t_s", m.t_s}, {"loops", m.loops},
       {"failures", m.failures}, {"counters", m.counters}};
}
void to_json(json& j, const PassReport& m) {
  j = {{"type", "pass"}, {"id", m.id}, {"pass", m.pass}, {"loops", m.loops},
       {"failures", m.failures}, {"duration_s", m.duration_s}, {"lpm", m.lpm},
       {"window_s", m.window_s}, {"latency", m.latency}, {"counters", m.counters}, {"caches_dropped", m.caches_dropped}};
  if (m.placement)
    j["placement"] = {{"agcount", m.placement->agcount}, {"ags", m.placement->ags}, {"inodes", m.placement->inodes}};
  if (m.attribution) j["attribution"] = *m.attribution;
}
void to_json(json& j, const Attribution& m) {
  json stacks = json::array();
  for (const auto& r : m.stacks)
    stacks.push_back({{"family", r.family}, {"frames", r.frames}, {"count", r.count}, {"total_ns", r.total_ns}});
  j = {{"totals", m.totals}, {"stacks", std::move(stacks)}, {"unavailable", m.unavailable}};
}
void to_json(json& j, const Result& m) {
  json passes = json::array();
  for (const auto& p : m.passes) {
    json pj = p;
    pj.erase("type");
    passes.push_back(std::move(pj));
  }
  j = {{"type", "result"}, {"id", m.id}, {"workload", m.workload}, {"score", m.score},
       {"passes", std::move(passes)}, {"failures", m.failures},
       {"failure_examples", m.failure_examples}, {"agent_max_rss_kib", m.agent_max_rss_kib},
       {"agent_cpu_s", m.agent_cpu_s}};
}
void to_json(json& j, const Error& m) {
  j = {{"type", "error"}, {"code", to_string(m.code)}, {"message", m.message}};
  if (m.id) j["id"] = *m.id;
}
void to_json(json& j, const Bye& m) { j = {{"type", "bye"}, {"id", m.id}}; }

// ---------------------------------------------------------------------------- from_json

void from_json(const json& j, HelloRequest& m) {
  Fields f(j, "hello");
  f.req("id", m.id);
  f.req("protocol", m.protocol);
}
void from_json(const json& j, Prepare& m) {
  Fields f(j, "prepare");
  f.req("id", m.id);
  f.opt("device", m.device);
  f.opt("serial", m.serial);
  if (m.device.has_value() == m.serial.has_value())
    bad("prepare.device", "exactly one of \"device\" and \"serial\" is required");
  if (m.device && (m.device->empty() || m.device->front() != '/'))
    bad("prepare.device", "expected an absolute path, got \"" + *m.device + "\"");
  if (m.serial && m.serial->empty()) bad("prepare.serial", "must not be empty");
  f.req("fs", m.fs);
  if (m.fs != "xfs" && m.fs != "ext4") bad(f.at("fs"), "expected \"xfs\" or \"ext4\", got \"" + m.fs + "\"");
  m.mkfs_options.clear();
  f.opt("mkfs_options", m.mkfs_options);
  m.mount_options.clear();
  f.opt("mount_options", m.mount_options);
  f.req("mountpoint", m.mountpoint);
  if (m.mountpoint.empty() || m.mountpoint.front() != '/')
    bad(f.at("mountpoint"), "expected an absolute path, got \"" + m.mountpoint + "\"");
}
void from_json(const json& j, Run& m) {
  Fields f(j, "run");
  m = Run{};
  f.req("id", m.id);
  f.req("workload", m.workload);
  if (m.workload != "shell1" && m.workload != "shell8")
    bad(f.at("workload"), "expected \"shell1\" or \"shell8\", got \"" + m.workload + "\"");
  m.scripts_per_loop = m.workload == "shell8" ? 8 : 1;
  f.req("copies", m.copies);
  if (m.copies < 1 || m.copies > kMaxCopies)
    bad(f.at("copies"), "must be 1.." + std::to_string(kMaxCopies) + ", got " + std::to_string(m.copies));
  f.opt("passes", m.passes);
  if (m.passes < 1 || m.passes > 1000) bad(f.at("passes"), "must be 1..1000, got " + std::to_string(m.passes));
  f.req("duration_s", m.duration_s);
  require_positive(f, "duration_s", m.duration_s);
  if (m.duration_s > kMaxSpanS)
    bad(f.at("duration_s"), "must be at most 86400 (one day), got " + shortest(m.duration_s));
  f.opt("scripts_per_loop", m.scripts_per_loop);
  if (m.scripts_per_loop < 1 || m.scripts_per_loop > 64)
    bad(f.at("scripts_per_loop"), "must be 1..64, got " + std::to_string(m.scripts_per_loop));
  f.req("workdir", m.workdir);
  if (m.workdir.empty() || m.workdir.front() != '/')
    bad(f.at("workdir"), "expected an absolute path, got \"" + m.workdir + "\"");
  f.opt("sample_interval_s", m.sample_interval_s);
  if (m.sample_interval_s != 0 && !(m.sample_interval_s >= 0.1 && m.sample_interval_s <= kMaxSpanS))
    bad(f.at("sample_interval_s"), "must be 0 (no sampling) or 0.1..86400, got " + shortest(m.sample_interval_s));
  f.opt("pause_s", m.pause_s);
  if (!(m.pause_s >= 0 && m.pause_s <= kMaxSpanS))
    bad(f.at("pause_s"), "must be 0..86400, got " + shortest(m.pause_s));
  f.opt("drop_caches", m.drop_caches);
  read_word(f, "layout", m.layout, {Layout::shared, Layout::per_copy});
  read_word(f, "runner", m.runner, {Runner::rlab, Runner::unixbench});
  f.opt("unixbench_dir", m.unixbench_dir);
  if (m.unixbench_dir.empty() || m.unixbench_dir.front() != '/')
    bad(f.at("unixbench_dir"), "expected an absolute path, got \"" + m.unixbench_dir + "\"");
  if (m.runner == Runner::unixbench && (m.duration_s < 1 || m.duration_s != static_cast<double>(static_cast<long>(m.duration_s))))
    bad(f.at("duration_s"), "UnixBench's looper takes whole seconds >= 1, got " + shortest(m.duration_s));
  read_word(f, "attribution", m.attribution,
            {AttributionLevel::off, AttributionLevel::counts, AttributionLevel::stacks, AttributionLevel::full});
  f.opt("attribution_top", m.attribution_top);
  if (m.attribution_top < 1 || m.attribution_top > 200)
    bad(f.at("attribution_top"), "must be 1..200, got " + std::to_string(m.attribution_top));
  std::optional<std::string> b64;
  f.opt("input_base64", b64);
  if (b64) {
    if (b64->size() > (kMaxInputBytes + 2) / 3 * 4)
      bad(f.at("input_base64"), "input larger than " + std::to_string(kMaxInputBytes) + " bytes");
    m.input = base64_decode(*b64, f.at("input_base64"));
  }
}
void from_json(const json& j, Shutdown& m) {
  Fields f(j, "shutdown");
  f.req("id", m.id);
  m.poweroff = true;
  f.opt("poweroff", m.poweroff);
}
void from_json(const json& j, Hello& m) {
  Fields f(j, "hello");
  f.opt("id", m.id);
  f.req("protocol", m.protocol);
  f.req("agent_version", m.agent_version);
  f.req("kernel_release", m.kernel_release);
  f.req("page_size", m.page_size);
  f.req("nr_cpus", m.nr_cpus);
  f.opt("mem_total_kib", m.mem_total_kib);
  f.req("tracepoints", m.tracepoints);
  f.opt("hist_triggers", m.hist_triggers);
  f.opt("tracepoint_counting", m.tracepoint_counting);
  f.req("xfs_stats", m.xfs_stats);
  f.opt("pid1", m.pid1);
  f.opt("hypervisor", m.hypervisor);
  for (auto [name, v] : {std::pair{"init_uptime_s", &m.init_uptime_s}, {"agent_uptime_s", &m.agent_uptime_s},
                         {"uptime_s", &m.uptime_s}}) {
    f.opt(name, *v);
    if (*v && !(**v >= 0 && std::isfinite(**v))) bad(f.at(name), "must be seconds >= 0, got " + shortest(**v));
  }
}
void from_json(const json& j, Prepared& m) {
  Fields f(j, "prepared");
  f.req("id", m.id);
  f.req("device", m.device);
  f.opt("fs", m.fs);
  f.req("mkfs_output", m.mkfs_output);
  f.req("elapsed_s", m.elapsed_s);
}
void from_json(const json& j, Counters& m) { read(j, "counters", m); }
void from_json(const json& j, Histogram& m) { read(j, "latency", m); }
void from_json(const json& j, Sample& m) {
  Fields f(j, "sample");
  f.req("id", m.id);
  f.req("pass", m.pass);
  f.req("t_s", m.t_s);
  f.req("loops", m.loops);
  f.req("failures", m.failures);
  f.req("counters", m.counters);
}
void from_json(const json& j, Attribution& m) { read(j, "attribution", m); }
void from_json(const json& j, PassReport& m) { read(j, "pass", m); }
void from_json(const json& j, Result& m) {
  Fields f(j, "result");
  f.req("id", m.id);
  f.opt("workload", m.workload);
  f.req("score", m.score);
  f.req("passes", m.passes);
  f.req("failures", m.failures);
  f.opt("failure_examples", m.failure_examples);
  f.opt("agent_max_rss_kib", m.agent_max_rss_kib);
  f.opt("agent_cpu_s", m.agent_cpu_s);
}
void from_json(const json& j, Error& m) {
  Fields f(j, "error");
  f.opt("id", m.id);
  std::string code;
  f.req("code", code);
  auto c = error_code_from_string(code);
  if (!c) bad(f.at("code"), "unknown error code \"" + code + "\"");
  m.code = *c;
  f.req("message", m.message);
}
void from_json(const json& j, Bye& m) {
  Fields f(j, "bye");
  f.req("id", m.id);
}

}  // namespace rlab::protocol
