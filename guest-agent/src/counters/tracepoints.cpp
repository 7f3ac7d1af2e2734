#include "counters/tracepoints.hpp"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "common/fileio.hpp"

namespace rlab::agent {
namespace fs = std::filesystem;

std::optional<fs::path> find_tracefs() {
  for (const char* p : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    std::error_code ec;
    if (fs::is_directory(fs::path(p) / "events", ec)) return fs::path(p);
  }
  return std::nullopt;
}

std::vector<std::string> discover_events(const fs::path& tracefs) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(tracefs / "events" / "xfs", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("xfs_inodegc_", 0) == 0 || name == "xfs_inode_set_need_inactive" ||
        name == "xfs_inode_inactivating")
      out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool hist_available(const fs::path& tracefs, const std::vector<std::string>& events) {
  std::error_code ec;
  return !events.empty() && fs::exists(tracefs / "events" / "xfs" / events.front() / "hist", ec);
}

std::unique_ptr<TracepointCounters> TracepointCounters::open() {
  std::unique_ptr<TracepointCounters> t(new TracepointCounters);
  auto tracefs = find_tracefs();
  if (!tracefs) {
    t->why_ = "tracefs is not mounted (/sys/kernel/tracing)";
    return t;
  }
  t->tracefs_ = *tracefs;
  for (auto& name : discover_events(*tracefs))
    t->events_.push_back(Event{name, *tracefs / "events" / "xfs" / name, {}, {}});
  if (t->events_.empty()) {
    t->why_ = "no xfs inodegc events in " + (*tracefs / "events" / "xfs").string();
    return t;
  }
  if (t->open_hist()) t->method_ = "hist";
  else if (t->open_perf()) t->method_ = "perf";
  else t->events_.clear();
  return t;
}

bool TracepointCounters::open_hist() {
  std::vector<std::string> names;
  for (const auto& e : events_) names.push_back(e.name);
  if (!hist_available(tracefs_, names)) {
    why_ = "no hist triggers (CONFIG_HIST_TRIGGERS)";
    return false;
  }
  for (auto& e : events_) {
    // One bucket per CPU keeps the map tiny; "common_cpu" is the modern spelling of "cpu".
    for (const char* t : {"hist:keys=common_cpu", "hist:keys=cpu"}) {
      write_file(e.dir / "trigger", std::string("!") + t, /*append=*/true, /*quiet=*/true);  // stale one
      if (write_file(e.dir / "trigger", t, /*append=*/true, /*quiet=*/true)) {
        e.trigger = t;
        break;
      }
    }
    if (e.trigger.empty()) {
      why_ = "cannot install a hist trigger on " + e.name;
      for (auto& x : events_)
        if (!x.trigger.empty()) write_file(x.dir / "trigger", "!" + x.trigger, true, true);
      return false;
    }
  }
  return true;
}

bool TracepointCounters::open_perf() {
  for (auto& e : events_) {
    auto id_text = read_file(e.dir / "id");
    if (!id_text) {
      why_ += "; cannot read " + (e.dir / "id").string();
      return false;
    }
    e.config = std::stoull(*id_text);
  }
  auto close_all = [this] {
    for (int f : members_) ::close(f);
    members_.clear();
    leaders_.clear();
  };
  const long ncpu = sysconf(_SC_NPROCESSORS_CONF);
  for (long cpu = 0; cpu < ncpu; ++cpu) {
    int leader = -1;
    for (const auto& e : events_) {
      perf_event_attr attr{};
      attr.type = PERF_TYPE_TRACEPOINT;
      attr.size = sizeof(attr);
      attr.config = e.config;
      attr.read_format = PERF_FORMAT_GROUP;
      int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, static_cast<int>(cpu), leader, PERF_FLAG_FD_CLOEXEC));
      if (fd < 0) {
        if (leader < 0 && (errno == ENODEV || errno == EINVAL)) break;  // offline / absent CPU
        why_ += "; perf_event_open(" + e.name + ", cpu " + std::to_string(cpu) + "): " + std::strerror(errno);
        close_all();
        return false;
      }
      members_.push_back(fd);
      if (leader < 0) {
        leader = fd;
        leaders_.push_back(fd);
      }
    }
  }
  if (leaders_.empty()) {
    why_ += "; perf_event_open: no CPU accepted the events";
    return false;
  }
  return true;
}

TracepointCounters::~TracepointCounters() {
  for (auto& e : events_)
    if (!e.trigger.empty()) write_file(e.dir / "trigger", "!" + e.trigger, true, true);
  for (int f : members_) ::close(f);
}

std::vector<std::string> TracepointCounters::names() const {
  std::vector<std::string> out;
  for (const auto& e : events_) out.push_back("xfs:" + e.name);
  return out;
}

CounterMap TracepointCounters::read() const {
  CounterMap m;
  if (method_ == "hist") {
    for (const auto& e : events_)
      if (auto text = read_file(e.dir / "hist"))
        if (auto hits = parse_hist_hits(*text)) m["xfs:" + e.name] = *hits;
  } else if (method_ == "perf") {
    // PERF_FORMAT_GROUP: { u64 nr; u64 values[nr]; } in the order the members were added.
    std::vector<std::uint64_t> sum(events_.size(), 0), buf(events_.size() + 1, 0);
    for (int leader : leaders_) {
      const ssize_t want = static_cast<ssize_t>(buf.size() * sizeof(std::uint64_t));
      if (::read(leader, buf.data(), static_cast<std::size_t>(want)) != want || buf[0] != events_.size()) continue;
      for (std::size_t i = 0; i < events_.size(); ++i) sum[i] += buf[i + 1];
    }
    for (std::size_t i = 0; i < events_.size(); ++i) m["xfs:" + events_[i].name] = sum[i];
  }
  return m;
}

}  // namespace rlab::agent
