// The store as metrics see it (see store_reader.hpp).
#include "metrics/store_reader.hpp"

#include "rlab/protocol/score.hpp"
#include "store/metrics_rows.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <set>

namespace rlab::metrics {
namespace {

CellLabels labels_of(const store::CellLabelRow& r) {
  return {r.kernel, r.patchset, r.page_size, r.fs, r.mkfs_label, r.vcpus, r.copies, r.workload,
          host_label(r.host_uri, r.hostname)};
}

/// The AG header totals "agheader.<H>.<ag>.wait_ns" / ".held_ns" as seconds per 1,000 loops,
/// by header and bounded AG label (ag_series_label).
void add_ag_headers(const store::AttributionTotals& a, std::uint64_t loops, CellResult& r) {
  constexpr std::string_view kPrefix = "agheader.";
  for (const auto& [name, ns] : a.ag_header_ns) {
    const std::string_view n(name);
    const auto d1 = n.find('.', kPrefix.size());
    const auto d2 = d1 == std::string_view::npos ? d1 : n.find('.', d1 + 1);
    if (n.rfind(kPrefix, 0) != 0 || d2 == std::string_view::npos) continue;
    const std::string header(n.substr(kPrefix.size(), d1 - kPrefix.size()));
    const std::string ag = ag_series_label(std::string(n.substr(d1 + 1, d2 - d1 - 1)));
    const auto field = n.substr(d2 + 1);
    if (ag.empty() || (header != "AGI" && header != "AGF" && header != "AGFL")) continue;
    auto& into = field == "wait_ns" ? r.ag_header_wait_s_per_kloop : r.ag_header_held_s_per_kloop;
    if (field != "wait_ns" && field != "held_ns") continue;
    into[{header, ag}] += ns / 1e9 * 1000.0 / static_cast<double>(loops);
  }
}

/// The latest result of a cell with its passes merged (latency histograms of the same buckets).
CellResult cell_result(const std::filesystem::path& db, const store::LatestResult& row) {
  CellResult r;
  r.cell_key = row.cell_id;
  r.labels = labels_of(row.labels);
  r.score_lpm = row.score;
  r.recorded_at_s = row.recorded_unix_s;
  r.commit = row.source_commit;
  r.kernel_release = row.kernel_release;
  r.unixbench_index = protocol::unixbench_index(row.workload_kind, r.score_lpm);
  r.inode_ags = row.inode_ags;
  std::uint64_t loops = 0;
  for (const auto& p : row.passes) loops += p.loops;
  if (row.attribution && loops > 0) {
    const auto& a = *row.attribution;
    if (a.xfs_buf_wait_ns > 0) {
      r.agi_wait_share = a.agi_wait_ns / a.xfs_buf_wait_ns;
      r.agf_wait_share = a.agf_wait_ns / a.xfs_buf_wait_ns;
    }
    r.lock_wait_s_per_kloop = a.lock_wait_ns / 1e9 * 1000.0 / static_cast<double>(loops);
    r.offcpu_d_s_per_kloop = a.offcpu_d_ns / 1e9 * 1000.0 / static_cast<double>(loops);
    add_ag_headers(a, loops, r);
  }
  for (const auto& p : row.passes) {
    r.loops += p.loops;
    r.pass_lpm[p.pass] = p.lpm;
    auto h = parse_latency(p.latency_json);
    if (!h) continue;
    if (!r.latency) {
      r.latency = std::move(h);
    } else if (r.latency->bounds_s == h->bounds_s) {
      for (std::size_t i = 0; i < h->counts.size(); ++i) r.latency->counts[i] += h->counts[i];
      r.latency->sum_s += h->sum_s;
    } else {
      spdlog::warn("{}: cell {} pass {}: latency buckets differ from pass 0; pass not merged",
                   db.string(), r.cell_key, p.pass);
    }
  }
  return r;
}

/// The counter totals of the cells in `s.totals`.
void add_totals(const store::MetricsRows& m, Snapshot& s) {
  for (const auto& l : m.loads)
    if (auto it = s.totals.find(l.cell_id); it != s.totals.end()) {
      it->second.load_seconds = l.load_seconds;
      it->second.loops = l.loops;
    }
  for (const auto& c : m.tracepoints)
    if (auto it = s.totals.find(c.cell_id); it != s.totals.end()) {
      if (auto ev = inodegc_event(c.counter); !ev.empty()) it->second.inodegc_events[ev] += c.total;
      else if (c.counter == "xfs:xfs_inode_set_need_inactive")
        it->second.inactivation_events["set_need_inactive"] += c.total;
      else if (c.counter == "xfs:xfs_inode_inactivating")
        it->second.inactivation_events["inactivating"] += c.total;
    }
  for (const auto& c : m.xfs_stats)
    if (auto it = s.totals.find(c.cell_id); it != s.totals.end())
      if (auto name = xfs_stat_name(c.counter); !name.empty()) it->second.xfs_stats[name] += c.total;
}

/// The kernel behind each kernel name's newest result with a commit.
std::vector<KernelInfo> newest_kernels(const std::vector<CellResult>& results) {
  std::map<std::string, std::pair<double, KernelInfo>> newest;
  for (const auto& r : results) {
    if (r.commit.empty()) continue;
    auto& slot = newest[r.labels.kernel];
    if (slot.second.kernel.empty() || r.recorded_at_s > slot.first)
      slot = {r.recorded_at_s, KernelInfo{r.labels.kernel, r.commit, r.kernel_release, r.labels.patchset}};
  }
  std::vector<KernelInfo> out;
  for (auto& [name, v] : newest) out.push_back(std::move(v.second));
  return out;
}

/// Progress by (kind, host): every kind and host seen when reading all runs (so "nothing
/// running" is a 0, not a missing series), the boots of the runs read by status.
std::vector<RunProgress> progress_of(const store::MetricsRows& m, std::optional<store::RunId> run) {
  std::map<std::pair<std::string, std::string>, RunProgress> progress;
  auto slot = [&](const std::string& kind, const std::string& host) -> RunProgress& {
    auto& p = progress[{kind, host}];
    p.kind = kind;
    p.host = host;
    for (const char* st : {"planned", "pending", "running", "done", "failed"}) p.boots[st];
    return p;
  };
  for (const auto& [kind, host] : m.kinds) slot(kind, host);
  std::set<store::RunId> active;
  for (const auto& c : m.run_boots) {
    auto& p = slot(c.kind, c.hostname);
    if (!run && active.insert(c.run).second) ++p.active_runs;
    if (c.boots == 0 || !c.status) continue;
    p.boots["planned"] += c.boots;
    p.boots[std::string(store::to_string(*c.status))] += c.boots;
  }
  if (run && m.run_status == store::RunStatus::running)
    for (auto& [k, p] : progress) p.active_runs = 1;
  std::vector<RunProgress> out;
  for (auto& [k, p] : progress) out.push_back(std::move(p));
  return out;
}

}  // namespace

std::string ag_series_label(const std::string& ag) {
  const std::string rest = std::to_string(kAgsLabelled) + "+";
  if (ag.empty() || ag.find_first_not_of("0123456789+") != std::string::npos || ag.front() == '+') return "";
  if (ag.back() == '+') return rest;
  try {
    const unsigned long n = std::stoul(ag);
    return n < kAgsLabelled ? std::to_string(n) : rest;
  } catch (const std::exception&) {
    return "";
  }
}

StoreReader::StoreReader(const std::filesystem::path& db) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db, ec))
    throw store::StoreError(db.string() + ": no results store here (run `rlab run` first, or pass --db)");
  st_ = store::Store::open_read_only(db);
}

std::optional<LatencyHistogram> parse_latency(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("bounds_s") || !j.contains("counts")) return std::nullopt;
  const auto& b = j["bounds_s"];
  const auto& c = j["counts"];
  if (!b.is_array() || !c.is_array() || c.size() != b.size() + 1) return std::nullopt;
  LatencyHistogram h;
  for (const auto& v : b) {
    if (!v.is_number()) return std::nullopt;
    double d = v.get<double>();
    if (!h.bounds_s.empty() && d <= h.bounds_s.back()) return std::nullopt;
    h.bounds_s.push_back(d);
  }
  for (const auto& v : c) {
    if (!v.is_number() || v.get<double>() < 0) return std::nullopt;
    h.counts.push_back(v.get<double>());
  }
  if (auto s = j.find("sum_s"); s != j.end() && s->is_number()) h.sum_s = s->get<double>();
  return h;
}

Snapshot read_snapshot(const store::Store& st, std::optional<store::RunId> run) {
  const store::MetricsRows m = store::metrics_rows(st, run);
  Snapshot s;
  for (const auto& row : m.latest) s.results.push_back(cell_result(st.path(), row));
  for (const auto& r : s.results) s.totals[r.cell_key].labels = r.labels;
  add_totals(m, s);
  for (const auto& o : m.outcomes)
    s.outcomes[{o.cell_id, labels_of(o.labels), std::string(store::to_string(o.status))}] += o.boots;
  for (const auto& b : m.boot_seconds) s.boot_seconds[{b.cell_id, labels_of(b.labels)}].push_back(b.seconds);
  s.kernels = newest_kernels(s.results);
  s.runs = progress_of(m, run);
  return s;
}

}  // namespace rlab::metrics
