#include "run/bare_guest.hpp"

#include "image/unixbench.hpp"
#include "rlab/protocol/score.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>

namespace rlab::run {
namespace {

constexpr std::string_view kTag = "RLAB-BARE ";

// The whole of `s` as a number, or nullopt.
template <typename T>
std::optional<T> number(std::string_view s) {
  T v{};
  if (s.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

/// The loops of the looper's "COUNT|<n>|<scale>|<unit>" line in `out`, the last one.
std::optional<std::uint64_t> looper_count(std::string_view out) {
  const auto at = out.rfind("COUNT|");
  if (at == std::string_view::npos) return std::nullopt;
  const auto rest = out.substr(at + 6);
  const auto bar = rest.find('|');
  if (bar == std::string_view::npos) return std::nullopt;
  return number<std::uint64_t>(rest.substr(0, bar));
}

/// "pass=0 copy=1 status=0 start_s=12.34 end_s=33.10 output=..." (output last, may hold blanks).
BareCopy parse_copy(std::string_view body, std::string_view line) {
  auto bad = [&](std::string_view why) {
    return BareOutputError(fmt::format("bare guest: {} in console line \"{}\"", why, line));
  };
  const auto out_at = body.find(" output=");
  if (out_at == std::string_view::npos) throw bad("no output=");
  BareCopy c;
  c.output = std::string(body.substr(out_at + 8));
  while (!c.output.empty() && c.output.back() == ' ') c.output.pop_back();
  std::map<std::string, std::string, std::less<>> kv;
  std::istringstream words{std::string(body.substr(0, out_at))};
  for (std::string w; words >> w;)
    if (auto eq = w.find('='); eq != std::string::npos) kv[w.substr(0, eq)] = w.substr(eq + 1);
  auto field = [&]<typename T>(const char* key, T& to) {
    auto it = kv.find(key);
    auto v = it == kv.end() ? std::nullopt : number<T>(it->second);
    if (!v) throw bad(fmt::format("no number {}=", key));
    to = *v;
  };
  field("pass", c.pass);
  field("copy", c.copy);
  field("status", c.status);
  field("start_s", c.start_s);
  field("end_s", c.end_s);
  c.count = looper_count(c.output);
  return c;
}

}  // namespace

std::string bare_cmdline(const matrix::Cell& cell, const BareDisk& disk) {
  const auto& f = cell.filesystem;
  const auto& w = cell.workload;
  if (!f.mkfs_options.empty())
    throw std::invalid_argument("bare guest: cell " + cell.id + " has mkfs options; its /init uses mkfs's defaults");
  if (f.mount_options.find_first_of(" \t\n\"'\\") != std::string::npos)
    throw std::invalid_argument("bare guest: cell " + cell.id + ": mount options with blanks or quotes");
  if (w.duration_s < 1 || w.duration_s != static_cast<double>(static_cast<long>(w.duration_s)))
    throw std::invalid_argument("bare guest: cell " + cell.id + ": UnixBench's looper takes whole seconds");
  std::string s = fmt::format(" rdinit={} rlab.bare.fs={}", image::kBareInit, matrix::to_string(f.fs));
  s += disk.device.empty() ? " rlab.bare.serial=" + disk.serial : " rlab.bare.device=" + disk.device;
  if (!f.mount_options.empty()) s += " rlab.bare.mount=" + f.mount_options;
  s += fmt::format(" rlab.bare.copies={} rlab.bare.passes={} rlab.bare.seconds={} rlab.bare.scripts={}"
                   " rlab.bare.drop_caches={}",
                   cell.copies, w.warmup_passes + w.passes, static_cast<long>(w.duration_s), w.scripts_per_loop,
                   w.drop_caches ? 1 : 0);
  return s;
}

BareReport parse_bare_console(std::string_view console) {
  BareReport r;
  std::istringstream in{std::string(console)};
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const auto at = line.find(kTag);
    if (at == std::string::npos) continue;
    const std::string_view body = std::string_view(line).substr(at + kTag.size());
    if (body == "begin") r.begun = true;
    else if (body == "end") r.ended = r.begun;
    else if (body.starts_with("error=")) r.error = std::string(body.substr(6));
    else if (body.starts_with("kernel_release=")) r.kernel_release = std::string(body.substr(15));
    else if (body.starts_with("page_size=")) r.page_size = number<std::uint64_t>(body.substr(10));
    else if (body.starts_with("nproc=")) r.nproc = number<unsigned>(body.substr(6));
    else if (body.starts_with("pass=")) r.copies.push_back(parse_copy(body, line));
  }
  return r;
}

namespace {

void check_began(const BareReport& r) {
  if (r.error) throw BareOutputError("bare guest gave up: " + *r.error);
  if (!r.begun) throw BareOutputError("bare guest: no \"RLAB-BARE begin\" on the console (did /bare-init run?)");
}

}  // namespace

protocol::Hello bare_hello(const BareReport& r) {
  check_began(r);
  if (r.kernel_release.empty() || !r.page_size || !r.nproc)
    throw BareOutputError("bare guest: kernel_release, page_size or nproc missing from the console");
  protocol::Hello h;
  h.agent_version = "none (bare guest)";
  h.kernel_release = r.kernel_release;
  h.page_size = *r.page_size;
  h.nr_cpus = *r.nproc;
  return h;
}

protocol::Result bare_result(const BareReport& r, unsigned copies, unsigned passes, unsigned warmup,
                             double duration_s) {
  check_began(r);
  if (!r.ended) throw BareOutputError("bare guest: no \"RLAB-BARE end\" on the console (it stopped early)");
  protocol::Result res;
  res.workload = "shell1";
  std::vector<double> counted;
  for (unsigned p = 0; p < passes; ++p) {
    protocol::PassReport pr;
    pr.pass = p;
    pr.window_s = duration_s;
    double elapsed = 0;
    for (unsigned c = 0; c < copies; ++c) {
      auto it = std::find_if(r.copies.begin(), r.copies.end(),
                             [&](const BareCopy& x) { return x.pass == p && x.copy == c; });
      if (it == r.copies.end()) throw BareOutputError(fmt::format("bare guest: pass {} copy {}: no line", p, c));
      if (it->status != 0 || !it->count)
        throw BareOutputError(fmt::format("bare guest: pass {} copy {}: looper exited {}{}: \"{}\"", p, c, it->status,
                                          it->count ? "" : " without a COUNT line", it->output));
      pr.loops += *it->count;
      elapsed += it->end_s - it->start_s;
    }
    pr.duration_s = std::max(elapsed / copies, duration_s);
    pr.lpm = double(pr.loops) * 60.0 / pr.duration_s;
    if (p >= warmup) counted.push_back(pr.lpm);
    res.passes.push_back(pr);
  }
  res.score = protocol::unixbench_score(counted);
  return res;
}

}  // namespace rlab::run
