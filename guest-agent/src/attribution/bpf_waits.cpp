// The BPF wait collectors' loader: the programs are bpf/waits.bpf.c (their logic in
// bpf_waits.hpp), embedded as the bpftool skeleton waits.skel.h and loaded by libbpf.
#include "attribution/bpf_waits.hpp"

#include "attribution/libbpf_util.hpp"

#include "waits.skel.h"  // generated at build time from bpf/waits.bpf.c
#include "waits.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rlab::agent {

static_assert(BpfWaits::kFrames == WAITS_FRAMES, "bpf/waits.h and BpfWaits::kFrames disagree");
static_assert(sizeof(waits_key) == 32 && sizeof(waits_val) == 16);

std::unique_ptr<BpfWaits> BpfWaits::open(bool with_s) {
  bpf::keep_libbpf_log();
  std::unique_ptr<BpfWaits> w(new BpfWaits);
  w->skel_ = waits_bpf::open();
  if (!w->skel_) throw bpf::libbpf_error("libbpf: open the wait programs (bpf/waits.bpf.c)", errno);
  bpf_program* sleeps = with_s ? w->skel_->progs.on_sched_switch_ds : w->skel_->progs.on_sched_switch_d;
  bpf_program__set_autoload(with_s ? w->skel_->progs.on_sched_switch_d : w->skel_->progs.on_sched_switch_ds, false);
  if (const int err = waits_bpf::load(w->skel_); err != 0)
    throw bpf::libbpf_error("libbpf: load the wait programs (bpf/waits.bpf.c)", -err);
  w->progs_ = {{"sched_switch", sleeps},
               {"contention_begin", w->skel_->progs.on_contention_begin},
               {"contention_end", w->skel_->progs.on_contention_end}};
  // Which tracepoints this kernel has: attach each once.
  std::vector<std::string> missing;
  for (auto& p : w->progs_) {
    bpf_link* link = bpf_program__attach_raw_tracepoint(p.prog, p.tracepoint);
    if (!link) missing.push_back(std::string(p.tracepoint) + ": " + std::strerror(errno));
    else bpf_link__destroy(link);
  }
  bpf::forget_libbpf_log();  // the attach attempts' complaints are said below
  auto lacks = [&](std::string_view tp) {
    for (const auto& m : missing)
      if (m.rfind(tp, 0) == 0) return true;
    return false;
  };
  w->offcpu_ = !lacks("sched_switch");
  w->lock_ = !lacks("contention_begin") && !lacks("contention_end");
  for (const auto& m : missing)
    w->unavailable_ += (w->unavailable_.empty() ? "" : "; ") + std::string(m.rfind("sched", 0) == 0 ? "offcpu" : "lock") +
                       ": no raw tracepoint " + m;
  if (!w->offcpu_ && !w->lock_) throw std::runtime_error(w->unavailable_);
  return w;
}

BpfWaits::~BpfWaits() {
  stop();
  waits_bpf::destroy(skel_);
}

void BpfWaits::start() {
  stop();
  bpf::clear_map(bpf_map__fd(skel_->maps.offcpu_start), sizeof(std::uint64_t));
  bpf::clear_map(bpf_map__fd(skel_->maps.lock_start), 2 * sizeof(std::uint64_t));
  bpf::clear_map(bpf_map__fd(skel_->maps.counts), sizeof(waits_key));
  bpf::clear_map(bpf_map__fd(skel_->maps.stacks), sizeof(std::uint32_t));
  const std::uint32_t zero = 0;
  const std::uint64_t none = 0;
  bpf_map_update_elem(bpf_map__fd(skel_->maps.drops), &zero, &none, BPF_ANY);
  for (auto& p : progs_) {
    const bool sched = std::string_view(p.tracepoint) == "sched_switch";
    if (sched ? !offcpu_ : !lock_) continue;
    p.link = bpf_program__attach_raw_tracepoint(p.prog, p.tracepoint);
    if (!p.link) throw bpf::libbpf_error(std::string("libbpf: attach to raw tracepoint ") + p.tracepoint, errno);
  }
}

void BpfWaits::stop() {
  for (auto& p : progs_) {
    bpf_link__destroy(p.link);  // takes nullptr
    p.link = nullptr;
  }
}

std::vector<WaitEntry> BpfWaits::entries() const {
  const int counts = bpf_map__fd(skel_->maps.counts), stacks = bpf_map__fd(skel_->maps.stacks);
  std::vector<WaitEntry> out;
  bpf::for_each_entry<waits_key, waits_val>(counts, [&](const waits_key& key, const waits_val& v) {
    WaitEntry e;
    e.state = static_cast<std::uint32_t>(key.state);
    e.comm.assign(key.comm, strnlen(key.comm, sizeof key.comm));
    const std::uint64_t scale = e.state == 1 ? WAITS_S_SAMPLE : 1;  // S sleeps are sampled (waits.h)
    e.count = v.count * scale;
    e.total_ns = v.total_ns * scale;
    e.ips = bpf::read_stack(stacks, key.stack_id, WAITS_FRAMES);
    out.push_back(std::move(e));
  });
  return out;
}

std::uint64_t BpfWaits::dropped() const {
  const std::uint32_t zero = 0;
  std::uint64_t n = 0;
  return bpf_map_lookup_elem(bpf_map__fd(skel_->maps.drops), &zero, &n) == 0 ? n : 0;
}

}  // namespace rlab::agent
