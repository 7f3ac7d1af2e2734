// Hist-trigger collectors of lock and off-CPU waits; see attribution.hpp for the mechanism.
#include "attribution.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "fileio.hpp"
#include "oncpu.hpp"
#include "tracepoints.hpp"

namespace rlab::agent {
namespace fs = std::filesystem;
namespace {

// 49 samples per CPU-second (not a divisor of the timer tick, so samples do not lock step with
// it). 100 Hz cost about 1% of the load's loops under icount, 49 Hz 0.4% (docs/benchmarks.md).
constexpr std::uint64_t kOnCpuPeriodNs = 1'000'000'000 / 49;

/// The maps keyed by task (the saved switch-out or contention start of each task): a pass of a
/// shell load creates a few thousand tasks a minute on a small guest; cleared at every pass.
/// 2^14 entries, about 4 MiB of kernel memory a map. A full map drops events, counted in
/// "<family>.dropped" (docs/attribution.md).
const std::string kTaskMapSize = ":size=16384";

/// The tasks of the load whose off-CPU time counts: the shell1 scripts' commands (rlab's and
/// UnixBench's), and kernel workers, which run the load's deferred work (XFS inodegc).
bool load_task(std::string_view comm) {
  for (std::string_view c : {"sh", "sort", "od", "grep", "tee", "wc", "rm", "looper", "multi.sh", "tst.sh", "loop.sh", "copy.sh"})
    if (comm == c) return true;
  return comm.rfind("kworker/", 0) == 0;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// "xfs_buf_lock+0x24/0x1a0 [xfs]" -> "xfs_buf_lock"; nullopt when `tok` is not a frame.
std::optional<std::string> frame_symbol(std::string_view tok) {
  const auto plus = tok.find("+0x");
  if (plus == std::string_view::npos || plus == 0) return std::nullopt;
  if (tok.find("/0x", plus) == std::string_view::npos) return std::nullopt;
  return std::string(tok.substr(0, plus));
}

/// The unsigned number after "<key>:" in `s`, or nullopt.
std::optional<std::uint64_t> value_after(std::string_view s, std::string_view key) {
  std::size_t pos = 0;
  while ((pos = s.find(key, pos)) != std::string_view::npos) {
    const bool word_start = pos == 0 || is_space(s[pos - 1]) || s[pos - 1] == '{' || s[pos - 1] == ',';
    std::size_t i = pos + key.size();
    if (word_start && i < s.size() && s[i] == ':') {
      ++i;
      while (i < s.size() && is_space(s[i])) ++i;
      char* end = nullptr;
      const std::string num(s.substr(i, 24));
      const unsigned long long v = std::strtoull(num.c_str(), &end, 10);
      if (end != num.c_str()) return v;
    }
    pos += key.size();
  }
  return std::nullopt;
}

/// `trigger` with ":<cmd>" added to its spec (before its filter, " if ..."): how an installed hist
/// trigger is told to pause, continue or clear (Documentation/trace/histogram.rst).
std::string with_command(const std::string& trigger, std::string_view cmd) {
  const auto at = trigger.find(" if ");
  std::string t = trigger;
  t.insert(at == std::string::npos ? t.size() : at, ":" + std::string(cmd));
  return t;
}

/// The summed "Dropped: N" lines of a hist file: events a full map could not aggregate.
std::uint64_t dropped_in(std::string_view hist) {
  std::uint64_t n = 0;
  for (std::size_t at = hist.find("Dropped:"); at != std::string_view::npos; at = hist.find("Dropped:", at + 8))
    n += std::strtoull(std::string(hist.substr(at + 8, 24)).c_str(), nullptr, 10);
  return n;
}

bool contains(const std::vector<std::string>& frames, std::initializer_list<std::string_view> names) {
  for (const auto& f : frames)
    for (auto n : names)
      if (f == n) return true;
  return false;
}

}  // namespace

std::vector<HistStack> parse_stack_hist(std::string_view text) {
  std::vector<HistStack> out;
  std::size_t pos = 0;
  while ((pos = text.find('{', pos)) != std::string_view::npos) {
    const std::size_t close = text.find('}', pos);
    if (close == std::string_view::npos) break;
    const std::string_view key = text.substr(pos + 1, close - pos - 1);
    std::size_t eol = text.find('\n', close);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view vals = text.substr(close + 1, eol - close - 1);
    pos = eol;
    HistStack e;
    std::size_t i = 0;
    while (i < key.size()) {
      while (i < key.size() && is_space(key[i])) ++i;
      std::size_t j = i;
      while (j < key.size() && !is_space(key[j])) ++j;
      if (j > i)
        if (auto sym = frame_symbol(key.substr(i, j - i))) e.frames.push_back(std::move(*sym));
      i = j;
    }
    if (const auto st = value_after(key, "state")) e.state = static_cast<std::int64_t>(*st);
    if (const auto c = key.find("comm:"); c != std::string_view::npos) {
      std::size_t a = c + 5;
      while (a < key.size() && is_space(key[a])) ++a;
      std::size_t b = a;
      while (b < key.size() && !is_space(key[b]) && key[b] != ',') ++b;
      e.comm = std::string(key.substr(a, b - a));
    }
    const auto hits = value_after(vals, "hitcount");
    if (!hits || e.frames.empty()) continue;
    e.hitcount = *hits;
    e.delta = value_after(vals, "delta").value_or(0);
    out.push_back(std::move(e));
  }
  return out;
}

void drop_tracing_frames(std::vector<std::string>& frames) {
  auto tracing = [](const std::string& f) {
    for (std::string_view p : {"trace_", "__traceiter_", "__trace_", "event_", "perf_", "__bpf_trace"})
      if (f.rfind(p, 0) == 0) return true;
    return f.find("_hist_") != std::string::npos;
  };
  std::size_t n = 0;
  while (n < frames.size() && tracing(frames[n])) ++n;
  frames.erase(frames.begin(), frames.begin() + static_cast<std::ptrdiff_t>(n));
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
    auto add = [&](const std::string& name) {
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

std::unique_ptr<Attribution> Attribution::open(const std::string& level, std::uint32_t top) {
  std::unique_ptr<Attribution> a(new Attribution);
  a->keep_stacks_ = level == "stacks" || level == "full";
  a->full_ = level == "full";
  a->top_ = top;
  std::vector<std::string> why;
  a->tracefs_ = find_tracefs();
  if (!a->tracefs_) {
    why.push_back("lock, offcpu: no tracefs");
  } else {
    const fs::path ev = *a->tracefs_ / "events";
    std::string w;
    // A task's lock wait: contention_begin .. contention_end, keyed by the waiting task.
    a->lock_ = a->install_family(
        "rlab_lock_wait", "u64 delta; unsigned long[] stack",
        {{ev / "lock/contention_begin/trigger", {"hist:keys=common_pid:rlab_lt0=common_timestamp,rlab_ls0=common_stacktrace" + kTaskMapSize,
                                                  "hist:keys=common_pid:rlab_lt0=common_timestamp,rlab_ls0=stacktrace" + kTaskMapSize}},
         {ev / "lock/contention_end/trigger",
          {"hist:keys=common_pid:rlab_lw=common_timestamp-$rlab_lt0,rlab_lst=$rlab_ls0" + kTaskMapSize +
           ":onmatch(lock.contention_begin).trace(rlab_lock_wait,$rlab_lw,$rlab_lst)"}}},
        "stack.stacktrace", w);
    if (!a->lock_) why.push_back("lock: " + w);
    w.clear();
    // Off-CPU: out in D (2), and at level "full" S (1), until back in; PID 1 (this agent) not
    // counted. The task's name comes from the switch back in (next_comm), so end_pass keeps the
    // load's tasks. Under icount the triggers on sched_switch cost about 1% of the load's loops,
    // S about 1% more (a stack at almost every switch of a shell pipeline; docs/benchmarks.md).
    const std::string states = level == "full" ? "(prev_state == 1 || prev_state == 2)" : "prev_state == 2";
    a->offcpu_ = a->install_family(
        "rlab_offcpu", "u64 delta; s64 state; char comm[16]; unsigned long[] stack",
        {{ev / "sched/sched_switch/trigger",
          {"hist:keys=prev_pid:rlab_ot0=common_timestamp,rlab_os0=common_stacktrace,rlab_ost0=prev_state" + kTaskMapSize +
           " if prev_pid != 1 && " + states,
           "hist:keys=prev_pid:rlab_ot0=common_timestamp,rlab_os0=stacktrace,rlab_ost0=prev_state" + kTaskMapSize +
           " if prev_pid != 1 && " + states}},
         {ev / "sched/sched_switch/trigger",
          {"hist:keys=next_pid:rlab_od=common_timestamp-$rlab_ot0,rlab_os=$rlab_os0,rlab_ost=$rlab_ost0" + kTaskMapSize +
           ":onmatch(sched.sched_switch).trace(rlab_offcpu,$rlab_od,$rlab_ost,next_comm,$rlab_os)"}}},
        "state,comm,stack.stacktrace", w);
    if (!a->offcpu_) why.push_back("offcpu: " + w);
  }
  try {
    a->oncpu_ = OnCpuSampler::open(kOnCpuPeriodNs);
  } catch (const std::exception& e) {
    why.push_back(std::string("oncpu: ") + e.what());
  }
  for (const auto& w : why) a->unavailable_ += (a->unavailable_.empty() ? "" : "; ") + w;
  if (!a->unavailable_.empty()) std::fprintf(stderr, "rlab-agent: attribution: %s\n", a->unavailable_.c_str());
  return a;
}

bool Attribution::install(const fs::path& file, const std::vector<std::string>& texts) {
  for (const auto& t : texts) {
    write_file(file, "!" + t, /*append=*/true, /*quiet=*/true);  // a stale one from a killed agent
    if (write_file(file, t, /*append=*/true, /*quiet=*/true)) {
      triggers_.push_back({file, t});
      return true;
    }
  }
  return false;
}

bool Attribution::install_family(const std::string& synth, const std::string& synth_fields,
                                 const std::vector<std::pair<fs::path, std::vector<std::string>>>& triggers,
                                 const std::string& hist_keys, std::string& why) {
  const fs::path synth_file = *tracefs_ / "synthetic_events";
  if (!fs::exists(synth_file)) {
    why = "no synthetic events (CONFIG_SYNTH_EVENTS, CONFIG_HIST_TRIGGERS)";
    return false;
  }
  for (const auto& [file, texts] : triggers)
    if (!fs::exists(file)) {
      why = "no " + file.parent_path().string() + " in this kernel";
      return false;
    }
  const std::size_t installed_before = triggers_.size();
  auto undo = [&] {
    while (triggers_.size() > installed_before) {
      write_file(triggers_.back().file, "!" + triggers_.back().text, true, true);
      triggers_.pop_back();
    }
    write_file(synth_file, "!" + synth, true, true);
  };
  write_file(synth_file, "!" + synth, true, true);  // stale
  if (!write_file(synth_file, synth + " " + synth_fields, /*append=*/true, /*quiet=*/true)) {
    why = "cannot create the synthetic event (a kernel before 6.3 has no stacktrace fields)";
    return false;
  }
  for (const auto& [file, texts] : triggers)
    if (!install(file, texts)) {
      why = "the kernel refused the trigger on " + file.parent_path().string() + " (see its hist error log)";
      undo();
      return false;
    }
  const Trigger h{*tracefs_ / "events/synthetic" / synth / "trigger", "hist:keys=" + hist_keys + ":vals=hitcount,delta:size=8192"};
  if (!install(h.file, {h.text})) {
    why = "the kernel refused a histogram keyed by a stacktrace field";
    undo();
    return false;
  }
  synthetic_.push_back(synth);
  clearable_.push_back(h);
  return true;
}

Attribution::~Attribution() {
  for (auto it = triggers_.rbegin(); it != triggers_.rend(); ++it) write_file(it->file, "!" + it->text, true, true);
  if (tracefs_)
    for (const auto& s : synthetic_) write_file(*tracefs_ / "synthetic_events", "!" + s, true, true);
}

void Attribution::begin_pass() {
  for (const auto& t : triggers_) write_file(t.file, with_command(t.text, "clear"), true, true);  // dead tasks' entries
  for (const auto& h : clearable_) {
    write_file(h.file, h.text + ":clear", true, true);
    write_file(h.file, h.text + ":cont", true, true);
  }
  if (oncpu_) oncpu_->reset(), oncpu_->enable(true);
}

void Attribution::stop() {
  for (const auto& h : clearable_) write_file(h.file, h.text + ":pause", true, true);
  if (oncpu_) oncpu_->enable(false);
}

void Attribution::poll() {
  if (oncpu_) oncpu_->poll();
}

protocol::Attribution Attribution::end_pass() {
  std::vector<protocol::StackRow> rows;
  for (const auto& h : clearable_) {
    const auto text = read_file(h.file.parent_path() / "hist");
    if (!text) continue;
    const bool offcpu = h.file.parent_path().filename() == "rlab_offcpu";
    for (auto& e : parse_stack_hist(*text)) {
      if (offcpu && !load_task(e.comm)) continue;
      protocol::StackRow r;
      r.family = !offcpu ? "lock" : e.state == 2 ? "offcpu.D" : "offcpu.S";
      drop_tracing_frames(e.frames);
      r.frames = std::move(e.frames);
      r.count = e.hitcount;
      r.total_ns = e.delta;
      rows.push_back(std::move(r));
    }
  }
  if (oncpu_) {
    oncpu_->poll();
    for (auto& r : oncpu_->rows()) rows.push_back(std::move(r));
  }
  protocol::Attribution a = summarize_stacks(std::move(rows), top_, keep_stacks_);
  // A family that was collected and saw nothing is 0, not absent.
  auto zero = [&a](const std::string& family) {
    a.totals.try_emplace(family + ".waits", 0);
    a.totals.try_emplace(family + ".wait_ns", 0);
  };
  if (lock_)
    for (const char* f : {"lock", "xfs_agi", "xfs_agf", "xfs_buf"}) zero(f);
  if (offcpu_) zero("offcpu.D");
  if (offcpu_ && full_) zero("offcpu.S");
  if (oncpu_ && oncpu_->lost() > 0) a.totals["oncpu.lost"] = oncpu_->lost();
  // Events a full map could not aggregate, per family (the task maps' and the stacks' hists).
  std::set<fs::path> hists;
  for (const auto& t : triggers_) hists.insert(t.file.parent_path() / "hist");
  for (const auto& h : clearable_) hists.insert(h.file.parent_path() / "hist");
  for (const auto& h : hists)
    if (const auto text = read_file(h))
      if (const auto n = dropped_in(*text); n > 0) {
        const auto event = h.parent_path().filename().string();
        a.totals[(event == "rlab_lock_wait" || event.rfind("contention", 0) == 0 ? "lock" : "offcpu") + std::string(".dropped")] += n;
      }
  a.unavailable = unavailable_;
  return a;
}

}  // namespace rlab::agent
