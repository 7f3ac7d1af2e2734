// perf_event_open(2) sampling; record layouts: include/uapi/linux/perf_event.h.
#include "attribution/oncpu.hpp"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/fileio.hpp"

namespace rlab::agent {
namespace {

constexpr std::size_t kDataPages = 8;  // per CPU; a power of two. 512 KiB with 64K pages.

// The ring's head/tail protocol (perf_event.h): read data_head with acquire, publish
// data_tail with release.
__u64 load_acquire(const __u64* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
void store_release(__u64* p, __u64 v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

}  // namespace

Kallsyms::Kallsyms(const std::string& text) {
  std::vector<std::pair<std::uint64_t, std::string>> all;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    // "ffff800080010000 T _text" or "... t name\t[module]"
    const auto s1 = line.find(' ');
    if (s1 == std::string_view::npos || s1 + 3 > line.size()) continue;
    const char type = line[s1 + 1];
    if (type != 't' && type != 'T' && type != 'w' && type != 'W') continue;
    std::string_view name = line.substr(s1 + 3);
    if (const auto tab = name.find_first_of("\t "); tab != std::string_view::npos) name = name.substr(0, tab);
    const std::uint64_t addr = std::strtoull(std::string(line.substr(0, s1)).c_str(), nullptr, 16);
    if (addr != 0 && !name.empty()) all.emplace_back(addr, std::string(name));
  }
  std::sort(all.begin(), all.end());
  for (auto& [a, n] : all) {
    addrs_.push_back(a);
    names_.push_back(std::move(n));
  }
}

std::string Kallsyms::name(std::uint64_t addr) const {
  auto it = std::upper_bound(addrs_.begin(), addrs_.end(), addr);
  if (it == addrs_.begin()) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
    return buf;
  }
  return names_[static_cast<std::size_t>(it - addrs_.begin()) - 1];
}

std::shared_ptr<const Kallsyms> Kallsyms::load() {
  const auto text = read_file("/proc/kallsyms");
  if (!text) throw std::runtime_error("cannot read /proc/kallsyms (CONFIG_KALLSYMS)");
  auto syms = std::make_shared<const Kallsyms>(*text);
  if (syms->size() == 0) throw std::runtime_error("/proc/kallsyms holds no addresses (kptr_restrict?)");
  return syms;
}

std::unique_ptr<OnCpuSampler> OnCpuSampler::open(std::uint64_t period_ns, std::shared_ptr<const Kallsyms> syms) {
  std::unique_ptr<OnCpuSampler> s(new OnCpuSampler);
  s->period_ns_ = period_ns;
  s->page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  s->syms_ = std::move(syms);
  const long ncpu = sysconf(_SC_NPROCESSORS_CONF);
  for (long cpu = 0; cpu < ncpu; ++cpu) {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_SOFTWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = period_ns;
    attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
    attr.exclude_callchain_user = 1;
    attr.comm = 1;
    attr.comm_exec = 1;
    attr.task = 1;  // FORK records: a child is named after its parent until it execs
    attr.exclude_idle = 1;  // the idle task's time is not the load's
    attr.disabled = 1;
    const int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, static_cast<int>(cpu), -1, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0) {
      if (errno == ENODEV) continue;  // offline CPU
      throw std::runtime_error("perf_event_open(cpu-clock, cpu " + std::to_string(cpu) + "): " + std::strerror(errno));
    }
    Ring r;
    r.fd = fd;
    r.data_bytes = kDataPages * s->page_;
    r.bytes = r.data_bytes + s->page_;
    r.base = ::mmap(nullptr, r.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (r.base == MAP_FAILED) {
      const int e = errno;
      ::close(fd);
      throw std::runtime_error("mmap of the perf ring (cpu " + std::to_string(cpu) + "): " + std::strerror(e));
    }
    s->rings_.push_back(r);
  }
  if (s->rings_.empty()) throw std::runtime_error("perf_event_open: no online CPU");
  s->enable(true);
  return s;
}

OnCpuSampler::~OnCpuSampler() {
  for (auto& r : rings_) {
    ::ioctl(r.fd, PERF_EVENT_IOC_DISABLE, 0);
    ::munmap(r.base, r.bytes);
    ::close(r.fd);
  }
}

void OnCpuSampler::reset() {
  poll();  // consume what is buffered (keeps the task names it carries)
  counts_.clear();
  lost_ = 0;
}

void OnCpuSampler::enable(bool on) {
  for (const auto& r : rings_) ::ioctl(r.fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

void OnCpuSampler::poll() {
  for (auto& r : rings_) drain(r);
}

void OnCpuSampler::drain(Ring& r) {
  auto* meta = static_cast<perf_event_mmap_page*>(r.base);
  const auto* data = static_cast<const unsigned char*>(r.base) + page_;
  const std::uint64_t head = load_acquire(&meta->data_head);
  std::uint64_t tail = meta->data_tail;
  while (tail + sizeof(perf_event_header) <= head) {
    perf_event_header h;
    for (std::size_t i = 0; i < sizeof h; ++i)
      reinterpret_cast<unsigned char*>(&h)[i] = data[(tail + i) % r.data_bytes];
    if (h.size < sizeof h || tail + h.size > head) break;
    rec_.resize(h.size);
    const std::size_t at = tail % r.data_bytes, first = std::min<std::size_t>(h.size, r.data_bytes - at);
    std::memcpy(rec_.data(), data + at, first);
    std::memcpy(rec_.data() + first, data, h.size - first);
    record(rec_.data() + sizeof h, h.size - sizeof h, h.type);
    tail += h.size;
  }
  store_release(&meta->data_tail, tail);
}

void OnCpuSampler::record(const unsigned char* p, std::size_t size, std::uint32_t type) {
  auto u32 = [&](std::size_t off) {
    std::uint32_t v;
    std::memcpy(&v, p + off, 4);
    return v;
  };
  auto u64 = [&](std::size_t off) {
    std::uint64_t v;
    std::memcpy(&v, p + off, 8);
    return v;
  };
  if (type == PERF_RECORD_COMM && size > 8) {  // pid, tid, comm[]
    const char* c = reinterpret_cast<const char*>(p + 8);
    comms_[u32(4)] = intern(std::string(c, strnlen(c, size - 8)));
  } else if (type == PERF_RECORD_FORK && size >= 16) {  // pid, ppid, tid, ptid, time
    comms_[u32(8)] = comm_of(u32(12));
  } else if (type == PERF_RECORD_EXIT && size >= 16) {
    comms_.erase(u32(8));
  } else if (type == PERF_RECORD_LOST && size >= 16) {  // id, lost
    lost_ += u64(8);
  } else if (type == PERF_RECORD_SAMPLE && size >= 16) {  // pid, tid, nr, ips[nr]
    const std::uint32_t tid = u32(4);
    const std::uint64_t nr = u64(8);
    if (16 + nr * 8 > size) return;
    std::vector<std::uint64_t> key;
    key.reserve(nr + 1);
    for (std::uint64_t i = 0; i < nr; ++i) {
      const std::uint64_t ip = u64(16 + i * 8);
      if (ip < static_cast<std::uint64_t>(PERF_CONTEXT_MAX)) key.push_back(ip);  // not a context marker
    }
    key.push_back(comm_of(tid));
    ++counts_[std::move(key)];
  }
}

std::uint32_t OnCpuSampler::intern(const std::string& name) {
  const auto [it, added] = name_ids_.try_emplace(name, static_cast<std::uint32_t>(names_.size()));
  if (added) names_.push_back(name);
  return it->second;
}

std::uint32_t OnCpuSampler::comm_of(std::uint32_t tid) {
  if (auto it = comms_.find(tid); it != comms_.end()) return it->second;
  std::string name = "?";
  if (tid == 0) name = "swapper";
  else if (auto c = read_file("/proc/" + std::to_string(tid) + "/comm")) {
    name = *c;
    while (!name.empty() && name.back() == '\n') name.pop_back();
  }
  return comms_[tid] = intern(name);
}

std::vector<protocol::StackRow> OnCpuSampler::rows() const {
  std::vector<protocol::StackRow> out;
  for (const auto& [key, n] : counts_) {
    protocol::StackRow r;
    r.family = "oncpu";
    for (std::size_t i = 0; i + 1 < key.size(); ++i) r.frames.push_back(syms_->name(key[i]));
    if (r.frames.empty()) r.frames.push_back("[user]");
    r.frames.push_back("[" + names_.at(key.back()) + "]");
    r.count = n;
    r.total_ns = n * period_ns_;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace rlab::agent
