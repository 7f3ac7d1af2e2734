// On-CPU sampling: perf_event_open(2) cpu-clock events (include/uapi/linux/perf_event.h)
// with bpf/oncpu.bpf.c attached by libbpf.
#include "attribution/oncpu.hpp"

#include "attribution/libbpf_util.hpp"
#include "common/fileio.hpp"

#include "oncpu.h"
#include "oncpu.skel.h"  // generated at build time from bpf/oncpu.bpf.c

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rlab::agent {

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
  s->syms_ = std::move(syms);
  bpf::keep_libbpf_log();
  s->skel_ = oncpu_bpf::open_and_load();
  if (!s->skel_) throw bpf::libbpf_error("libbpf: load the on-CPU program (bpf/oncpu.bpf.c)", errno);
  const long ncpu = sysconf(_SC_NPROCESSORS_CONF);
  for (long cpu = 0; cpu < ncpu; ++cpu) {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_SOFTWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = period_ns;
    attr.exclude_idle = 1;  // the idle task's time is not the load's
    attr.disabled = 1;
    const int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, static_cast<int>(cpu), -1, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0) {
      if (errno == ENODEV) continue;  // offline CPU
      throw std::runtime_error("perf_event_open(cpu-clock, cpu " + std::to_string(cpu) + "): " + std::strerror(errno));
    }
    s->events_.push_back(fd);
    bpf_link* l = bpf_program__attach_perf_event(s->skel_->progs.on_sample, fd);  // enables the event
    if (!l) throw bpf::libbpf_error("libbpf: attach the on-CPU program to cpu " + std::to_string(cpu), errno);
    s->links_.push_back(l);
  }
  if (s->events_.empty()) throw std::runtime_error("perf_event_open: no online CPU");
  return s;
}

OnCpuSampler::~OnCpuSampler() {
  enable(false);
  for (bpf_link* l : links_) bpf_link__destroy(l);
  for (int fd : events_) ::close(fd);
  oncpu_bpf::destroy(skel_);
}

void OnCpuSampler::reset() {
  bpf::clear_map(bpf_map__fd(skel_->maps.samples), sizeof(oncpu_key));
  bpf::clear_map(bpf_map__fd(skel_->maps.oncpu_stacks), sizeof(std::uint32_t));
  const std::uint32_t zero = 0;
  const std::uint64_t none = 0;
  bpf_map_update_elem(bpf_map__fd(skel_->maps.oncpu_drops), &zero, &none, BPF_ANY);
}

void OnCpuSampler::enable(bool on) {
  for (int fd : events_) ::ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

std::uint64_t OnCpuSampler::lost() const {
  const std::uint32_t zero = 0;
  std::uint64_t n = 0;
  return bpf_map_lookup_elem(bpf_map__fd(skel_->maps.oncpu_drops), &zero, &n) == 0 ? n : 0;
}

std::vector<protocol::StackRow> OnCpuSampler::rows() const {
  const int samples = bpf_map__fd(skel_->maps.samples), stacks = bpf_map__fd(skel_->maps.oncpu_stacks);
  std::vector<protocol::StackRow> out;
  bpf::for_each_entry<oncpu_key, std::uint64_t>(samples, [&](const oncpu_key& key, std::uint64_t n) {
    protocol::StackRow r;
    r.family = "oncpu";
    for (std::uint64_t ip : bpf::read_stack(stacks, key.stack_id, ONCPU_FRAMES)) r.frames.push_back(syms_->name(ip));
    if (r.frames.empty()) r.frames.push_back(key.stack_id == -EFAULT ? "[user]" : "[no stack]");
    r.frames.push_back("[" + std::string(key.comm, strnlen(key.comm, sizeof key.comm)) + "]");
    r.count = n;
    r.total_ns = n * period_ns_;
    out.push_back(std::move(r));
  });
  return out;
}

}  // namespace rlab::agent
