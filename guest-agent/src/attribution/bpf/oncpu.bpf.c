// SPDX-License-Identifier: GPL-2.0
/* On-CPU samples aggregated in the kernel: a program on every CPU's cpu-clock perf event
 * counts each sample under {kernel stack, task name} (attribution/oncpu.hpp). The agent
 * reads the counts once, after the pass: nothing is streamed or polled during it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "oncpu.h"

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, ONCPU_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, ONCPU_FRAMES * sizeof(__u64));
} oncpu_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ONCPU_ROWS);
	__type(key, struct oncpu_key);
	__type(value, __u64);
} samples SEC(".maps");

/* Samples that could not be counted (a full map). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} oncpu_drops SEC(".maps");

/* The context is declared void * (no field is read): a struct context would be checked
 * against kernel BTF, which rlab's guest kernels do not have. */
SEC("perf_event")
int on_sample(void *ctx)
{
	struct oncpu_key key = {};

	key.stack_id = bpf_get_stackid(ctx, &oncpu_stacks, 0);
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	__u64 *n = bpf_map_lookup_elem(&samples, &key);

	if (n) {
		__sync_fetch_and_add(n, 1);
		return 0;
	}
	__u64 one = 1;

	if (bpf_map_update_elem(&samples, &key, &one, BPF_NOEXIST) == 0)
		return 0;
	n = bpf_map_lookup_elem(&samples, &key); /* another CPU added the key first */
	if (n) {
		__sync_fetch_and_add(n, 1);
		return 0;
	}
	__u32 zero = 0;
	__u64 *drops = bpf_map_lookup_elem(&oncpu_drops, &zero);

	if (drops)
		__sync_fetch_and_add(drops, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL"; /* bpf_get_stackid is GPL-only */
