#include "counters/sampler.hpp"

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include <cstdio>

#include "common/fileio.hpp"

namespace rlab::agent {
namespace fs = std::filesystem;

namespace {
constexpr long kXfsMagic = 0x58465342;  // "XFSB"
}

std::optional<fs::path> xfs_stats_file(const fs::path& path) {
  std::error_code ec;
  struct statfs sfs {};
  struct stat st {};
  if (::statfs(path.c_str(), &sfs) == 0 && sfs.f_type == kXfsMagic && ::stat(path.c_str(), &st) == 0) {
    // /sys/dev/block/<maj>:<min> -> ../../devices/.../<name>; XFS names its sysfs dir after it.
    const fs::path link = "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
    const fs::path target = fs::read_symlink(link, ec);
    if (!ec) {
      const fs::path per_dev = fs::path("/sys/fs/xfs") / target.filename() / "stats" / "stats";
      if (fs::exists(per_dev, ec)) return per_dev;
    }
  }
  for (const char* p : {"/sys/fs/xfs/stats/stats", "/proc/fs/xfs/stat"})
    if (fs::exists(p, ec)) return fs::path(p);
  return std::nullopt;
}

Sampler::Sampler(const fs::path& workdir)
    : tracepoints_(TracepointCounters::open()), xfs_stats_(xfs_stats_file(workdir)) {}

namespace {
/// Runs one source's parser; a parse failure leaves that source empty (logged), never kills
/// the run.
template <class F>
void guarded(const char* what, F f) {
  try {
    f();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rlab-agent: %s: %s\n", what, e.what());
  }
}
}  // namespace

void Sampler::snapshot_into(Snapshot& s) const {
  s.tracepoints = tracepoints_->read();
  if (xfs_stats_)
    guarded("xfs stats", [&] {
      if (auto t = read_file(*xfs_stats_)) parse_xfs_stats_into(*t, s.xfs_stats);
    });
  guarded("/proc/stat", [&] {
    if (auto t = read_file("/proc/stat")) s.stat = parse_proc_stat(*t);
  });
  s.pressure.clear();
  for (const char* r : {"cpu", "io", "memory"})
    guarded("/proc/pressure", [&] {
      if (auto t = read_file(std::string("/proc/pressure/") + r))
        for (auto& [k, v] : parse_pressure(*t, r)) s.pressure[k] = v;
    });
  guarded("/proc/vmstat", [&] {
    if (auto t = read_file("/proc/vmstat")) parse_vmstat_into(*t, s.vmstat);
  });
}

}  // namespace rlab::agent
