#include "shell_run.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <boost/asio/post.hpp>

#include "fileio.hpp"
#include "rlab/protocol/score.hpp"
#include "sysinfo.hpp"
#include "workload_files.hpp"

namespace rlab::agent {
namespace fs = std::filesystem;

namespace {
constexpr std::size_t kMaxFailureExamples = 3;
constexpr std::size_t kMaxExampleBytes = 4096;
/// A loop still running this long after the window closed is killed (a hung script).
constexpr std::chrono::seconds kDrainTimeout{120};
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

struct ShellRun::Looper {
  explicit Looper(std::uint32_t i) : index(i), stderr_capture("rlab-loop-stderr") {}
  std::uint32_t index;
  fs::path dir;
  MemFile stderr_capture;
  bool busy = false;
  bool dead = false;  ///< could not start a loop this pass
  Clock::time_point started;
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

void ShellRun::start() {
  cpu_at_start_ = thread_cpu_s();
  std::error_code ec;
  const fs::path work(p_.workdir);
  fs::create_directories(work, ec);
  if (ec) throw std::runtime_error("run.workdir: cannot create " + work.string() + ": " + ec.message());
  for (std::uint32_t i = 0; i < p_.copies; ++i) {
    auto l = std::make_unique<Looper>(i);
    l->dir = work / ("copy" + std::to_string(i));
    fs::create_directories(l->dir, ec);
    if (ec) throw std::runtime_error("run.workdir: cannot create " + l->dir.string() + ": " + ec.message());
    if (!write_file(l->dir / "sort.src", sort_input_text()) || !write_file(l->dir / "copy.sh", copy_script_text()) ||
        !write_file(l->dir / "loop.sh", loop_script_text()))
      throw std::runtime_error("run.workdir: cannot write the load's files into " + l->dir.string());
    loopers_.push_back(std::move(l));
  }
  env_ = {"LANG=C", "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME=" + work.string()};
  sampler_ = std::make_unique<Sampler>(work);
  ::sync();
  if (p_.drop_caches) {
    if (auto err = drop_caches(); !err.empty()) throw std::runtime_error("run.drop_caches: " + err);
    caches_dropped_ = true;
  }
  begin_pass();
}

void ShellRun::abort() {
  if (!*alive_) return;
  *alive_ = false;
  window_timer_.cancel();
  sample_timer_.cancel();
  pause_timer_.cancel();
  kill_timer_.cancel();
  children_.signal_all(SIGKILL);
}

void ShellRun::begin_pass() {
  report_ = protocol::PassReport{};
  report_.caches_dropped = caches_dropped_;
  caches_dropped_ = false;
  report_.id = p_.id;
  report_.pass = pass_;
  report_.latency.bounds_s = default_latency_bounds();
  report_.latency.counts.assign(report_.latency.bounds_s.size() + 1, 0);
  sampler_->snapshot_into(pass_start_);
  last_sample_ = pass_start_;
  sample_no_ = 0;
  in_window_ = true;
  finishing_ = false;
  t0_ = Clock::now();
  for (auto& l : loopers_) {
    l->dead = false;
    start_loop(*l);
  }
  window_timer_.expires_at(t0_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(p_.duration_s)));
  window_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (!ec && *alive) end_window();
  });
  if (p_.sample_interval_s > 0) on_sample();
}

void ShellRun::on_sample() {
  ++sample_no_;
  sample_timer_.expires_at(t0_ + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(p_.sample_interval_s * double(sample_no_))));
  sample_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive || !in_window_) return;
    sampler_->snapshot_into(scratch_);
    protocol::Sample s;
    s.id = p_.id;
    s.pass = pass_;
    s.t_s = since(t0_);
    s.loops = report_.loops;
    s.failures = report_.failures;
    s.counters = delta(last_sample_, scratch_);
    std::swap(last_sample_, scratch_);
    emit_(std::move(s));
    on_sample();
  });
}

void ShellRun::start_loop(Looper& l) {
  SpawnOptions o;
  o.argv = {"/bin/sh", "./loop.sh", std::to_string(p_.scripts_per_loop)};
  o.cwd = l.dir;
  o.env = env_;
  o.stderr_fd = l.stderr_capture.fd();
  l.stderr_capture.clear();
  l.started = Clock::now();
  try {
    children_.spawn(o, [this, &l, alive = alive_](int st) {
      if (*alive) loop_exited(l, st);
    });
    l.busy = true;
  } catch (const std::exception& e) {
    l.dead = true;
    ++report_.failures;
    ++total_failures_;
    if (failure_examples_.size() < kMaxFailureExamples) failure_examples_.push_back(e.what());
  }
}

void ShellRun::loop_exited(Looper& l, int st) {
  l.busy = false;
  if (!in_window_) {  // finished after the window: not counted (UnixBench counts complete loops)
    maybe_finish_pass();
    return;
  }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
    ++report_.loops;
    histogram_add(report_.latency, since(l.started));
  } else {
    ++report_.failures;
    ++total_failures_;
    if (failure_examples_.size() < kMaxFailureExamples) {
      std::string ex = "pass " + std::to_string(pass_) + ", copy " + std::to_string(l.index) + ": " +
                       describe_status(st) + ": " + l.stderr_capture.contents(kMaxExampleBytes);
      failure_examples_.push_back(std::move(ex));
    }
  }
  start_loop(l);
}

void ShellRun::end_window() {
  in_window_ = false;
  t_end_ = Clock::now();
  sample_timer_.cancel();
  sampler_->snapshot_into(pass_end_);
  rss_seen_kib_ = std::max(rss_seen_kib_, current_rss_kib());
  report_.duration_s = std::chrono::duration<double>(t_end_ - t0_).count();
  report_.lpm = report_.duration_s > 0 ? double(report_.loops) * 60.0 / report_.duration_s : 0;
  report_.counters = delta(pass_start_, pass_end_);
  kill_timer_.expires_after(kDrainTimeout);
  kill_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (!ec && *alive) children_.signal_all(SIGKILL);
  });
  maybe_finish_pass();
}

void ShellRun::maybe_finish_pass() {
  if (in_window_ || finishing_) return;
  for (const auto& l : loopers_)
    if (l->busy) return;
  finishing_ = true;
  kill_timer_.cancel();
  finish_pass();
}

void ShellRun::finish_pass() {
  emit_(report_);
  done_passes_.push_back(report_);
  ++pass_;
  if (pass_ >= p_.passes) {
    finish_run();
    return;
  }
  // sync(2) and dropping the caches may take long on a slow disk: keep serving meanwhile.
  std::thread([this, alive = alive_, &io = io_, drop = p_.drop_caches] {
    ::sync();
    std::string err = drop ? drop_caches() : std::string();
    boost::asio::post(io, [this, alive, drop, err] {
      if (!*alive) return;
      if (drop && !err.empty()) std::fprintf(stderr, "rlab-agent: run.drop_caches: %s\n", err.c_str());
      caches_dropped_ = drop && err.empty();
      after_sync();
    });
  }).detach();
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

void ShellRun::after_sync() {
  pause_timer_.expires_after(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(p_.pause_s)));
  pause_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (!ec && *alive) begin_pass();
  });
}

void ShellRun::finish_run() {
  protocol::Result r;
  r.id = p_.id;
  r.workload = p_.workload;
  std::vector<double> lpm;
  for (const auto& p : done_passes_) lpm.push_back(p.lpm);
  r.score = protocol::unixbench_score(lpm);
  r.passes = done_passes_;
  r.failures = total_failures_;
  r.failure_examples = failure_examples_;
  r.agent_max_rss_kib = peak_rss_kib(std::max(rss_seen_kib_, current_rss_kib()));
  r.agent_cpu_s = thread_cpu_s() - cpu_at_start_;
  sampler_.reset();  // removes the tracepoint counters
  *alive_ = false;
  emit_(std::move(r));
  if (done_) done_();
}

}  // namespace rlab::agent
