// The BPF wait collectors; the programs' logic is in bpf_waits.hpp. Instruction encoding:
// include/uapi/linux/bpf.h and Documentation/bpf/standardization/instruction-set.rst.
#include "attribution/bpf_waits.hpp"

#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>

namespace rlab::agent {
namespace {

constexpr std::uint32_t kTasks = 16384;   ///< tasks asleep or waiting at once (saved starts)
constexpr std::uint32_t kCounts = 8192;   ///< distinct {stack, state, comm} per pass
/// Stack map buckets: two distinct stacks hashing to one bucket leave the second without a stack
/// id (bpf_get_stackid -EEXIST), counted under "[no stack]"; a few hundred distinct stacks a
/// pass make that rare at 16,384.
constexpr std::uint32_t kStacks = 16384;

/// The saved switch-out of a task (the off-CPU `start` map's value), as the program stores it.
struct Saved {
  std::uint64_t ts;
  std::int64_t stack_id;
  std::uint64_t state;
  char comm[16];
};
/// The `counts` map's key and value.
struct CountKey {
  std::int64_t stack_id;
  std::uint64_t state;
  char comm[16];
};
struct CountVal {
  std::uint64_t count;
  std::uint64_t total_ns;
};

long sys_bpf(int cmd, bpf_attr& attr) { return syscall(SYS_bpf, cmd, &attr, sizeof(attr)); }

std::runtime_error bpf_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

int create_map(bpf_map_type type, std::uint32_t key, std::uint32_t value, std::uint32_t entries, const char* name) {
  bpf_attr a{};
  a.map_type = type;
  a.key_size = key;
  a.value_size = value;
  a.max_entries = entries;
  const long fd = sys_bpf(BPF_MAP_CREATE, a);
  if (fd < 0) throw bpf_error(std::string("bpf(BPF_MAP_CREATE, ") + name + ")");
  return static_cast<int>(fd);
}

/// A BPF program under construction, with forward jumps to named labels.
class Asm {
 public:
  void emit(std::uint8_t code, int dst, int src, std::int16_t off, std::int32_t imm) {
    bpf_insn i{};
    i.code = code;
    i.dst_reg = static_cast<std::uint8_t>(dst);
    i.src_reg = static_cast<std::uint8_t>(src);
    i.off = off;
    i.imm = imm;
    code_.push_back(i);
  }
  void mov(int dst, int src) { emit(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0); }
  void mov32(int dst, int src) { emit(BPF_ALU | BPF_MOV | BPF_X, dst, src, 0, 0); }  // zero-extends
  void movi(int dst, std::int32_t imm) { emit(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm); }
  void addi(int dst, std::int32_t imm) { emit(BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm); }
  void andi(int dst, std::int32_t imm) { emit(BPF_ALU64 | BPF_AND | BPF_K, dst, 0, 0, imm); }
  void sub(int dst, int src) { emit(BPF_ALU64 | BPF_SUB | BPF_X, dst, src, 0, 0); }
  void load(int dst, int src, std::int16_t off) { emit(BPF_LDX | BPF_DW | BPF_MEM, dst, src, off, 0); }
  void store(int dst, std::int16_t off, int src) { emit(BPF_STX | BPF_DW | BPF_MEM, dst, src, off, 0); }
  void storei(int dst, std::int16_t off, std::int32_t imm, std::uint8_t size = BPF_DW) {
    emit(BPF_ST | size | BPF_MEM, dst, 0, off, imm);
  }
  void atomic_add(int dst, std::int16_t off, int src) { emit(BPF_STX | BPF_DW | BPF_ATOMIC, dst, src, off, BPF_ADD); }
  void call(std::int32_t helper) { emit(BPF_JMP | BPF_CALL, 0, 0, 0, helper); }
  void exit() { emit(BPF_JMP | BPF_EXIT, 0, 0, 0, 0); }
  void map_fd(int dst, int fd) {
    emit(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
    emit(0, 0, 0, 0, 0);
  }
  /// r<dst> = r10 + off: a pointer into the program's stack.
  void frame(int dst, std::int32_t off) { mov(dst, 10), addi(dst, off); }
  /// if (r<reg> <op> imm) goto label; op BPF_JEQ, BPF_JNE, ...
  void jump_if(std::uint8_t op, int reg, std::int32_t imm, const std::string& label) {
    fixups_.emplace_back(code_.size(), label);
    emit(BPF_JMP | op | BPF_K, reg, 0, 0, imm);
  }
  void jump(const std::string& label) {
    fixups_.emplace_back(code_.size(), label);
    emit(BPF_JMP | BPF_JA, 0, 0, 0, 0);
  }
  void label(const std::string& name) { labels_[name] = code_.size(); }
  std::vector<bpf_insn> finish() {
    for (const auto& [at, name] : fixups_)
      code_[at].off = static_cast<std::int16_t>(static_cast<long>(labels_.at(name)) - static_cast<long>(at) - 1);
    return code_;
  }

 private:
  std::vector<bpf_insn> code_;
  std::vector<std::pair<std::size_t, std::string>> fixups_;
  std::map<std::string, std::size_t> labels_;
};

// The programs' stack frame (offsets from r10).
constexpr std::int16_t kSaved = -40;      // Saved (40 bytes): ts -40, stack_id -32, state -24, comm -16
constexpr std::int16_t kTaskKey = -48;    // the task pointer, key of the off-CPU start map
constexpr std::int16_t kCountKey = -80;   // CountKey (32 bytes)
constexpr std::int16_t kCountVal = -96;   // CountVal (16 bytes)
constexpr std::int16_t kDropKey = -100;   // u32 0, key of `drops`
constexpr std::int16_t kLockKey = -120;   // {pid_tgid, lock address}, key of the lock start map

/// r0 = bpf_map_update_elem(map, r10 + key, r10 + value, flags).
void map_update(Asm& a, int map, std::int16_t key, std::int16_t value, std::int32_t flags) {
  a.map_fd(1, map);
  a.frame(2, key);
  a.frame(3, value);
  a.movi(4, flags);
  a.call(BPF_FUNC_map_update_elem);
}

/// r0 = bpf_map_lookup_elem(map, r10 + key): the value's address or 0.
void map_lookup(Asm& a, int map, std::int16_t key) {
  a.map_fd(1, map);
  a.frame(2, key);
  a.call(BPF_FUNC_map_lookup_elem);
}

/// bpf_map_delete_elem(map, r10 + key).
void map_delete(Asm& a, int map, std::int16_t key) {
  a.map_fd(1, map);
  a.frame(2, key);
  a.call(BPF_FUNC_map_delete_elem);
}

/// drops[0] += 1, then falls through to `next`.
void count_drop(Asm& a, int drops, const std::string& next) {
  a.storei(10, kDropKey, 0, BPF_W);
  map_lookup(a, drops, kDropKey);
  a.jump_if(BPF_JEQ, 0, 0, next);
  a.movi(1, 1);
  a.atomic_add(0, 0, 1);
}

/// counts[CountKey at kCountKey] += (1, r8), then r0 = 0 and exit (label "exit").
void add_count_and_exit(Asm& a, int counts, int drops) {
  map_lookup(a, counts, kCountKey);
  a.jump_if(BPF_JEQ, 0, 0, "new");
  a.label("add");
  a.movi(1, 1);
  a.atomic_add(0, 0, 1);
  a.atomic_add(0, 8, 8);
  a.jump("exit");
  a.label("new");
  a.storei(10, kCountVal, 1);
  a.store(10, kCountVal + 8, 8);
  map_update(a, counts, kCountKey, kCountVal, BPF_NOEXIST);
  a.jump_if(BPF_JEQ, 0, 0, "exit");
  map_lookup(a, counts, kCountKey);  // another CPU added the key first
  a.jump_if(BPF_JNE, 0, 0, "add");
  count_drop(a, drops, "exit");
  a.label("exit");
  a.movi(0, 0);
  a.exit();
}

/// Saved's stack_id and ts at kSaved: the current task's kernel stack (r6 = the context) and now.
void save_stack_and_time(Asm& a, int stacks) {
  a.mov(1, 6);
  a.map_fd(2, stacks);
  a.movi(3, 0);
  a.call(BPF_FUNC_get_stackid);
  a.store(10, kSaved + 8, 0);
  a.call(BPF_FUNC_ktime_get_ns);
  a.store(10, kSaved, 0);
}

/// r6 = the context; {pid_tgid, the lock (the tracepoint's first argument)} at kLockKey.
void lock_key(Asm& a) {
  a.mov(6, 1);
  a.call(BPF_FUNC_get_current_pid_tgid);
  a.store(10, kLockKey, 0);
  a.load(1, 6, 0);
  a.store(10, kLockKey + 8, 1);
}

/// r8 = now - *(u64*)(r7 + 0): the wait whose saved start r7 points at.
void wait_since_saved(Asm& a) {
  a.call(BPF_FUNC_ktime_get_ns);
  a.load(1, 7, 0);
  a.sub(0, 1);
  a.mov(8, 0);
}

/// The off-CPU program on sched_switch; its context is the tracepoint's arguments as u64:
/// [0] preempt, [1] prev, [2] next, [3] prev_state.
std::vector<bpf_insn> offcpu_program(bool with_s, int start, int counts, int stacks, int drops) {
  Asm a;
  a.mov(6, 1);
  // Switch-out of prev.
  a.load(2, 6, 0);
  a.jump_if(BPF_JNE, 2, 0, "in");  // preempted: runnable, not asleep
  a.load(9, 6, 24);
  a.mov(3, 9);
  a.andi(3, 0x400);                 // TASK_NOLOAD: an idle wait (TASK_IDLE), not the load's
  a.jump_if(BPF_JNE, 3, 0, "in");
  a.andi(9, 0x7f);                  // TASK_REPORT
  a.jump_if(BPF_JEQ, 9, 2, "out");
  if (with_s) a.jump_if(BPF_JNE, 9, 1, "in");
  else a.jump("in");
  a.label("out");
  a.call(BPF_FUNC_get_current_pid_tgid);
  a.mov32(0, 0);
  a.jump_if(BPF_JEQ, 0, 1, "in");   // the agent itself
  a.store(10, kSaved + 16, 9);
  a.frame(1, kSaved + 24);
  a.movi(2, 16);
  a.call(BPF_FUNC_get_current_comm);
  save_stack_and_time(a, stacks);
  a.load(1, 6, 8);
  a.store(10, kTaskKey, 1);
  map_update(a, start, kTaskKey, kSaved, BPF_ANY);
  a.jump_if(BPF_JEQ, 0, 0, "in");
  count_drop(a, drops, "in");
  // Switch-in of next.
  a.label("in");
  a.load(1, 6, 16);
  a.store(10, kTaskKey, 1);
  map_lookup(a, start, kTaskKey);
  a.jump_if(BPF_JEQ, 0, 0, "exit");
  a.mov(7, 0);
  wait_since_saved(a);
  for (std::int16_t off = 8; off < 40; off += 8) {  // stack_id, state, comm: the count's key
    a.load(1, 7, off);
    a.store(10, static_cast<std::int16_t>(kCountKey + off - 8), 1);
  }
  map_delete(a, start, kTaskKey);
  add_count_and_exit(a, counts, drops);
  return a.finish();
}

/// The lock wait's start on lock:contention_begin(lock, flags), keyed by {task, lock} (a wait
/// inside a wait, e.g. the spin on a semaphore's own spinlock after wakeup, is its own entry):
/// the first begin of a wait is kept (a mutex that spins, then sleeps, begins twice before it
/// ends once).
std::vector<bpf_insn> lock_begin_program(int start, int stacks, int drops) {
  Asm a;
  lock_key(a);
  save_stack_and_time(a, stacks);
  map_update(a, start, kLockKey, kSaved, BPF_NOEXIST);
  a.jump_if(BPF_JEQ, 0, 0, "exit");
  a.jump_if(BPF_JEQ, 0, -EEXIST, "exit");
  count_drop(a, drops, "exit");
  a.label("exit");
  a.movi(0, 0);
  a.exit();
  return a.finish();
}

/// The lock wait's end on lock:contention_end(lock, ret): counted under {stack id, state 0}.
std::vector<bpf_insn> lock_end_program(int start, int counts, int drops) {
  Asm a;
  lock_key(a);
  map_lookup(a, start, kLockKey);
  a.jump_if(BPF_JEQ, 0, 0, "exit");
  a.mov(7, 0);
  wait_since_saved(a);
  a.load(1, 7, 8);
  a.store(10, kCountKey, 1);
  for (std::int16_t off = 8; off < 32; off += 8) a.storei(10, static_cast<std::int16_t>(kCountKey + off), 0);
  map_delete(a, start, kLockKey);
  add_count_and_exit(a, counts, drops);
  return a.finish();
}

int load_program(const std::vector<bpf_insn>& insns) {
  static const char license[] = "GPL";  // bpf_get_stackid is GPL-only
  bpf_attr a{};
  a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
  a.insns = reinterpret_cast<std::uint64_t>(insns.data());
  a.insn_cnt = static_cast<std::uint32_t>(insns.size());
  a.license = reinterpret_cast<std::uint64_t>(license);
  std::memcpy(a.prog_name, "rlab_waits", 11);
  long fd = sys_bpf(BPF_PROG_LOAD, a);
  if (fd >= 0) return static_cast<int>(fd);
  const int first = errno;
  std::string log(1 << 16, '\0');  // again with the verifier's log, for the message
  a.log_level = 1;
  a.log_buf = reinterpret_cast<std::uint64_t>(log.data());
  a.log_size = static_cast<std::uint32_t>(log.size());
  fd = sys_bpf(BPF_PROG_LOAD, a);
  if (fd >= 0) return static_cast<int>(fd);
  log.resize(std::strlen(log.c_str()));
  if (log.size() > 2000) log = "..." + log.substr(log.size() - 2000);
  errno = first;
  throw bpf_error("bpf(BPF_PROG_LOAD, raw tracepoint program)" + (log.empty() ? "" : " [verifier: " + log + "]"));
}

/// Deletes every key of map `fd` (key of `key_size` bytes).
void clear_map(int fd, std::size_t key_size) {
  std::vector<unsigned char> key(key_size);
  for (;;) {
    bpf_attr a{};
    a.map_fd = static_cast<std::uint32_t>(fd);
    a.key = 0;  // the first key
    a.next_key = reinterpret_cast<std::uint64_t>(key.data());
    if (sys_bpf(BPF_MAP_GET_NEXT_KEY, a) != 0) return;
    bpf_attr d{};
    d.map_fd = static_cast<std::uint32_t>(fd);
    d.key = reinterpret_cast<std::uint64_t>(key.data());
    if (sys_bpf(BPF_MAP_DELETE_ELEM, d) != 0) return;
  }
}

bool lookup(int fd, const void* key, void* value) {
  bpf_attr a{};
  a.map_fd = static_cast<std::uint32_t>(fd);
  a.key = reinterpret_cast<std::uint64_t>(key);
  a.value = reinterpret_cast<std::uint64_t>(value);
  return sys_bpf(BPF_MAP_LOOKUP_ELEM, a) == 0;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// Attaches `prog` to raw tracepoint `name`: the link's fd, or -1 with errno set.
int attach(const char* name, int prog) {
  bpf_attr a{};
  a.raw_tracepoint.name = reinterpret_cast<std::uint64_t>(name);
  a.raw_tracepoint.prog_fd = static_cast<std::uint32_t>(prog);
  return static_cast<int>(sys_bpf(BPF_RAW_TRACEPOINT_OPEN, a));
}

}  // namespace

std::unique_ptr<BpfWaits> BpfWaits::open(bool with_s) {
  std::unique_ptr<BpfWaits> w(new BpfWaits);
  w->offcpu_start_fd_ = create_map(BPF_MAP_TYPE_HASH, 8, sizeof(Saved), kTasks, "offcpu start");
  w->lock_start_fd_ = create_map(BPF_MAP_TYPE_HASH, 16, 16, kTasks, "lock start");
  w->counts_fd_ = create_map(BPF_MAP_TYPE_HASH, sizeof(CountKey), sizeof(CountVal), kCounts, "counts");
  w->stacks_fd_ = create_map(BPF_MAP_TYPE_STACK_TRACE, 4, 8 * kFrames, kStacks, "stacks");
  w->drops_fd_ = create_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, "drops");
  const int offcpu = load_program(offcpu_program(with_s, w->offcpu_start_fd_, w->counts_fd_, w->stacks_fd_, w->drops_fd_));
  w->progs_.push_back({"sched_switch", offcpu});
  const int begin = load_program(lock_begin_program(w->lock_start_fd_, w->stacks_fd_, w->drops_fd_));
  w->progs_.push_back({"contention_begin", begin});
  const int end = load_program(lock_end_program(w->lock_start_fd_, w->counts_fd_, w->drops_fd_));
  w->progs_.push_back({"contention_end", end});
  // Which tracepoints this kernel has: attach each once.
  std::vector<std::string> missing;
  for (auto& p : w->progs_) {
    const int fd = attach(p.tracepoint, p.prog_fd);
    if (fd < 0) missing.push_back(std::string(p.tracepoint) + ": " + std::strerror(errno));
    else ::close(fd);
  }
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
  for (auto& p : progs_) close_fd(p.prog_fd);
  for (int* fd : {&offcpu_start_fd_, &lock_start_fd_, &counts_fd_, &stacks_fd_, &drops_fd_}) close_fd(*fd);
}

void BpfWaits::start() {
  stop();
  clear_map(offcpu_start_fd_, 8);
  clear_map(lock_start_fd_, 16);
  clear_map(counts_fd_, sizeof(CountKey));
  clear_map(stacks_fd_, 4);
  const std::uint32_t zero = 0;
  const std::uint64_t none = 0;
  bpf_attr u{};
  u.map_fd = static_cast<std::uint32_t>(drops_fd_);
  u.key = reinterpret_cast<std::uint64_t>(&zero);
  u.value = reinterpret_cast<std::uint64_t>(&none);
  sys_bpf(BPF_MAP_UPDATE_ELEM, u);
  for (auto& p : progs_) {
    const bool sched = std::string_view(p.tracepoint) == "sched_switch";
    if (sched ? !offcpu_ : !lock_) continue;
    p.link_fd = attach(p.tracepoint, p.prog_fd);
    if (p.link_fd < 0) throw bpf_error(std::string("bpf(BPF_RAW_TRACEPOINT_OPEN, ") + p.tracepoint + ")");
  }
}

void BpfWaits::stop() {
  for (auto& p : progs_) close_fd(p.link_fd);
}

std::vector<WaitEntry> BpfWaits::entries() const {
  std::vector<WaitEntry> out;
  CountKey key{}, next{};
  bool first = true;
  for (;;) {
    bpf_attr a{};
    a.map_fd = static_cast<std::uint32_t>(counts_fd_);
    a.key = first ? 0 : reinterpret_cast<std::uint64_t>(&key);
    a.next_key = reinterpret_cast<std::uint64_t>(&next);
    if (sys_bpf(BPF_MAP_GET_NEXT_KEY, a) != 0) break;
    first = false;
    key = next;
    CountVal v{};
    if (!lookup(counts_fd_, &key, &v)) continue;
    WaitEntry e;
    e.state = static_cast<std::uint32_t>(key.state);
    e.comm.assign(key.comm, strnlen(key.comm, sizeof key.comm));
    e.count = v.count;
    e.total_ns = v.total_ns;
    if (key.stack_id >= 0) {
      std::uint64_t ips[kFrames] = {};
      const auto id = static_cast<std::uint32_t>(key.stack_id);
      if (lookup(stacks_fd_, &id, ips))
        for (std::uint64_t ip : ips) {
          if (ip == 0) break;
          e.ips.push_back(ip);
        }
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::uint64_t BpfWaits::dropped() const {
  const std::uint32_t zero = 0;
  std::uint64_t n = 0;
  return lookup(drops_fd_, &zero, &n) ? n : 0;
}

}  // namespace rlab::agent
