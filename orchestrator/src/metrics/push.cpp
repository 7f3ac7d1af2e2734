// Pushgateway pushes of a run (see push.hpp).
#include "metrics/push.hpp"

#include "metrics/cache_families.hpp"
#include "metrics/families.hpp"
#include "metrics/store_reader.hpp"
#include "util/paths.hpp"

#include <curl/curl.h>
#include <fmt/format.h>
#include <prometheus/gateway.h>
#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>
#include <set>

namespace rlab::metrics {

std::string base64url(std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                 (static_cast<unsigned char>(in[i + 1]) << 8) | static_cast<unsigned char>(in[i + 2]);
    for (int s : {18, 12, 6, 0}) out += kAlphabet[(v >> s) & 63];
  }
  if (in.size() - i == 1) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (in.size() - i == 2) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    for (int s : {18, 12, 6}) out += kAlphabet[(v >> s) & 63];
  }
  return out;
}

PushTarget parse_push_url(const std::string& url) {
  auto bad = [&](const std::string& why) {
    return PushUrlError(fmt::format("push URL '{}': {}", url, why));
  };
  auto sep = url.find("://");
  if (sep == std::string::npos) throw bad("expected http://host:port");
  const std::string scheme = url.substr(0, sep);
  if (scheme != "http" && scheme != "https") throw bad("scheme must be http or https");
  std::string rest = url.substr(sep + 3);
  if (rest.find_first_of("?#") != std::string::npos) throw bad("a query or fragment is not allowed");
  std::string authority = rest.substr(0, rest.find('/'));
  std::string path = rest.substr(authority.size());
  if (!path.empty() && path != "/")
    throw bad("a path is not supported (the Pushgateway API lives at /metrics/job/...)");
  if (authority.find('@') != std::string::npos) throw bad("credentials in the URL are not supported");
  std::string host = authority, port = scheme == "https" ? "443" : "80";
  std::size_t colon = std::string::npos;
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    if (close == std::string::npos) throw bad("unclosed '[' in an IPv6 address");
    if (close + 1 < host.size()) {
      if (host[close + 1] != ':') throw bad("expected ':' after ']'");
      colon = close + 1;
    }
  } else {
    colon = host.rfind(':');
  }
  if (colon != std::string::npos) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
    unsigned p = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || p == 0 || p > 65535)
      throw bad("port must be 1-65535");
  }
  if (host.empty() || host == "[]") throw bad("missing host");
  return {scheme + "://" + host, port};
}

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The part of `s` that belongs to one cell.
Snapshot cell_part(const Snapshot& s, const std::string& key) {
  Snapshot c;
  for (const auto& r : s.results) {
    if (r.cell_key != key) continue;
    c.results.push_back(r);
    if (!r.commit.empty())
      c.kernels.push_back({r.labels.kernel, r.commit, r.kernel_release, r.labels.patchset});
  }
  if (auto t = s.totals.find(key); t != s.totals.end()) c.totals.insert(*t);
  for (const auto& [k, n] : s.outcomes)
    if (std::get<0>(k) == key) c.outcomes.emplace(k, n);
  for (const auto& [k, v] : s.boot_seconds)
    if (k.first == key) c.boot_seconds.emplace(k, v);
  return c;
}

// Several collectables as one, so a group goes out in a single request (the Gateway sends
// one request per registered collectable, and a second PUT would replace the first).
class Merged : public prometheus::Collectable {
 public:
  explicit Merged(std::vector<std::shared_ptr<prometheus::Collectable>> parts) : parts_(std::move(parts)) {}
  std::vector<prometheus::MetricFamily> Collect() const override {
    std::vector<prometheus::MetricFamily> out;
    for (const auto& p : parts_) {
      auto f = p->Collect();
      out.insert(out.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
    }
    return out;
  }

 private:
  std::vector<std::shared_ptr<prometheus::Collectable>> parts_;
};

// One PUT (replace the group) or POST (replace only the pushed metric names in the group) of
// `collectables`; records the result in `out`.
void push_group(const PushTarget& t, const prometheus::Labels& grouping, bool put,
                std::vector<std::shared_ptr<prometheus::Collectable>> collectables,
                PushOutcome& out) {
  auto merged = std::make_shared<Merged>(std::move(collectables));
  prometheus::Gateway gw(t.base, t.port, "rlab", grouping);
  gw.RegisterCollectable(merged);
  // prometheus-cpp 1.0 maps Gateway::PushAdd() to HTTP PUT and Gateway::Push() to HTTP POST
  // (checked against a real Pushgateway by the tests); choose by the HTTP method we need.
  const int code = put ? gw.PushAdd() : gw.Push();
  if (code >= 200 && code < 300) {
    ++out.groups_pushed;
    return;
  }
  std::string path = "/metrics/job/rlab";
  for (const auto& [k, v] : grouping) path += "/" + k + "/" + v;
  std::string cause = code < 0 ? fmt::format("transfer failed ({})",
                                             curl_easy_strerror(static_cast<CURLcode>(-code)))
                               : fmt::format("HTTP {}", code);
  out.errors.push_back(fmt::format("{} {}:{}{}: {}", put ? "PUT" : "POST", t.base, t.port,
                                   path, cause));
}

}  // namespace

PushOutcome push_run(const store::Store& store, store::RunId run, const std::string& url,
                     const LiveMetrics* live) {
  const PushTarget target = parse_push_url(url);
  auto info = store.run(run);
  if (!info)
    throw store::StoreError(fmt::format("{}: no run {} to push", store.path().string(), run));
  StoreReader reader(store.path());
  const Snapshot s = reader.read(run);
  const std::string instance = local_hostname();
  PushOutcome out;

  std::set<std::string> keys;
  std::set<std::string> with_result;
  for (const auto& r : s.results) {
    keys.insert(r.cell_key);
    with_result.insert(r.cell_key);
  }
  for (const auto& [k, n] : s.outcomes) keys.insert(std::get<0>(k));
  for (const auto& key : keys) {
    auto reg = std::make_shared<prometheus::Registry>();
    const bool replace = with_result.count(key) != 0;
    Snapshot part = cell_part(s, key);
    add_snapshot(*reg, part);
    push_group(target, {{"instance", instance}, {"cell@base64", base64url(key)}}, replace, {reg},
               out);
  }

  auto reg = std::make_shared<prometheus::Registry>();
  Snapshot progress;
  progress.runs = s.runs;
  add_snapshot(*reg, progress);
  add_cache_families(*reg, util::cache_dir());
  const double now = now_s();
  prometheus::BuildGauge().Name("rlab_run_last_push_timestamp_seconds")
      .Help("Unix time of the last push of a run of this kind").Register(*reg).Add({}).Set(now);
  if (info->status == store::RunStatus::done)
    prometheus::BuildGauge().Name("rlab_run_last_success_timestamp_seconds")
        .Help("Unix time a run of this kind last finished with every boot done")
        .Register(*reg).Add({}).Set(now);
  std::vector<std::shared_ptr<prometheus::Collectable>> collectables{reg};
  if (live) collectables.push_back(live->registry());
  push_group(target, {{"instance", instance}, {"kind", info->kind}}, false, collectables, out);

  for (const auto& e : out.errors) spdlog::error("push: {}", e);
  return out;
}

}  // namespace rlab::metrics
