/* The wait collectors' shared layout: what waits.bpf.c stores in its maps and bpf_waits.cpp
 * reads back. Plain C, included by the BPF program (clang -target bpf) and the loader. */
#ifndef RLAB_WAITS_H
#define RLAB_WAITS_H

#include <linux/types.h>

/* Frames kept per stack: the stack map's value is WAITS_FRAMES x 8 bytes. */
#define WAITS_FRAMES 32
/* Tasks asleep, or waiting for a lock, at once (saved starts per map). */
#define WAITS_TASKS 16384
/* Distinct {stack, state, comm} counted per pass. */
#define WAITS_COUNTS 8192
/* Stack map buckets: two distinct stacks hashing to one bucket leave the second without a
 * stack id (bpf_get_stackid -EEXIST), counted under "[no stack]"; a few hundred distinct
 * stacks a pass make that rare at 16,384. */
#define WAITS_STACKS 16384

/* S (interruptible) sleeps, counted only with `full`, are sampled: one in WAITS_S_SAMPLE,
 * chosen at random (bpf_get_prandom_u32, so no periodic pattern of the load's sleeps aliases
 * with it), walks a stack and is counted; the reader multiplies their counts and times by it.
 * A shell pipeline sleeps in S at almost every step, and a stack walk at each cost more of the
 * load than the 1% target allows (docs/benchmarks.md "Attribution overhead"). D sleeps and
 * lock waits are all counted. */
#define WAITS_S_SAMPLE 8

/* The `counts` map's key: the waiter's kernel stack id (< 0: none), its state (0 a lock wait;
 * off-CPU 2 = D, 1 = S) and its comm when it switched out ("" for lock waits). */
struct waits_key {
	__s64 stack_id;
	__u64 state;
	char comm[16];
};

/* The `counts` map's value: waits, and their time summed in ns (begin to end, switch-out to
 * switch-in). */
struct waits_val {
	__u64 count;
	__u64 total_ns;
};

#endif
