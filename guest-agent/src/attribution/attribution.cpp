// The per-pass collectors of where the time went; see attribution.hpp for the mechanism.
#include "attribution/attribution.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "attribution/bpf_ag_headers.hpp"
#include "attribution/bpf_waits.hpp"
#include "attribution/oncpu.hpp"

namespace rlab::agent {
namespace {

// 29 samples per CPU-second (a prime: samples do not lock step with the timer tick). Under
// icount 100 Hz cost about 1% of the load's loops, 49 Hz 0.5-1% at 2 vCPUs, 29 Hz at most one
// loop in 200 (docs/benchmarks.md "Attribution overhead"); a 60 s pass at 2 vCPUs still gets
// about 3,500 samples.
constexpr std::uint64_t kOnCpuPeriodNs = 1'000'000'000 / 29;

/// The tasks of the load whose off-CPU time counts: the shell1 scripts' commands (rlab's and
/// UnixBench's), and kernel workers, which run the load's deferred work (XFS inodegc).
bool load_task(std::string_view comm) {
  for (std::string_view c : {"sh", "sort", "od", "grep", "tee", "wc", "rm", "looper", "multi.sh", "tst.sh", "loop.sh", "copy.sh"})
    if (comm == c) return true;
  return comm.rfind("kworker/", 0) == 0;
}

bool contains(const std::vector<std::string>& frames, std::initializer_list<std::string_view> names) {
  for (const auto& f : frames)
    for (auto n : names)
      if (f == n) return true;
  return false;
}

}  // namespace

void drop_tracing_frames(std::vector<std::string>& frames) {
  // The tracepoint's glue (__traceiter_<tp>, __bpf_trace_<tp>, bpf_trace_run<N>, trace_<tp>)
  // sits a few frames below the top; everything above it is the probe itself (the BPF
  // program, which kallsyms may not name, and its helpers).
  auto glue = [](const std::string& f) {
    for (std::string_view p : {"__traceiter_", "__bpf_trace_", "bpf_trace_run", "trace_", "perf_trace_"})
      if (f.rfind(p, 0) == 0) return true;
    return false;
  };
  std::size_t cut = 0;
  for (std::size_t i = 0; i < frames.size() && i < 12; ++i)
    if (glue(frames[i])) cut = i + 1;
  frames.erase(frames.begin(), frames.begin() + static_cast<std::ptrdiff_t>(cut));
}

protocol::Attribution summarize_stacks(std::vector<protocol::StackRow> rows, std::size_t top, bool keep_stacks) {
  protocol::Attribution a;
  std::map<std::pair<std::string, std::vector<std::string>>, protocol::StackRow> merged;
  for (auto& r : rows) {
    auto& m = merged[{r.family, r.frames}];
    m.family = r.family;
    m.frames = std::move(r.frames);
    m.count += r.count;
    m.total_ns += r.total_ns;
  }
  std::map<std::string, std::vector<protocol::StackRow>> by_family;
  for (auto& [k, r] : merged) {
    const bool own_totals = r.family.rfind("agheader.", 0) == 0;  // counted by the collector itself
    auto add = [&](const std::string& name) {
      if (own_totals) return;
      a.totals[name + ".waits"] += r.count;
      a.totals[name + ".wait_ns"] += r.total_ns;
    };
    if (r.family == "oncpu") {
      a.totals["oncpu.samples"] += r.count;
      a.totals["oncpu.sampled_ns"] += r.total_ns;
    } else {
      add(r.family);
    }
    if (r.family == "lock") {
      if (contains(r.frames, {"xfs_read_agi", "xfs_ialloc_read_agi"})) add("xfs_agi");
      if (contains(r.frames, {"xfs_read_agf", "xfs_alloc_read_agf"})) add("xfs_agf");
      if (contains(r.frames, {"xfs_buf_lock"})) add("xfs_buf");
    }
    by_family[r.family].push_back(std::move(r));
  }
  if (!keep_stacks) return a;
  for (auto& [family, v] : by_family) {
    std::stable_sort(v.begin(), v.end(), [](const auto& x, const auto& y) {
      return std::make_pair(x.total_ns, x.count) > std::make_pair(y.total_ns, y.count);
    });
    protocol::StackRow other;
    other.family = family;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i < top) {
        a.stacks.push_back(std::move(v[i]));
      } else {
        other.count += v[i].count;
        other.total_ns += v[i].total_ns;
      }
    }
    if (other.count > 0) a.stacks.push_back(std::move(other));
  }
  return a;
}

void ag_header_attribution(const std::vector<AgHeaderRow>& waits, const std::vector<AgHeaderRow>& holds,
                           std::uint32_t agcount, const Kallsyms& syms, std::map<std::string, std::uint64_t>& totals,
                           std::vector<protocol::StackRow>& rows) {
  totals["agheader.agcount"] = agcount;
  auto ag_name = [](std::uint32_t ag) { return ag < kMaxAgs ? std::to_string(ag) : std::to_string(kMaxAgs) + "+"; };
  auto add = [&](const AgHeaderRow& r, bool hold) {
    const std::string ag = ag_name(r.ag), header(to_string(r.header));
    const std::string key = "agheader." + header + "." + ag + ".";
    if (hold) {
      totals[key + "holds"] += r.count;
      totals[key + "held_ns"] += r.total_ns;
      auto& longest = totals[key + "max_held_ns"];
      longest = std::max(longest, r.max_ns);
      totals.try_emplace(key + "waits", 0), totals.try_emplace(key + "contended", 0), totals.try_emplace(key + "wait_ns", 0);
    } else {
      totals[key + "waits"] += r.count;
      totals[key + "contended"] += r.contended;
      totals[key + "wait_ns"] += r.total_ns;
      totals.try_emplace(key + "holds", 0), totals.try_emplace(key + "held_ns", 0), totals.try_emplace(key + "max_held_ns", 0);
    }
    protocol::StackRow row;
    row.family = hold ? "agheader.hold" : "agheader.wait";
    for (std::uint64_t ip : r.ips) row.frames.push_back(syms.name(ip));
    drop_tracing_frames(row.frames);
    if (row.frames.empty()) row.frames.push_back("[no stack]");
    row.frames.insert(row.frames.begin(), "[" + header + " of AG " + ag + "]");
    if (hold) row.frames.push_back("[" + r.comm + "]");
    row.count = r.count;
    row.total_ns = r.total_ns;
    rows.push_back(std::move(row));
  };
  for (const auto& r : waits) add(r, false);
  for (const auto& r : holds) add(r, true);
}

std::unique_ptr<Attribution> Attribution::open(protocol::AttributionLevel level, std::uint32_t top,
                                               const std::optional<std::filesystem::path>& xfs_device) {
  std::unique_ptr<Attribution> a(new Attribution);
  a->keep_stacks_ = level == protocol::AttributionLevel::stacks || level == protocol::AttributionLevel::full;
  a->full_ = level == protocol::AttributionLevel::full;
  a->top_ = top;
  std::vector<std::string> why;
  try {
    a->syms_ = Kallsyms::load();
    try {
      a->waits_ = BpfWaits::open(a->full_);
      if (!a->waits_->unavailable().empty()) why.push_back(a->waits_->unavailable());
    } catch (const std::exception& e) {
      why.push_back(std::string("lock, offcpu: ") + e.what());
    }
    try {
      a->oncpu_ = OnCpuSampler::open(kOnCpuPeriodNs, a->syms_);
    } catch (const std::exception& e) {
      why.push_back(std::string("oncpu: ") + e.what());
    }
    try {
      if (xfs_device)
        a->ag_headers_ = BpfAgHeaders::open(*xfs_device, a->keep_stacks_ ? BpfAgHeaders::kStackMinNs : BpfAgHeaders::kNoStacks);
    } catch (const std::exception& e) {
      why.push_back(std::string("agheader: ") + e.what());
    }
  } catch (const std::exception& e) {
    why.push_back(std::string("lock, offcpu, oncpu: ") + e.what());
  }
  for (const auto& w : why) a->unavailable_ += (a->unavailable_.empty() ? "" : "; ") + w;
  if (!a->unavailable_.empty()) std::fprintf(stderr, "rlab-agent: attribution: %s\n", a->unavailable_.c_str());
  return a;
}

Attribution::~Attribution() = default;

void Attribution::begin_pass() {
  if (waits_) {
    try {
      waits_->start();
    } catch (const std::exception& e) {
      unavailable_ += (unavailable_.empty() ? "lock, offcpu: " : "; lock, offcpu: ") + std::string(e.what());
      waits_.reset();
    }
  }
  if (oncpu_) oncpu_->reset(), oncpu_->enable(true);
  if (ag_headers_) {
    try {
      ag_headers_->start();
    } catch (const std::exception& e) {
      unavailable_ += (unavailable_.empty() ? "agheader: " : "; agheader: ") + std::string(e.what());
      ag_headers_.reset();
    }
  }
}

void Attribution::stop() {
  if (waits_) waits_->stop();
  if (oncpu_) oncpu_->enable(false);
  if (ag_headers_) ag_headers_->stop();
}

protocol::Attribution Attribution::end_pass() {
  std::vector<protocol::StackRow> rows;
  if (waits_) rows = wait_rows(waits_->entries(), *syms_, load_task);
  if (oncpu_)
    for (auto& r : oncpu_->rows()) rows.push_back(std::move(r));
  std::map<std::string, std::uint64_t> ag_totals;
  std::string pass_note;
  if (ag_headers_) {
    const auto holds = ag_headers_->holds();
    // Any XFS pass of the load allocates inodes, so it holds some AGI: none at all means the
    // programs did not find the buffers' addresses where bpf/ag_headers.h says they are.
    if (holds.empty())
      pass_note = "agheader: no AG header held during the pass (struct xfs_buf laid out otherwise than "
                  "bpf/ag_headers.h reads it?)";
    ag_header_attribution(ag_headers_->waits(), holds, ag_headers_->geometry().agcount, *syms_, ag_totals, rows);
  }
  protocol::Attribution a = summarize_stacks(std::move(rows), top_, keep_stacks_);
  a.totals.merge(ag_totals);
  if (ag_headers_)
    if (const auto n = ag_headers_->dropped(); n > 0) a.totals["agheader.dropped"] = n;
  // A family that was collected and saw nothing is 0, not absent.
  auto zero = [&a](const std::string& family) {
    a.totals.try_emplace(family + ".waits", 0);
    a.totals.try_emplace(family + ".wait_ns", 0);
  };
  if (waits_ && waits_->lock())
    for (const char* f : {"lock", "xfs_agi", "xfs_agf", "xfs_buf"}) zero(f);
  if (waits_ && waits_->offcpu()) zero("offcpu.D");
  if (waits_ && waits_->offcpu() && full_) zero("offcpu.S");
  if (oncpu_ && oncpu_->lost() > 0) a.totals["oncpu.lost"] = oncpu_->lost();
  // Waits a full map could not count (lock and off-CPU share the maps).
  if (waits_)
    if (const auto n = waits_->dropped(); n > 0) a.totals["waits.dropped"] = n;
  a.unavailable = unavailable_;
  if (!pass_note.empty()) a.unavailable += (a.unavailable.empty() ? "" : "; ") + pass_note;
  return a;
}

std::vector<protocol::StackRow> wait_rows(const std::vector<WaitEntry>& entries, const Kallsyms& syms,
                                            bool (*keep)(std::string_view comm)) {
  std::vector<protocol::StackRow> rows;
  for (const auto& e : entries) {
    if (e.state > 2 || (e.state != 0 && !keep(e.comm))) continue;
    protocol::StackRow r;
    r.family = e.state == 0 ? "lock" : e.state == 2 ? "offcpu.D" : "offcpu.S";
    for (std::uint64_t ip : e.ips) r.frames.push_back(syms.name(ip));
    drop_tracing_frames(r.frames);
    if (r.frames.empty()) r.frames.push_back("[no stack]");
    r.count = e.count;
    r.total_ns = e.total_ns;
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace rlab::agent
