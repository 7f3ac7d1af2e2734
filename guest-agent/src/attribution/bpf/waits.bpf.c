// SPDX-License-Identifier: GPL-2.0
/* Where tasks wait, by kernel stack, counted in the kernel (the design, its limits and cost:
 * attribution/bpf_waits.hpp). Raw tracepoints, no CO-RE: the programs read only the
 * tracepoints' u64 arguments, so no kernel BTF is needed. The context is declared as u64 *
 * (as BPF_PROG does), not struct bpf_raw_tracepoint_args *: the verifier checks a struct
 * context against the kernel's BTF, and without one refuses it ("btf_vmlinux is malformed").
 *  - off-CPU on sched_switch(preempt, prev, next, prev_state) (Linux >= 5.18);
 *  - lock waits on lock:contention_begin(lock, flags) / contention_end(lock, ret) (>= 5.19). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "waits.h"

#define EEXIST 17
#define TASK_REPORT 0x7f  /* the state bits sched_switch reports */
#define TASK_NOLOAD 0x400 /* an idle wait (TASK_IDLE), not the load's */
#define TASK_INTERRUPTIBLE 1
#define TASK_UNINTERRUPTIBLE 2
#define AGENT_PID 1 /* rlab-agent is PID 1: its own sleeps are not the load's */


/* A wait under way: when it began and the waiter's stack (and off-CPU its state and comm). */
struct saved {
	__u64 ts;
	__s64 stack_id;
	__u64 state;
	char comm[16];
};

/* A lock wait's key: the waiting thread and the lock (a wait inside a wait, e.g. the spin on a
 * semaphore's own spinlock after wakeup, is its own entry). */
struct lock_key {
	__u64 pid_tgid;
	__u64 lock;
};

struct lock_saved {
	__u64 ts;
	__s64 stack_id;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WAITS_TASKS);
	__type(key, __u64); /* the task pointer */
	__type(value, struct saved);
} offcpu_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WAITS_TASKS);
	__type(key, struct lock_key);
	__type(value, struct lock_saved);
} lock_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WAITS_COUNTS);
	__type(key, struct waits_key);
	__type(value, struct waits_val);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, WAITS_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, WAITS_FRAMES * sizeof(__u64));
} stacks SEC(".maps");

/* Waits that could not be counted (a full map). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} drops SEC(".maps");

static __always_inline void count_drop(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&drops, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* counts[key] += (1, ns). */
static __always_inline void add_count(struct waits_key *key, __u64 ns)
{
	struct waits_val *v = bpf_map_lookup_elem(&counts, key);

	if (!v) {
		struct waits_val first = { .count = 1, .total_ns = ns };

		if (bpf_map_update_elem(&counts, key, &first, BPF_NOEXIST) == 0)
			return;
		v = bpf_map_lookup_elem(&counts, key); /* another CPU added the key first */
		if (!v) {
			count_drop();
			return;
		}
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->total_ns, ns);
}

/* Whether a switch-out in `state` is counted: every D sleep; with `with_s` one S sleep in
 * WAITS_S_SAMPLE, at random (waits.h). */
static __always_inline int counted_state(__u64 state, int with_s)
{
	if (state == TASK_UNINTERRUPTIBLE)
		return 1;
	return with_s && state == TASK_INTERRUPTIBLE && bpf_get_prandom_u32() % WAITS_S_SAMPLE == 0;
}

/* A switch-out of `prev` asleep in D (or, sampled, S with `with_s`), not preempted, not
 * TASK_NOLOAD, not the agent: saves {now, stack, state, comm} keyed by the task. A switch-in
 * of `next` with a saved entry counts the sleep and deletes the entry. */
static __always_inline int sched_switch(__u64 *ctx, int with_s)
{
	__u64 preempt = ctx[0], prev = ctx[1], next = ctx[2];
	__u64 state = ctx[3];

	if (!preempt && !(state & TASK_NOLOAD)) {
		state &= TASK_REPORT;
		if ((__u32)bpf_get_current_pid_tgid() != AGENT_PID && counted_state(state, with_s)) {
			struct saved s = { .state = state };

			bpf_get_current_comm(s.comm, sizeof(s.comm));
			s.stack_id = bpf_get_stackid(ctx, &stacks, 0);
			s.ts = bpf_ktime_get_ns();
			if (bpf_map_update_elem(&offcpu_start, &prev, &s, BPF_ANY))
				count_drop();
		}
	}

	struct saved *s = bpf_map_lookup_elem(&offcpu_start, &next);

	if (!s)
		return 0;
	__u64 ns = bpf_ktime_get_ns() - s->ts;
	struct waits_key key = { .stack_id = s->stack_id, .state = s->state };

	__builtin_memcpy(key.comm, s->comm, sizeof(key.comm));
	bpf_map_delete_elem(&offcpu_start, &next);
	add_count(&key, ns);
	return 0;
}

/* Two programs, one loaded: D sleeps only, or D and S. A choice made at load time through
 * global data would need the kernel's socket filter programs, which libbpf probes global data
 * with, and rlab's guest kernels have no networking. */
SEC("raw_tp/sched_switch")
int on_sched_switch_d(__u64 *ctx)
{
	return sched_switch(ctx, 0);
}

SEC("raw_tp/sched_switch")
int on_sched_switch_ds(__u64 *ctx)
{
	return sched_switch(ctx, 1);
}

/* The first begin of a task's wait for a lock is kept (a mutex that spins, then sleeps,
 * begins twice before it ends once). */
SEC("raw_tp/contention_begin")
int on_contention_begin(__u64 *ctx)
{
	struct lock_key k = { .pid_tgid = bpf_get_current_pid_tgid(), .lock = ctx[0] };
	struct lock_saved s;

	s.stack_id = bpf_get_stackid(ctx, &stacks, 0);
	s.ts = bpf_ktime_get_ns();
	long r = bpf_map_update_elem(&lock_start, &k, &s, BPF_NOEXIST);

	if (r && r != -EEXIST)
		count_drop();
	return 0;
}

/* The wait's end: counted under {stack, state 0, no comm}. */
SEC("raw_tp/contention_end")
int on_contention_end(__u64 *ctx)
{
	struct lock_key k = { .pid_tgid = bpf_get_current_pid_tgid(), .lock = ctx[0] };
	struct lock_saved *s = bpf_map_lookup_elem(&lock_start, &k);

	if (!s)
		return 0;
	__u64 ns = bpf_ktime_get_ns() - s->ts;
	struct waits_key key = { .stack_id = s->stack_id };

	bpf_map_delete_elem(&lock_start, &k);
	add_count(&key, ns);
	return 0;
}

char LICENSE[] SEC("license") = "GPL"; /* bpf_get_stackid is GPL-only */
