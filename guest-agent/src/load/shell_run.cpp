#include "load/shell_run.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>

#include "common/fileio.hpp"
#include "rlab/protocol/score.hpp"
#include "serve/sysinfo.hpp"
#include "load/workload_files.hpp"

namespace rlab::agent {
namespace fs = std::filesystem;

namespace {
constexpr std::size_t kMaxFailureExamples = 3;
constexpr std::size_t kMaxExampleBytes = 4096;
/// A loop still running this long after the window closed is killed (a hung script).
constexpr std::chrono::seconds kDrainTimeout{120};
constexpr std::chrono::milliseconds kDrainPoll{20};
/// UnixBench's Run sets this LANG for every test; without the locale installed, glibc's
/// tools behave as in the C locale.
constexpr const char* kLang = "LANG=en_US.utf8";

template <class D>
boost::asio::steady_timer::duration to_timer(D d) {
  return std::chrono::duration_cast<boost::asio::steady_timer::duration>(d);
}
auto seconds(double s) { return to_timer(std::chrono::duration<double>(s)); }

void write_or_throw(const fs::path& path, std::string_view data) {
  if (!write_file(path, data)) throw std::runtime_error("run.workdir: cannot write " + path.string());
}

void copy_or_throw(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::permissions(to, fs::perms(0755), ec);
  if (ec) throw std::runtime_error("run.unixbench_dir: cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
}
}  // namespace

const std::vector<double>& default_latency_bounds() {
  static const std::vector<double> b = {0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100};
  return b;
}

void histogram_add(protocol::Histogram& h, double s) {
  const auto i = static_cast<std::size_t>(std::lower_bound(h.bounds_s.begin(), h.bounds_s.end(), s) - h.bounds_s.begin());
  ++h.counts.at(i);
  h.sum_s += s;
  h.max_s = std::max(h.max_s, s);
}

std::optional<std::uint64_t> parse_looper_count(std::string_view out) {
  const auto at = out.rfind("COUNT|");
  if (at == std::string_view::npos) return std::nullopt;
  std::uint64_t n = 0;
  std::size_t i = at + 6, digits = 0;
  for (; i < out.size() && out[i] >= '0' && out[i] <= '9' && digits < 19; ++i, ++digits) n = n * 10 + unsigned(out[i] - '0');
  if (digits == 0 || i >= out.size() || out[i] != '|') return std::nullopt;
  return n;
}

struct ShellRun::Looper {
  explicit Looper(std::uint32_t i) : index(i), stderr_capture("rlab-loop-stderr") {}
  std::uint32_t index;
  fs::path dir;
  MemFile stderr_capture;
  bool busy = false;
  pid_t pgid = 0;  ///< process group of the running child (its pid)
  Clock::time_point started;
  /// This pass: seconds from the pass's start (runner "unixbench": the looper's start) until the
  /// copy's last loop had finished; negative while it has not.
  double elapsed_s = -1;
  // runner "unixbench": the looper's stderr is a pipe, read to EOF as UnixBench's Run reads it.
  std::unique_ptr<boost::asio::posix::stream_descriptor> pipe;
  std::array<char, 1024> chunk{};
  std::string output;  ///< what the looper and its loops wrote to stderr (the last 64 KiB)
  std::optional<int> status;  ///< the looper's wait status once reaped
};

ShellRun::ShellRun(boost::asio::io_context& io, Children& children, protocol::Run params, Emit emit, Done done)
    : io_(io),
      children_(children),
      p_(std::move(params)),
      emit_(std::move(emit)),
      done_(std::move(done)),
      window_timer_(io),
      sample_timer_(io),
      pause_timer_(io),
      kill_timer_(io),
      alive_(std::make_shared<bool>(true)) {}

ShellRun::~ShellRun() { abort(); }

double ShellRun::since(Clock::time_point t) const { return std::chrono::duration<double>(Clock::now() - t).count(); }

void ShellRun::write_files() {
  const fs::path work(p_.workdir);
  pgms_ = work / "pgms";
  testdir_ = work / "testdir";
  std::error_code ec;
  for (const auto& d : {pgms_, testdir_})
    if (fs::create_directories(d, ec); ec) throw std::runtime_error("run.workdir: cannot create " + d.string() + ": " + ec.message());
  const fs::path ub(p_.unixbench_dir);
  if (unixbench()) {
    for (const char* f : {"looper", "multi.sh", "tst.sh"}) copy_or_throw(ub / "pgms" / f, pgms_ / f);
  } else {
    write_or_throw(pgms_ / "loop.sh", loop_script_text());
    write_or_throw(pgms_ / "copy.sh", copy_script_text());
  }
  std::string input;
  if (p_.input) input = *p_.input;
  else if (!unixbench()) input = sort_input_text();
  else if (auto text = read_file(ub / "testdir" / "sort.src")) input = std::move(*text);
  else throw std::runtime_error("run.unixbench_dir: cannot read " + (ub / "testdir" / "sort.src").string());
  std::vector<fs::path> load_dirs;
  for (std::uint32_t i = 0; i < p_.copies; ++i) {
    auto l = std::make_unique<Looper>(i);
    l->dir = p_.layout == protocol::Layout::per_copy ? testdir_ / ("copy" + std::to_string(i)) : testdir_;
    if (fs::create_directories(l->dir, ec); ec)
      throw std::runtime_error("run.workdir: cannot create " + l->dir.string() + ": " + ec.message());
    if (i == 0 || p_.layout == protocol::Layout::per_copy) {
      write_or_throw(l->dir / "sort.src", input);
      load_dirs.push_back(l->dir);
    }
    loopers_.push_back(std::move(l));
  }
  if (auto geo = xfs_geometry_of(testdir_)) placement_.emplace(*geo, load_dirs, std::set<std::string>{"sort.src"});
}

void ShellRun::start() {
  cpu_at_start_ = thread_cpu_s();
  write_files();
  env_ = {kLang, "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME=" + p_.workdir,
          "RLAB_PGMS=" + pgms_.string(), "UB_BINDIR=" + pgms_.string()};
  sampler_ = std::make_unique<Sampler>(testdir_);
  if (p_.attribution != protocol::AttributionLevel::off) attribution_ = Attribution::open(p_.attribution, p_.attribution_top, xfs_device_of(testdir_));
  settle(0);
}

void ShellRun::abort() {
  if (!*alive_) return;
  *alive_ = false;
  window_timer_.cancel();
  sample_timer_.cancel();
  pause_timer_.cancel();
  kill_timer_.cancel();
  children_.signal_all(SIGKILL);
  for (const auto& l : loopers_) {
    if (l->pgid > 0) ::kill(-l->pgid, SIGKILL);  // orphans of UnixBench's looper
    l->pipe.reset();
  }
}

// Before every pass, UnixBench's `sync; sleep 1; sync; sleep 2` (scaled to pause_s), with the
// optional cache drop before the second sync: steps 0 sync, 1 sleep, 2 [drop +] sync, 3 sleep,
// 4 the pass. sync(2) may take long on a slow disk, so it runs on a thread while the agent
// keeps serving.
void ShellRun::settle(int step) {
  if (step == 0 || step == 2) {
    const bool drop = step == 2 && p_.drop_caches;
    std::thread([this, alive = alive_, &io = io_, drop, step] {
      std::string err = drop ? drop_caches() : std::string();
      ::sync();
      boost::asio::post(io, [this, alive, drop, err, step] {
        if (!*alive) return;
        if (drop && !err.empty()) std::fprintf(stderr, "rlab-agent: run.drop_caches: %s\n", err.c_str());
        if (step == 2) caches_dropped_ = drop && err.empty();
        settle(step + 1);
      });
    }).detach();
  } else if (step == 1 || step == 3) {
    pause_timer_.expires_after(seconds(p_.pause_s * (step == 1 ? 1.0 : 2.0) / 3.0));
    pause_timer_.async_wait([this, step, alive = alive_](const boost::system::error_code& ec) {
      if (!ec && *alive) settle(step + 1);
    });
  } else {
    begin_pass();
  }
}

void ShellRun::begin_pass() {
  report_ = protocol::PassReport{};
  report_.caches_dropped = caches_dropped_;
  caches_dropped_ = false;
  report_.id = p_.id;
  report_.pass = pass_;
  report_.latency.bounds_s = default_latency_bounds();
  report_.latency.counts.assign(report_.latency.bounds_s.size() + 1, 0);
  if (placement_) placement_->reset();
  if (attribution_) attribution_->begin_pass();
  sampler_->snapshot_into(pass_start_);
  last_sample_ = pass_start_;
  sample_no_ = 0;
  in_window_ = true;
  finishing_ = false;
  t0_ = Clock::now();
  emit_sample(0, {});  // the host reads its CPU time as it arrives: the window's start
  for (auto& l : loopers_) start_loop(*l);
  if (unixbench() && std::none_of(loopers_.begin(), loopers_.end(), [](const auto& l) { return l->busy; }))
    return end_window();  // no looper could start: the pass is over, its failures say why
  window_timer_.expires_at(t0_ + seconds(p_.duration_s));
  window_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (!ec && *alive) on_window();
  });
  if (p_.sample_interval_s > 0) on_sample();
}

void ShellRun::emit_sample(double t_s, protocol::Counters counters) {
  protocol::Sample s;
  s.id = p_.id;
  s.pass = pass_;
  s.t_s = t_s;
  s.loops = report_.loops;
  s.failures = report_.failures;
  s.counters = std::move(counters);
  emit_(std::move(s));
}

void ShellRun::on_sample() {
  ++sample_no_;
  sample_timer_.expires_at(t0_ + seconds(p_.sample_interval_s * double(sample_no_)));
  sample_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive || !in_window_) return;
    if (placement_) placement_->scan();
    sampler_->snapshot_into(scratch_);
    emit_sample(since(t0_), delta(last_sample_, scratch_));
    std::swap(last_sample_, scratch_);
    on_sample();
  });
}

void ShellRun::start_loop(Looper& l) {
  if (unixbench()) return start_looper(l);
  SpawnOptions o;
  o.argv = {"/bin/sh", (pgms_ / "loop.sh").string(), std::to_string(p_.scripts_per_loop)};
  o.cwd = l.dir;
  o.env = env_;
  o.stderr_fd = l.stderr_capture.fd();
  l.stderr_capture.clear();
  l.started = Clock::now();
  try {
    l.pgid = children_.spawn(o, [this, &l, alive = alive_](int st) {
      if (*alive) loop_exited(l, st);
    });
    l.busy = true;
  } catch (const std::exception& e) {
    note_failure(l, e.what());
  }
}

// UnixBench's Run starts each copy as `looper <s> multi.sh <n> 2>&1 >/dev/null` with its
// output on a pipe and takes the copy's time from its start to EOF on that pipe: the looper
// exits at its alarm, but the multi.sh it was running keeps the pipe open until it ends.
void ShellRun::start_looper(Looper& l) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return note_failure(l, std::string("pipe2: ") + std::strerror(errno));
  SpawnOptions o;
  o.argv = {(pgms_ / "looper").string(), std::to_string(static_cast<long>(p_.duration_s)),
            (pgms_ / "multi.sh").string(), std::to_string(p_.scripts_per_loop)};
  o.cwd = l.dir;
  o.env = env_;
  o.stderr_fd = fds[1];
  l.output.clear();
  l.status.reset();
  l.started = Clock::now();
  try {
    l.pgid = children_.spawn(o, [this, &l, alive = alive_](int st) {
      if (*alive) looper_exited(l, st);
    });
    l.busy = true;
  } catch (const std::exception& e) {
    ::close(fds[0]);
    ::close(fds[1]);
    return note_failure(l, e.what());
  }
  ::close(fds[1]);
  l.pipe = std::make_unique<boost::asio::posix::stream_descriptor>(io_, fds[0]);
  read_looper(l);
}

void ShellRun::read_looper(Looper& l) {
  l.pipe->async_read_some(boost::asio::buffer(l.chunk), [this, &l, alive = alive_](const boost::system::error_code& ec, std::size_t n) {
    if (!*alive) return;
    l.output.append(l.chunk.data(), n);
    if (l.output.size() > 64 * 1024) l.output.erase(0, l.output.size() - 64 * 1024);
    if (!ec) return read_looper(l);
    l.elapsed_s = since(l.started);  // EOF (or a read error): the copy is over for Run
    l.pipe.reset();
    if (l.status) looper_reported(l);
  });
}

void ShellRun::note_failure(const Looper& l, const std::string& what) {
  ++report_.failures;
  ++total_failures_;
  if (failure_examples_.size() < kMaxFailureExamples)
    failure_examples_.push_back("pass " + std::to_string(pass_) + ", copy " + std::to_string(l.index) + ": " + what);
}

void ShellRun::loop_exited(Looper& l, int st) {
  l.busy = false;
  if (!in_window_) {  // finished after the window: not counted (UnixBench counts complete loops)
    l.elapsed_s = since(t0_);
    maybe_finish_pass();
    return;
  }
  const bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  if (ok) {
    ++report_.loops;
    histogram_add(report_.latency, since(l.started));
  }
  // A pipeline command that failed writes to stderr; multi.sh's plain `wait` hides its status.
  if (!ok || !l.stderr_capture.contents(1).empty())
    note_failure(l, describe_status(st) + ": " + l.stderr_capture.contents(kMaxExampleBytes));
  // The other copies' loops are in flight, their files in place: where their inodes landed.
  // The agent is awake for the exit anyway; a scan is a getdents per load directory.
  if (placement_) placement_->scan();
  start_loop(l);
}

void ShellRun::looper_exited(Looper& l, int st) {
  l.busy = false;
  l.status = st;
  if (!l.pipe) looper_reported(l);  // its pipe is at EOF already
  if (std::none_of(loopers_.begin(), loopers_.end(), [](const auto& x) { return x->busy; })) end_window();
}

void ShellRun::looper_reported(Looper& l) {
  const int st = *l.status;
  const auto count = parse_looper_count(l.output);
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && count) {
    report_.loops += *count;
  } else {
    l.elapsed_s = -1;  // not a copy Run could use
    note_failure(l, "UnixBench looper: " + describe_status(st) + ": " + l.output.substr(0, kMaxExampleBytes));
  }
  maybe_finish_pass();
}

void ShellRun::on_window() {
  if (!unixbench()) return end_window();
  if (placement_) placement_->scan();  // UnixBench's loopers end the pass themselves
  kill_timer_.expires_after(kDrainTimeout);  // a looper still running then is hung: kill it
  kill_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (!ec && *alive) children_.signal_all(SIGKILL);
  });
}

void ShellRun::end_window() {
  if (!in_window_) return;
  if (placement_) placement_->scan();
  in_window_ = false;
  t_end_ = Clock::now();
  sample_timer_.cancel();
  window_timer_.cancel();
  sampler_->snapshot_into(pass_end_);
  rss_seen_kib_ = std::max(rss_seen_kib_, current_rss_kib());
  report_.window_s = unixbench() ? p_.duration_s : std::chrono::duration<double>(t_end_ - t0_).count();
  if (!unixbench())
    for (auto& l : loopers_)
      if (!l->busy) l->elapsed_s = report_.window_s;  // no loop in flight: the copy ended with the window
  report_.counters = delta(pass_start_, pass_end_);
  emit_sample(report_.window_s, delta(last_sample_, pass_end_));  // the window's end
  if (placement_) report_.placement = placement_->result();
  if (attribution_) attribution_->stop();  // cheap; reading it waits until the loops in flight ended
  kill_timer_.expires_after(kDrainTimeout);
  kill_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive) return;
    children_.signal_all(SIGKILL);
    for (const auto& l : loopers_)
      if (l->pgid > 0) ::kill(-l->pgid, SIGKILL);
  });
  maybe_finish_pass();
}

bool ShellRun::groups_alive() const {
  return std::any_of(loopers_.begin(), loopers_.end(), [](const auto& l) { return l->pgid > 0 && ::kill(-l->pgid, 0) == 0; });
}

void ShellRun::maybe_finish_pass() {
  if (in_window_ || finishing_) return;
  for (const auto& l : loopers_)
    if (l->busy || l->pipe) return;
  if (unixbench() && groups_alive()) {
    pause_timer_.expires_after(kDrainPoll);
    pause_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
      if (!ec && *alive) maybe_finish_pass();
    });
    return;
  }
  finishing_ = true;
  kill_timer_.cancel();
  finish_pass();
}

void ShellRun::finish_pass() {
  // UnixBench's Run: a pass's time is its copies' mean elapsed time, each copy's until its
  // last loop has ended (runOnePass, commandBuffered).
  double sum = 0;
  unsigned n = 0;
  for (const auto& l : loopers_)
    if (l->elapsed_s >= 0) sum += l->elapsed_s, ++n;
  report_.duration_s = n > 0 ? std::max(sum / n, report_.window_s) : report_.window_s;
  report_.lpm = report_.duration_s > 0 ? double(report_.loops) * 60.0 / report_.duration_s : 0;
  for (auto& l : loopers_) l->elapsed_s = -1;
  if (attribution_) report_.attribution = attribution_->end_pass();
  emit_(report_);
  done_passes_.push_back(report_);
  ++pass_;
  if (pass_ >= p_.passes) return finish_run();
  settle(0);
}

std::string ShellRun::drop_caches() {
  // 3 = page cache + reclaimable slab (dentries, inodes): Documentation/admin-guide/sysctl/vm.rst.
  const char* path = "/proc/sys/vm/drop_caches";
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::string("cannot open ") + path + ": " + std::strerror(errno);
  const bool ok = ::write(fd, "3\n", 2) == 2;
  const std::string err = ok ? "" : std::string("cannot write ") + path + ": " + std::strerror(errno);
  ::close(fd);
  return err;
}

void ShellRun::finish_run() {
  protocol::Result r;
  r.id = p_.id;
  r.workload = p_.workload;
  std::vector<double> lpm;
  for (const auto& p : done_passes_) lpm.push_back(p.lpm);
  r.score = protocol::unixbench_score(lpm);
  r.passes = done_passes_;
  for (auto& p : r.passes) p.attribution.reset();  // sent with each pass; keeps the result small
  r.failures = total_failures_;
  r.failure_examples = failure_examples_;
  r.agent_max_rss_kib = peak_rss_kib(std::max(rss_seen_kib_, current_rss_kib()));
  r.agent_cpu_s = thread_cpu_s() - cpu_at_start_;
  sampler_.reset();  // removes the tracepoint counters
  attribution_.reset();  // and the attribution's triggers
  *alive_ = false;
  emit_(std::move(r));
  if (done_) done_();
}

}  // namespace rlab::agent
